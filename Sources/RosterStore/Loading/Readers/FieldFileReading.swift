#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// The formats read as records of named fields.
public enum FieldFormat: String, Sendable, CaseIterable {
    case vCard = "vcf", ldif

    /// How messages name what such a file holds.
    var expectation: String {
        switch self {
        case .vCard: return "vCards (a card starts with BEGIN:VCARD)"
        case .ldif: return "LDIF entries (an entry starts with dn:)"
        }
    }
}

/// Reading a file (or bytes) of vCards or LDIF through a reader, a chunk at
/// a time, as `PeopleLoader.run` reads the other formats: the file with
/// `pread`, never mapped; only the chunk being read in memory, doubled past
/// a record larger than it, up to `recordLimit`, where the record is
/// skipped and passed over.
public enum FieldFileReading {
    /// Every record of the vCard file at `path` into `sink`.
    public static func vCards<Sink: FieldRecordSink>(path: String, sourceName: String, into sink: Sink) throws(LoadError) -> Sink {
        var reader = VCardReader(sink: sink)
        try read(&reader, path: path, sourceName: sourceName, format: .vCard)
        return reader.sink
    }

    /// Every entry of the LDIF file at `path` into `sink`.
    public static func ldif<Sink: FieldRecordSink>(path: String, sourceName: String, into sink: Sink) throws(LoadError) -> Sink {
        var reader = LDIFReader(sink: sink)
        try read(&reader, path: path, sourceName: sourceName, format: .ldif)
        return reader.sink
    }

    /// Reads the file at `path` through `reader`: the whole of it, or from
    /// `start` until the reader reaches its boundary.
    static func read<Reader: FieldChunkReader>(_ reader: inout Reader, path: String, sourceName: String, format: FieldFormat,
                                               from start: Int = 0, chunkSize: Int = 1 << 20,
                                               recordLimit: Int = PeopleLoader.defaultRecordLimit,
                                               requireRecords: Bool = true, followsLinks: Bool = true) throws(LoadError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (followsLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(file: sourceName) }
            throw .notReadable(file: sourceName, reason: Descriptor.describe(errno: code))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .notReadable(file: sourceName, reason: Descriptor.describe(errno: errno)) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(file: sourceName) }
        let input = FileInput(descriptor: descriptor, size: (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : 0)
        if start == 0, input.size == 0, (status.st_mode & S_IFMT) == S_IFREG {
            throw .invalid(file: sourceName, line: nil, column: nil, message: "the file is empty; expected \(format.expectation)")
        }
        if !followsLinks, (status.st_mode & S_IFMT) != S_IFREG {
            throw .notReadable(file: sourceName, reason: "it is not a regular file")
        }
        try run(&reader, input: input, from: start, sourceName: sourceName, chunkSize: chunkSize, recordLimit: recordLimit)
        try checkFound(reader, format: format, sourceName: sourceName, whole: start == 0 && requireRecords)
    }

    /// Reads `bytes` through `reader`, `chunkSize` at a time (tests cut
    /// the input everywhere with a small one).
    static func read<Reader: FieldChunkReader>(_ reader: inout Reader, bytes: [UInt8], sourceName: String, format: FieldFormat,
                                               chunkSize: Int = 1 << 20, recordLimit: Int = PeopleLoader.defaultRecordLimit) throws(LoadError) {
        if bytes.isEmpty { throw .invalid(file: sourceName, line: nil, column: nil, message: "the file is empty; expected \(format.expectation)") }
        try run(&reader, input: BytesInput(bytes: bytes), from: 0, sourceName: sourceName, chunkSize: chunkSize, recordLimit: recordLimit)
        try checkFound(reader, format: format, sourceName: sourceName, whole: true)
    }

    /// A file with no record at all is no such file: one line says so.
    static func checkFound<Reader: FieldChunkReader>(_ reader: Reader, format: FieldFormat, sourceName: String,
                                                             whole: Bool) throws(LoadError) {
        if whole, reader.recordCount == 0 {
            throw .invalid(file: sourceName, line: nil, column: nil, message: "nothing in it reads as \(format.expectation)")
        }
    }

    /// The chunk loop. A sink's refusal stops it, as one line at the
    /// record where it came.
    static func run<Reader: FieldChunkReader, Input: ChunkInput>(_ reader: inout Reader, input: Input, from start: Int, sourceName: String,
                                                                 chunkSize: Int, recordLimit: Int) throws(LoadError) {
        var capacity = max(chunkSize, 16)
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0
        var base = start
        while true {
            var atEnd = false
            while filled < capacity {
                let count = try input.read(into: UnsafeMutableBufferPointer(start: buffer + filled, count: capacity - filled),
                                           at: base + filled, sourceName: sourceName)
                if count == 0 {
                    atEnd = true
                    break
                }
                filled += count
            }
            if atEnd { try input.checkComplete(at: base + filled, sourceName: sourceName) }
            let used = reader.parse(UnsafeBufferPointer(start: buffer, count: filled), base: base, isFinal: atEnd)
            if let refusal = reader.sink.refusal {
                throw .invalid(file: sourceName, line: reader.line, column: nil, message: refusal)
            }
            if atEnd || reader.reachedBoundary { return }
            filled -= used
            base += used
            if used > 0, filled > 0 { buffer.update(from: buffer + used, count: filled) }
            if filled >= recordLimit {
                reader.skipLongRecord(UnsafeBufferPointer(start: buffer, count: filled), limit: recordLimit)
                base += filled
                filled = 0
            } else if filled == capacity {
                let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                larger.update(from: buffer, count: filled)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
        }
    }

    /// How long reading `path` into a counting sink takes (`roster-bench fields`).
    public static func count(path: String, format: FieldFormat) throws(LoadError) -> (sink: FieldCountingSink, seconds: Double) {
        let started = ContinuousClock.now
        let sink = switch format {
        case .vCard: try vCards(path: path, sourceName: path, into: FieldCountingSink())
        case .ldif: try ldif(path: path, sourceName: path, into: FieldCountingSink())
        }
        let (whole, attoseconds) = (ContinuousClock.now - started).components
        return (sink, Double(whole) + Double(attoseconds) / 1e18)
    }
}

/// Bytes in memory, read as a file is.
struct BytesInput: ChunkInput {
    let bytes: [UInt8]

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int, sourceName: String) throws(LoadError) -> Int {
        let count = max(0, min(buffer.count, bytes.count - offset))
        guard count > 0, let into = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress else { return }
            into.update(from: from + offset, count: count)
        }
        return count
    }

    func checkComplete(at offset: Int, sourceName: String) throws(LoadError) {}

    func exact(_ error: ParseError) -> ParseError { error }
}
