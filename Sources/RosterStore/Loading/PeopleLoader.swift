import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// What a load produced: the people, what was skipped, and how long it took.
public struct LoadedDirectory: Sendable {
    public let store: PeopleStore
    public let skipped: [SkippedRecord]
    /// The name to show for the source (a path as given, or "stdin").
    public let sourceName: String
    public let byteCount: Int
    public let parseDuration: Duration
    public let storeDuration: Duration

    public init(store: PeopleStore, skipped: [SkippedRecord], sourceName: String, byteCount: Int,
                parseDuration: Duration = .zero, storeDuration: Duration = .zero) {
        self.store = store
        self.skipped = skipped
        self.sourceName = sourceName
        self.byteCount = byteCount
        self.parseDuration = parseDuration
        self.storeDuration = storeDuration
    }
}

/// Reads a file (or stream) of people in large chunks and parses it: a
/// JSON array here, JSON Lines and CSV with their own parsers through the
/// same loop (`Readers/RecordLoading.swift`).
///
/// The file is read with `pread`, never mapped: a mapped file that another
/// program truncates mid-load kills the reader with SIGBUS, while a read
/// simply comes back short, which is reported as one clear line. Only the
/// chunk being parsed is in memory, so peak RSS stays below the file's size.
///
/// A regular file larger than `parallelThreshold` is parsed as two halves
/// at once: the second half starts at an element boundary guessed near the
/// middle, and its work is kept only if the first half, parsing normally,
/// arrives exactly at that boundary (otherwise the first half simply goes
/// on to the end). The input is only ever opened read-only.
public struct PeopleLoader: Sendable {
    public var chunkSize: Int
    public var parallelThreshold: Int
    /// Called after each chunk is read, with the offset read up to (tests
    /// use it to change the file between two reads, deterministically).
    public var afterChunk: (@Sendable (Int) -> Void)?
    /// The input's format (`--format`); nil: a file's extension names it,
    /// or else its first bytes do (`InputFormat(sniffing:)`).
    public var format: InputFormat?
    /// The most one record may hold (64 MiB): a longer one is skipped with
    /// its line, or, where the reader cannot find the next record (a JSON
    /// list, a quoted CSV cell), the load stops naming its line. Memory
    /// stays bounded whatever the input (`/dev/zero`).
    public var recordLimit: Int

    public static let defaultRecordLimit = 64 << 20

    /// Keeps only each record's `_id` and where it starts (JSON and JSON
    /// Lines files; every value is still read past and checked as JSON):
    /// for finding a record to rewrite, at a fraction of a load's time and
    /// memory. No record is skipped for what its values hold.
    public var locatesOnly = false

    public init(chunkSize: Int = 1 << 20, parallelThreshold: Int = 16 << 20, format: InputFormat? = nil,
                recordLimit: Int = PeopleLoader.defaultRecordLimit, afterChunk: (@Sendable (Int) -> Void)? = nil) {
        self.chunkSize = chunkSize
        self.recordLimit = recordLimit
        self.parallelThreshold = parallelThreshold
        self.format = format
        self.afterChunk = afterChunk
    }

    /// Loads the file at `path`; `sourceName` is how messages name it.
    public func load(path: String, sourceName: String, progress: LoadProgress = LoadProgress()) async throws(LoadError) -> LoadedDirectory {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(file: sourceName) }
            throw .notReadable(file: sourceName, reason: Descriptor.describe(errno: code))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .notReadable(file: sourceName, reason: Descriptor.describe(errno: errno))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            // A folder of .vcf files, as khard and vdirsyncer keep a contact list.
            guard format == nil || format == .vCard else { throw .isDirectory(file: sourceName) }
            return try loadCardFolder(path: path, sourceName: sourceName, progress: progress, started: ContinuousClock.now)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return try stream(descriptor: descriptor, sourceName: sourceName, progress: progress)
        }
        let size = Int(status.st_size)
        progress.totalBytes.store(size, ordering: .relaxed)
        let started = ContinuousClock.now
        let file = FileInput(descriptor: descriptor, size: size)
        let format: InputFormat
        if let named = self.format ?? InputFormat(extensionOf: sourceName) {
            format = named
        } else {
            format = try Self.sniff(file, sourceName: sourceName)
        }
        if size == 0, format == .json { throw .empty(file: sourceName) }
        if format.isFieldRecords {
            return try loadFields(file: file, format: format, sourceName: sourceName, progress: progress, started: started)
        }
        if format != .json {
            return try await loadRecords(file: file, format: format, sourceName: sourceName, progress: progress, started: started)
        }
        if size >= parallelThreshold, let boundary = try Self.findBoundary(in: file, near: size / 2, sourceName: sourceName) {
            return try await loadHalves(first: PeopleParser(boundary: boundary, expectedPeople: boundary / 400, locatesOnly: locatesOnly),
                                        second: PeopleParser(startingInside: true, expectedPeople: (size - boundary) / 400,
                                                             startOffset: boundary, locatesOnly: locatesOnly),
                                        file: file, boundary: boundary, sourceName: sourceName, progress: progress, started: started)
        }
        var parser = PeopleParser(expectedPeople: size / 400, locatesOnly: locatesOnly)
        try run(&parser, input: file, from: 0, sourceName: sourceName, progress: progress)
        return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: size, started: started)
    }

    /// Loads from a pipe or other stream (standard input), chunk by chunk.
    public func stream(descriptor: Int32, sourceName: String, progress: LoadProgress = LoadProgress()) throws(LoadError) -> LoadedDirectory {
        let started = ContinuousClock.now
        let input = try PrefixedStreamInput(descriptor: descriptor, sourceName: sourceName)
        let format = self.format ?? input.sniffedFormat
        if format.isFieldRecords {
            return try streamFields(input: input, format: format, sourceName: sourceName, progress: progress, started: started)
        }
        if format != .json {
            return try streamRecords(input: input, format: format, sourceName: sourceName, progress: progress, started: started)
        }
        var parser = PeopleParser()
        let byteCount = try run(&parser, input: input, from: 0, sourceName: sourceName, progress: progress)
        return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: byteCount, started: started)
    }

    /// Loads from bytes in memory (tests, and the reference comparisons).
    public func load(bytes: [UInt8], sourceName: String) throws(LoadError) -> LoadedDirectory {
        let started = ContinuousClock.now
        let format = self.format ?? InputFormat(extensionOf: sourceName) ?? InputFormat(sniffing: bytes)
        if format.isFieldRecords { return try loadFields(bytes: bytes, format: format, sourceName: sourceName, started: started) }
        if format != .json { return try loadRecords(bytes: bytes, format: format, sourceName: sourceName, started: started) }
        return try parseAll(PeopleParser(), bytes: bytes, sourceName: sourceName, started: started)
    }

    /// All of `bytes` through `parser`, in one piece.
    func parseAll<Parser: ChunkParser>(_ parser: Parser, bytes: [UInt8], sourceName: String,
                                       started: ContinuousClock.Instant) throws(LoadError) -> LoadedDirectory {
        var parser = parser
        do {
            _ = try bytes.withUnsafeBufferPointer { buffer throws(ParseError) in
                try parser.parse(buffer, base: 0, isFinal: true)
            }
        } catch {
            throw Self.loadError(error, sourceName: sourceName, byteCount: bytes.count)
        }
        return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: bytes.count, started: started)
    }

    // MARK: Two halves

    /// `first` parses from the start and stops at `boundary`; `second`
    /// parses from `boundary` to the end, at the same time. (Every format:
    /// each parser knows how to stop at, and start from, a boundary.)
    /// `second` is made on the other thread, and only its frozen results
    /// come back: a parser and the builder it fills never cross threads.
    func loadHalves<Parser: ChunkParser>(first: Parser, second: @autoclosure @escaping @Sendable () -> Parser, file: FileInput,
                                         boundary: Int, sourceName: String, progress: LoadProgress,
                                         started: ContinuousClock.Instant) async throws(LoadError) -> LoadedDirectory {
        let loader = self
        let size = file.size
        let secondHalf = Task.detached { () -> Result<ParsedPart, LoadError> in
            var parser = second()
            do throws(LoadError) {
                try loader.run(&parser, input: file, from: boundary, sourceName: sourceName, progress: progress)
                return .success(parser.finished())
            } catch {
                return .failure(error)
            }
        }
        var first = first
        let firstResult: Result<Void, LoadError>
        do throws(LoadError) {
            try run(&first, input: file, from: 0, until: boundary, sourceName: sourceName, progress: progress)
            firstResult = .success(())
        } catch {
            firstResult = .failure(error)
        }
        let second = await secondHalf.value
        try firstResult.get()
        guard first.reachedBoundary else {
            // The guess was inside a value; the first half read everything.
            return finish([first], secondIndexOffset: nil, sourceName: sourceName, byteCount: size, started: started)
        }
        switch second {
        case .success(let part):
            return finish([first.finished(), part], secondIndexOffset: first.elementCount, sourceName: sourceName,
                          byteCount: size, started: started)
        case .failure(let error):
            throw error  // its place was counted from the file's start (`FileInput.exact`)
        }
    }

    /// An offset near `middle` where an element of the top-level array
    /// probably starts: a `{` after `}` and `,`. Only a guess; see above.
    static func findBoundary(in file: FileInput, near middle: Int, sourceName: String) throws(LoadError) -> Int? {
        var window = [UInt8](repeating: 0, count: min(1 << 16, file.size - middle))
        let count = try window.withUnsafeMutableBufferPointer { buffer throws(LoadError) in
            try file.read(into: buffer, at: middle, sourceName: sourceName)
        }
        return window.withUnsafeBufferPointer { findBoundary(in: UnsafeBufferPointer(rebasing: $0[0..<count]), startingAt: middle) }
    }

    static func findBoundary(in bytes: UnsafeBufferPointer<UInt8>, startingAt offset: Int) -> Int? {
        let count = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var index = 0
        while index < count {
            if bytes[index] == UInt8(ascii: "}") {
                var next = index + 1
                while next < count, isSpace(bytes[next]) { next += 1 }
                if next < count, bytes[next] == UInt8(ascii: ",") {
                    next += 1
                    while next < count, isSpace(bytes[next]) { next += 1 }
                    if next < count, bytes[next] == UInt8(ascii: "{") { return offset + next }
                }
            }
            index += 1
        }
        return nil
    }

    // MARK: The chunk loop

    /// Feeds `parser` from `input`, a buffer at a time, from `start` until
    /// the input ends or the parser reaches its boundary. Each buffer is
    /// filled completely before it is parsed: a pipe hands over 64 KiB at a
    /// time, and parsing after each piece re-read a huge element from its
    /// start every time (quadratic). The buffer doubles past an element
    /// larger than itself, so that costs linear time too. `until` is where
    /// progress stops counting (the other half counts the rest). Returns the
    /// bytes read.
    @discardableResult
    func run<Parser: ChunkParser, Input: ChunkInput>(_ parser: inout Parser, input: Input, from start: Int, until progressEnd: Int? = nil,
                                                     sourceName: String, progress: LoadProgress) throws(LoadError) -> Int {
        var capacity = chunkSize
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0
        var base = start
        var totalRead = 0
        var reportedPeople = 0
        while true {
            var atEnd = false
            while filled < capacity {
                let count = try input.read(into: UnsafeMutableBufferPointer(start: buffer + filled, count: capacity - filled),
                                           at: base + filled, sourceName: sourceName)
                if count == 0 {
                    atEnd = true
                    break
                }
                let counted = progressEnd.map { max(0, min(count, $0 - (base + filled))) } ?? count
                progress.bytesRead.add(counted, ordering: .relaxed)
                filled += count
                totalRead += count
            }
            afterChunk?(base + filled)
            if atEnd { try input.checkComplete(at: base + filled, sourceName: sourceName) }
            let used: Int
            do {
                used = try parser.parse(UnsafeBufferPointer(start: buffer, count: filled), base: base, isFinal: atEnd)
            } catch {
                throw Self.loadError(input.exact(error), sourceName: sourceName, byteCount: base + filled)
            }
            progress.peopleLoaded.add(parser.segment.count - reportedPeople, ordering: .relaxed)
            reportedPeople = parser.segment.count
            if atEnd || parser.reachedBoundary { return totalRead }
            filled -= used
            base += used
            if used > 0, filled > 0 { buffer.update(from: buffer + used, count: filled) }
            if filled >= recordLimit {
                // One element longer than a record may be: pass over it, or stop.
                let skipped = parser.skipLongRecord(UnsafeBufferPointer(start: buffer, count: filled), limit: recordLimit)
                guard skipped else {
                    let reason = "the record starting on this line is " + Parser.tooLong(recordLimit) + "; nothing was loaded"
                    throw .invalid(file: sourceName, line: parser.line, column: nil, message: reason)
                }
                base += filled
                filled = 0
            } else if filled == capacity {
                // One element larger than the buffer: grow before reading on.
                let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                larger.update(from: buffer, count: filled)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
        }
    }

    // MARK: Results

    func finish<Parser: ChunkParser>(_ parsers: [Parser], secondIndexOffset: Int?, sourceName: String,
                                     byteCount: Int, started: ContinuousClock.Instant) -> LoadedDirectory {
        finish(parsers.map { $0.finished() }, secondIndexOffset: secondIndexOffset, sourceName: sourceName,
               byteCount: byteCount, started: started)
    }

    func finish(_ parts: [ParsedPart], secondIndexOffset: Int?, sourceName: String,
                byteCount: Int, started: ContinuousClock.Instant) -> LoadedDirectory {
        let parsed = ContinuousClock.now
        var skipped = parts[0].skipped
        if parts.count > 1, let secondIndexOffset {
            let lineShift = parts[0].line - 1
            skipped += parts[1].skipped.map {
                SkippedRecord(number: $0.number + secondIndexOffset, line: $0.line + lineShift, reason: $0.reason)
            }
        }
        let store = PeopleStore(segments: parts.map(\.segment))
        return LoadedDirectory(store: store, skipped: skipped, sourceName: sourceName, byteCount: byteCount,
                               parseDuration: parsed - started, storeDuration: ContinuousClock.now - parsed)
    }

    static func loadError(_ error: ParseError, sourceName: String, byteCount: Int) -> LoadError {
        switch error {
        case .empty:
            return byteCount == 0 ? .empty(file: sourceName) : .whitespaceOnly(file: sourceName)
        case .notAnArray(let found, _):
            return .notAnArray(file: sourceName, found: found)
        case .syntax(let message, let location):
            return .syntax(file: sourceName, line: location.line, column: location.column, message: message)
        case .invalid(let message, let location):
            return .invalid(file: sourceName, line: location?.line, column: location?.column, message: message)
        }
    }

}
