#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// What the org chart reads of a file held in memory: each person's
/// identifiers (`_id`, email, full name; an `_id` that is a DN, as an LDIF
/// entry's is, as a DN too) from the store, and the reference to their
/// manager read from their record in the file — a `manager` key of a JSON
/// record, a `manager` column of a CSV file, a card's
/// `RELATED;TYPE=manager:`, an LDIF entry's `manager:` (a DN) — which the
/// store does not keep. Read from the file again, at the offset the store
/// says each record starts, once per store (`KeptOrgChartReading`).
public struct FileManagerReferences: PersonReferenceSource, Sendable {
    /// The key (JSON) or header (CSV) a manager reference is read from.
    public static let fieldName = ManagerField.name

    public let store: PeopleStore
    /// Every manager reference's bytes, one after another.
    private let referenceBytes: [UInt8]
    /// Per person, where their reference starts in `referenceBytes`; -1 for none.
    private let referenceStarts: [Int]
    private let referenceEnds: [Int]

    /// The references of the people of `store` in `fileBytes`, the file it
    /// was read from; nil when no record has a manager field at all, unless
    /// `evenWithoutManagers` (an edit giving the first one checks it
    /// against everyone's identifiers).
    public init?(store: PeopleStore, fileBytes: UnsafeBufferPointer<UInt8>, format: InputFormat?, evenWithoutManagers: Bool = false) {
        let format = format ?? InputFormat(sniffing: fileBytes)
        let reader = RecordFieldReader(fileBytes: fileBytes, format: format, field: Self.fieldName)
        guard reader.canHaveField || evenWithoutManagers else { return nil }
        // Safe: the file's bytes are only read, and outlive this call.
        nonisolated(unsafe) let whole = reader
        self.init(store: store, runs: Self.read(store) { people in Self.run(people, of: store, with: whole) },
                  evenWithoutManagers: evenWithoutManagers)
    }

    /// The references of the people of `store` in the regular file open
    /// at `descriptor` (`size` bytes), the file it was read from: each run
    /// of records read into a buffer of its own, the runs across the cores,
    /// so the whole file is never held at once. Nil when no record has a
    /// manager field; throws (an errno) when the file could not be read.
    public init?(store: PeopleStore, file descriptor: Int32, size: Int, format: InputFormat?) throws(FileUnreadable) {
        let firstRecord = store.count > 0 ? store.fileOffset(of: 0) : 0
        // The header, and enough of the start to tell the format by.
        guard let opening = Self.bytes(of: descriptor, 0..<min(size, max(firstRecord, 1 << 20))) else { throw FileUnreadable() }
        let format = format ?? opening.withUnsafeBufferPointer { InputFormat(sniffing: $0) }
        let inFileOrder = (1..<max(1, store.count)).allSatisfy { store.fileOffset(of: $0 - 1) < store.fileOffset(of: $0) }
        let runs = opening.withUnsafeBufferPointer { opening -> [Run]? in
            let reader = RecordFieldReader(fileBytes: opening, format: format, field: Self.fieldName)
            guard reader.canHaveField else { return nil }
            // Safe: only its format and column are read (each run reads a window of its own).
            nonisolated(unsafe) let header = reader
            return Self.read(store, runLength: inFileOrder ? nil : store.count) { people in
                // A run's records lie between its first one's start and the next run's (the whole file when out of order).
                let end = inFileOrder && people.upperBound < store.count ? store.fileOffset(of: people.upperBound) : size
                let start = inFileOrder ? store.fileOffset(of: people.lowerBound) : 0
                guard start <= end else { return Run(failure: EIO) }  // the file is shorter than when it was read
                let window = start..<end
                guard let bytes = Self.bytes(of: descriptor, window) else { return Run(failure: errno) }
                return bytes.withUnsafeBufferPointer {
                    Self.run(people, of: store, with: header.window($0, at: window.lowerBound), inFileOrder: inFileOrder)
                }
            }
        }
        guard let runs else { return nil }
        if let failed = runs.first(where: { $0.failure != 0 }) { throw FileUnreadable(code: failed.failure) }
        self.init(store: store, runs: runs)
    }

    private init?(store: PeopleStore, runs: [Run], evenWithoutManagers: Bool = false) {
        guard evenWithoutManagers || runs.contains(where: { $0.starts.contains { $0 >= 0 } }) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(runs.reduce(0) { $0 + $1.bytes.count })
        var starts: [Int] = []
        var ends: [Int] = []
        starts.reserveCapacity(store.count)
        ends.reserveCapacity(store.count)
        for run in runs {
            let base = bytes.count
            starts += run.starts.lazy.map { $0 < 0 ? -1 : base + $0 }
            ends += run.ends.lazy.map { $0 < 0 ? -1 : base + $0 }
            bytes += run.bytes
        }
        self.store = store
        referenceBytes = bytes
        referenceStarts = starts
        referenceEnds = ends
    }

    /// One run of people's references: their bytes, and where each
    /// person's start and end in them (-1: none).
    private struct Run: Sendable {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var ends: [Int] = []
        /// The errno of a run whose records could not be read, else 0.
        var failure: Int32 = 0
    }

    /// Every person's reference, by runs of people (`runLength` long, by
    /// default a sixteenth of everyone) across the cores.
    private static func read(_ store: PeopleStore, runLength: Int? = nil, _ readRun: @Sendable (Range<Int>) -> Run) -> [Run] {
        let count = store.count
        let runLength = max(1, runLength ?? max(4096, (count + 15) / 16))
        return Parallel.map((count + runLength - 1) / runLength) { index in
            readRun((index * runLength)..<min(count, (index + 1) * runLength))
        }
    }

    /// The references of `people`, whose records `reader` reads (each
    /// ending where the next starts when they are in file order).
    private static func run(_ people: Range<Int>, of store: PeopleStore, with reader: RecordFieldReader, inFileOrder: Bool = false) -> Run {
        var run = Run()
        run.starts.reserveCapacity(people.count)
        run.ends.reserveCapacity(people.count)
        var cursor = JSONCursor(bytes: reader.fileBytes, base: reader.start, isFinal: true, line: 1, lineStart: 0)
        for person in people {
            let end = inFileOrder ? (person + 1 < people.upperBound ? store.fileOffset(of: person + 1) : reader.start + reader.fileBytes.count) : nil
            guard let value = reader.value(atRecordStartingAt: store.fileOffset(of: person), endingBefore: end, cursor: &cursor) else {
                run.starts.append(-1)
                run.ends.append(-1)
                continue
            }
            run.starts.append(run.bytes.count)
            run.bytes += value
            run.ends.append(run.bytes.count)
        }
        return run
    }

    /// The bytes of `range` of the file at `descriptor`; nil (errno set)
    /// when they cannot all be read (EIO: the file ends before them).
    private static func bytes(of descriptor: Int32, _ range: Range<Int>) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: range.count)
        let complete = bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var done = 0
            while done < range.count {
                let got = pread(descriptor, base + done, range.count - done, off_t(range.lowerBound + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    if got == 0 { errno = EIO }
                    return false
                }
                done += got
            }
            return true
        }
        return complete ? bytes : nil
    }

    public var count: Int { store.count }

    public func forEachIdentifier(_ kind: PersonReferenceKind, of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch kind {
        case .id: store.withBytes(.id, of: person) { if !$0.isEmpty { body($0) } }
        case .email: store.withBytes(.email, of: person) { if !$0.isEmpty { body($0) } }
        case .name:
            var name = store.text(.firstName, of: person)
            let last = store.text(.lastName, of: person)
            if !name.isEmpty, !last.isEmpty { name += " " }
            name += last
            if !name.isEmpty { name.withUTF8(body) }
        case .distinguishedName:
            // An LDIF entry's id is its DN, which managers name however they
            // spell it; so is such an id in any file (an LDIF exported to CSV,
            // JSON or vCard), as a table takes it (`SQLManagerReferences`).
            store.withBytes(.id, of: person) { if $0.contains(UInt8(ascii: "=")) { body($0) } }
        }
    }

    /// `person`'s manager reference as text, nil when the record has none.
    public func managerReference(of person: Int) -> String? {
        var reference: String?
        withManagerReference(of: person) { reference = String(decoding: $0, as: UTF8.self) }
        return reference
    }

    public func withManagerReference(of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let start = referenceStarts[person]
        guard start >= 0 else { return }
        referenceBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<referenceEnds[person]])) }
    }
}

extension FileManagerReferences: ManagerReferenceLookup {
    /// A file's people are numbered as its store numbers them: as their `PersonID`.
    public func managerReference(of person: PersonID) -> String? {
        person.rawValue >= 0 && person.rawValue < count ? managerReference(of: person.rawValue) : nil
    }
}

/// A file that could not be read again: its errno.
public struct FileUnreadable: Error, Sendable {
    public let code: Int32

    public init(code: Int32 = errno) {
        self.code = code
    }
}
