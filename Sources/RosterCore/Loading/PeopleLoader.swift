import Foundation
#if canImport(Glibc)
import Glibc
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

/// Reads a JSON file (or stream) of people in large chunks and parses it.
///
/// A regular file larger than `parallelThreshold` is parsed as two halves
/// at once: the second half starts at an element boundary guessed near the
/// middle, and its work is kept only if the first half, parsing normally,
/// arrives exactly at that boundary (otherwise the first half simply goes
/// on to the end). The input is only ever opened read-only.
public struct PeopleLoader: Sendable {
    public var chunkSize: Int
    public var parallelThreshold: Int

    public init(chunkSize: Int = 8 << 20, parallelThreshold: Int = 16 << 20) {
        self.chunkSize = chunkSize
        self.parallelThreshold = parallelThreshold
    }

    /// Loads the file at `path`; `sourceName` is how messages name it.
    public func load(path: String, sourceName: String, progress: LoadProgress = LoadProgress()) async throws(LoadError) -> LoadedDirectory {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(file: sourceName) }
            throw .notReadable(file: sourceName, reason: Self.describe(errno: code))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .notReadable(file: sourceName, reason: Self.describe(errno: errno))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(file: sourceName) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return try stream(descriptor: descriptor, sourceName: sourceName, progress: progress)
        }
        let size = Int(status.st_size)
        progress.totalBytes.store(size, ordering: .relaxed)
        if size == 0 { throw .empty(file: sourceName) }
        let started = ContinuousClock.now
        guard let file = MappedFile(descriptor: descriptor, size: size) else {
            // Not mappable (some special file systems): read it instead.
            var parser = PeopleParser(expectedPeople: size / 400)
            try run(&parser, descriptor: descriptor, from: 0, positioned: true, sourceName: sourceName, progress: progress)
            return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: size, started: started)
        }
        defer { file.unmap() }
        if size >= parallelThreshold, let boundary = Self.findBoundary(in: file.bytes, near: size / 2) {
            return try await loadHalves(file: file, boundary: boundary, sourceName: sourceName, progress: progress, started: started)
        }
        var parser = PeopleParser(expectedPeople: size / 400)
        try run(&parser, file: file, from: 0, sourceName: sourceName, progress: progress)
        return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: size, started: started)
    }

    /// Loads from a pipe or other stream (standard input), chunk by chunk.
    public func stream(descriptor: Int32, sourceName: String, progress: LoadProgress = LoadProgress()) throws(LoadError) -> LoadedDirectory {
        let started = ContinuousClock.now
        var parser = PeopleParser()
        let byteCount = try run(&parser, descriptor: descriptor, from: 0, positioned: false, sourceName: sourceName, progress: progress)
        return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: byteCount, started: started)
    }

    /// Loads from bytes in memory (tests, and the reference comparisons).
    public func load(bytes: [UInt8], sourceName: String) throws(LoadError) -> LoadedDirectory {
        let started = ContinuousClock.now
        var parser = PeopleParser()
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

    private func loadHalves(file: MappedFile, boundary: Int, sourceName: String,
                            progress: LoadProgress, started: ContinuousClock.Instant) async throws(LoadError) -> LoadedDirectory {
        let loader = self
        let size = file.bytes.count
        let secondHalf = Task.detached { () -> Result<PeopleParser, LoadError> in
            var parser = PeopleParser(startingInside: true, expectedPeople: (size - boundary) / 400, startOffset: boundary)
            do throws(LoadError) {
                try loader.run(&parser, file: file, from: boundary, sourceName: sourceName, progress: progress)
                return .success(parser)
            } catch {
                return .failure(error)
            }
        }
        var first = PeopleParser(boundary: boundary, expectedPeople: boundary / 400)
        let firstResult: Result<Void, LoadError>
        do throws(LoadError) {
            // The second half counts the bytes after the boundary.
            try run(&first, file: file, from: 0, countingUpTo: boundary, sourceName: sourceName, progress: progress)
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
        case .success(let parser):
            return finish([first, parser], secondIndexOffset: first.elementCount, sourceName: sourceName,
                          byteCount: size, started: started)
        case .failure(let error):
            throw Self.shiftLines(of: error, by: first.line - 1)
        }
    }

    /// An offset near `middle` where an element of the top-level array
    /// probably starts: a `{` after `}` and `,`. Only a guess; see above.
    static func findBoundary(in file: UnsafeBufferPointer<UInt8>, near middle: Int) -> Int? {
        let count = min(1 << 16, file.count - middle)
        guard count > 0 else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: file[middle..<(middle + count)])
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var index = 0
        while index < count {
            if bytes[index] == UInt8(ascii: "}") {
                var next = index + 1
                while next < count, isSpace(bytes[next]) { next += 1 }
                if next < count, bytes[next] == UInt8(ascii: ",") {
                    next += 1
                    while next < count, isSpace(bytes[next]) { next += 1 }
                    if next < count, bytes[next] == UInt8(ascii: "{") { return middle + next }
                }
            }
            index += 1
        }
        return nil
    }

    // MARK: The chunk loops

    /// Feeds `parser` from a mapped file, a window at a time, from `start`
    /// until the end or the parser's boundary. Pages behind the parser are
    /// given back, so the file never counts whole in the resident memory.
    /// Bytes past `limit` are not counted as read (another parser counts them).
    private func run(_ parser: inout PeopleParser, file: MappedFile, from start: Int, countingUpTo limit: Int? = nil,
                     sourceName: String, progress: LoadProgress) throws(LoadError) {
        let size = file.bytes.count
        func counted(_ end: Int) -> Int { min(end, limit ?? size) }
        var position = start
        var windowEnd = min(size, start + chunkSize)
        var released = start
        var reportedPeople = 0
        progress.bytesRead.add(counted(windowEnd) - start, ordering: .relaxed)
        while true {
            let atEnd = windowEnd == size
            let used: Int
            do {
                used = try parser.parse(UnsafeBufferPointer(rebasing: file.bytes[position..<windowEnd]), base: position, isFinal: atEnd)
            } catch {
                throw Self.loadError(error, sourceName: sourceName, byteCount: size)
            }
            progress.peopleLoaded.add(parser.segment.count - reportedPeople, ordering: .relaxed)
            reportedPeople = parser.segment.count
            if atEnd || parser.reachedBoundary { return }
            position += used
            // Grow the window past a huge element; otherwise slide it on.
            let nextEnd = min(size, used == 0 ? position + 2 * (windowEnd - position) : windowEnd + chunkSize)
            progress.bytesRead.add(counted(nextEnd) - counted(windowEnd), ordering: .relaxed)
            windowEnd = nextEnd
            released = file.release(from: released, upTo: position)
        }
    }

    /// Feeds `parser` from `descriptor` until the input ends or the parser
    /// reaches its boundary. Returns the bytes read.
    @discardableResult
    private func run(_ parser: inout PeopleParser, descriptor: Int32, from start: Int, positioned: Bool,
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
            let count = positioned
                ? pread(descriptor, buffer + filled, capacity - filled, off_t(base + filled))
                : read(descriptor, buffer + filled, capacity - filled)
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(file: sourceName, reason: Self.describe(errno: errno))
            }
            if count == 0 { atEnd = true }
            filled += count
            totalRead += count
            progress.bytesRead.add(count, ordering: .relaxed)
            let used: Int
            do {
                used = try parser.parse(UnsafeBufferPointer(start: buffer, count: filled), base: base, isFinal: atEnd)
            } catch {
                throw Self.loadError(error, sourceName: sourceName, byteCount: totalRead)
            }
            progress.peopleLoaded.add(parser.segment.count - reportedPeople, ordering: .relaxed)
            reportedPeople = parser.segment.count
            if atEnd || parser.reachedBoundary { return totalRead }
            filled -= used
            base += used
            if used > 0, filled > 0 { (buffer).update(from: buffer + used, count: filled) }
            if filled == capacity {
                // One element larger than the buffer: read more before retrying,
                // doubling so that a huge element costs linear time.
                let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                larger.update(from: buffer, count: filled)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
        }
    }

    // MARK: Results

    private func finish(_ parsers: [PeopleParser], secondIndexOffset: Int?, sourceName: String,
                        byteCount: Int, started: ContinuousClock.Instant) -> LoadedDirectory {
        let parsed = ContinuousClock.now
        var skipped = parsers[0].skipped
        if parsers.count > 1, let secondIndexOffset {
            let lineShift = parsers[0].line - 1
            skipped += parsers[1].skipped.map {
                SkippedRecord(number: $0.number + secondIndexOffset, line: $0.line + lineShift, reason: $0.reason)
            }
        }
        let store = PeopleStore(segments: parsers.map { $0.finishedSegment() })
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
        }
    }

    private static func shiftLines(of error: LoadError, by lines: Int) -> LoadError {
        guard case .syntax(let file, let line, let column, let message) = error else { return error }
        return .syntax(file: file, line: line + lines, column: column, message: message)
    }

    static func describe(errno code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

/// A file mapped read-only (never written: `MAP_PRIVATE`, `PROT_READ`).
struct MappedFile: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init?(descriptor: Int32, size: Int) {
        guard size > 0 else { return nil }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { return nil }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// Drops pages wholly before `offset` from memory (they are re-read
    /// from the file if an error message needs them); returns the new mark.
    func release(from released: Int, upTo offset: Int) -> Int {
        let end = offset / Self.pageSize * Self.pageSize
        let start = (released + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        guard end - start >= 4 << 20, let base = bytes.baseAddress else { return released }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
        return end
    }

    func unmap() {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
