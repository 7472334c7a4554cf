import Foundation
import RosterCore
import RosterStore
#if canImport(Glibc)
import Glibc
#endif

/// A directory file as it was just before it was read: what a save made
/// later checks that read against.
struct FileReading: Sendable {
    let identity: FileIdentity
    let startedAt: Date

    init?(path: String) {
        startedAt = Date()
        guard let identity = FileIdentity(path: path) else { return nil }
        self.identity = identity
    }

    /// A reading taken once the file's last change is a clock tick in the
    /// past (a tenth of a second's wait at most, usually none; just after
    /// a save, the tick of its rename), so that it vouches for what is read next.
    static func settled(path: String) async -> FileReading? {
        guard let first = FileReading(path: path) else { return nil }
        if first.vouchesForContent { return first }
        let wait = first.identity.modifiedAt + first.identity.tick - first.startedAt.timeIntervalSince1970
        try? await Task.sleep(for: .milliseconds(Int(min(max(wait, 0), 1) * 1000) + 1))
        return FileReading(path: path)
    }

    /// Whether a file that still has `identity` is sure to hold what was
    /// read: one modified within a clock tick before the read
    /// (`FileIdentity.tick`) could have been written again since, in the
    /// same tick and at the same size, leaving all of its identity as it was.
    var vouchesForContent: Bool { !identity.isRecent(before: startedAt) }
}

/// Where the record a save changes starts, as the screens' last read of
/// the file found it (`directory`: what that read made).
struct KnownRecord: Sendable {
    let reading: FileReading
    let offset: Int
    var directory: InMemoryPeopleRepository?
}

/// One record a save rewrote in place, and the file it left: all a re-read
/// needs to read that record alone (`InMemoryPeopleRepository.rewriting`).
struct RecordRewrite: Sendable {
    let recordID: String
    let format: InputFormat
    /// Where the record starts (as before the save), and its length now.
    let offset: Int
    let length: Int
    /// How much longer it got: everyone after it moved this far.
    let shift: Int
    /// The file as the save left it.
    let written: FileIdentity
    /// The directory whose record offsets the save trusted.
    let directory: InMemoryPeopleRepository

    /// The directory after the save, from `directory` and the record as
    /// the file at `path` holds it now, and `order` (an arrangement of
    /// `directory`) if the save moved nobody in it; nil when the file is
    /// no longer the one the save wrote (then it is read whole).
    func reread(path: String, keeping order: PeopleArrangement? = nil)
        -> (directory: InMemoryPeopleRepository, kept: PeopleArrangement?)? {
        let source = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard source >= 0 else { return nil }
        defer { close(source) }
        var status = stat()
        guard fstat(source, &status) == 0, FileIdentity(status) == written,
              let record = FileSave.read(length, at: offset, of: source) else { return nil }
        return directory.rewriting(recordID: recordID, record: record, format: format, offset: offset, shift: shift, keeping: order)
    }
}

extension FileSave {
    /// One person's change when the file is still exactly the one the
    /// screens read: only that record is read (from where the read found
    /// it) and checked, and every other byte is copied in the kernel, so a
    /// save costs about a copy of the file, and no memory. Nil when the
    /// file may have changed since, or the record is not where it was, or
    /// the format is CSV: then the whole file is read, as for any save.
    static func updateInPlace(id: String, changes: [FieldChange], known: KnownRecord, path: String, target: String,
                              format: InputFormat?, base: Person?, progress: SaveProgress? = nil,
                              rewritten: ((RecordRewrite) -> Void)? = nil, found: (([Person]) -> Void)? = nil,
                              meanwhile: (() -> Void)?) -> Outcome? {
        guard let format = format ?? InputFormat(extensionOf: path), format == .json || format == .jsonLines,
              known.reading.vouchesForContent else { return nil }
        let source = open(target, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard source >= 0 else { return nil }
        defer { close(source) }
        var status = stat()
        guard fstat(source, &status) == 0, FileIdentity(status) == known.reading.identity,
              let record = recordBytes(at: known.offset, of: source, size: Int(status.st_size), format: format) else { return nil }
        // The record alone, as a file of one record in the same format.
        let opening: [UInt8] = format == .json ? [UInt8(ascii: "[")] : []
        let alone = opening + record + (format == .json ? [UInt8(ascii: "]")] : [])
        let operation = RecordOperation.update(id: id, changes: changes)
        return alone.withUnsafeBufferPointer { buffer -> Outcome? in
            guard let file = try? RecordFile(bytes: buffer, format: format, sourceName: path), file.count == 1,
                  file.contains(id: id) else { return nil }
            if let conflict = conflict(of: operation, in: file, buffer, base: base, deleting: []) { return conflict }
            if let unchanged = unchanged(by: operation, in: file, buffer) {
                found?([unchanged])
                return .saved
            }
            // The edited record in place of the old, at the same place in the file.
            guard let edited = try? file.applying(operation, to: buffer, sourceName: path), edited.count == 3,
                  case .original(let before) = edited[0], case .new(let text) = edited[1], case .original(let after) = edited[2]
            else { return nil }
            let start = known.offset - opening.count
            let pieces: [FilePiece] = [.original(0..<(start + before.upperBound)), .new(text),
                                       .original((start + after.lowerBound)..<Int(status.st_size))]
            var written: FileIdentity?
            let outcome = replace(path: path, target: target, with: pieces, from: source, identity: known.reading.identity,
                                  progress: progress, meanwhile: meanwhile, wrote: { written = $0 }) { true }
            if outcome == .saved, let found { found(file.person(id: id, in: buffer).map { [$0] } ?? []) }
            if outcome == .saved, let written, let directory = known.directory, let rewritten {
                let shift = text.count - (after.lowerBound - before.upperBound)
                rewritten(RecordRewrite(recordID: id, format: format, offset: known.offset, length: record.count + shift, shift: shift,
                                        written: written, directory: directory))
            }
            return outcome
        }
    }

    /// The record starting at `offset`: a JSON object to its closing
    /// brace, a JSON Lines record to its line's end (nil: not one there).
    /// Read a block at a time, as far as the record goes.
    private static func recordBytes(at offset: Int, of source: Int32, size: Int, format: InputFormat) -> [UInt8]? {
        var length = min(64 << 10, size - offset)
        while length > 0 {
            guard let bytes = read(length, at: offset, of: source) else { return nil }
            let isWhole = offset + length == size
            switch format {
            case .jsonLines:
                if let end = bytes.firstIndex(of: 0x0A) { return Array(bytes[..<end]) }
                if isWhole { return bytes }
            case .json, .csv, .vCard, .ldif:
                guard bytes.first == UInt8(ascii: "{") else { return nil }
                if let end = RecordFile.endOfJSONValue(in: bytes) { return Array(bytes[..<end]) }
                if isWhole { return nil }
            }
            guard length < PeopleLoader.defaultRecordLimit else { return nil }
            length = min(length * 4, size - offset)
        }
        return nil
    }

    fileprivate static func read(_ count: Int, at offset: Int, of source: Int32) -> [UInt8]? {
        guard lseek(source, off_t(offset), SEEK_SET) == off_t(offset) else { return nil }
        return readAll(source, count: count)
    }
}
