#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// A reader of one input format, fed a buffer at a time by the chunk loop
/// (`PeopleLoader.run`), filling a `PeopleSegmentBuilder` the way the JSON
/// parser does. Two of them can split a file: the first stops at `boundary`, the
/// second starts there and counts its records and lines from 1.
/// (The parser's type, not the parser, goes to the other thread of a load
/// in halves: `SendableMetatype`.)
protocol ChunkParser: SendableMetatype {
    /// The people parsed so far.
    var segment: PeopleSegmentBuilder { get }
    var skipped: [SkippedRecord] { get }
    /// Records seen so far, people and skipped alike.
    var elementCount: Int { get }
    /// 1-based line of the place parsed up to.
    var line: Int { get }
    /// Whether parsing stopped at its boundary (a record starts exactly there).
    var reachedBoundary: Bool { get }

    /// Parses as many whole records of `bytes` (at absolute offset `base`)
    /// as it can and returns how many bytes were used; the rest comes again
    /// with more input. `isFinal`: the input ends with `bytes`.
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, isFinal: Bool) throws(ParseError) -> Int

    /// The people parsed, frozen, with this parser's company table attached
    /// (the parser is done with them).
    func finishedSegment() -> PeopleSegment

    /// The record at the start of `bytes` is longer than `limit`: note it
    /// as skipped and pass over the rest of it in the next `parse` calls
    /// (true), or false when this reader cannot tell where the next record
    /// starts (the load then stops, naming the line).
    mutating func skipLongRecord(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool
}

extension ChunkParser {
    /// "longer than 64 MiB, the most one record may hold".
    static func tooLong(_ limit: Int) -> String {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return "longer than \(size), the most one record may hold"
    }
}

/// What one parser made of its part of the input, frozen: unlike the
/// parser and its builder, it may cross to the thread that joins the parts.
struct ParsedPart: Sendable {
    let segment: PeopleSegment
    let skipped: [SkippedRecord]
    /// Records seen, people and skipped alike.
    let elementCount: Int
    /// 1-based line parsed up to.
    let line: Int
    let reachedBoundary: Bool
}

extension ChunkParser {
    /// The parser's results, frozen (call once, when it is done).
    func finished() -> ParsedPart {
        ParsedPart(segment: finishedSegment(), skipped: skipped, elementCount: elementCount, line: line,
                   reachedBoundary: reachedBoundary)
    }
}

extension PeopleParser: ChunkParser {
    /// Inside a JSON list the end of a long value cannot be found without
    /// reading it: the load stops there.
    mutating func skipLongRecord(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool { false }
}

/// Standard input with its first bytes read ahead, so that the format can
/// be told from them before a parser sees them; they are then handed out
/// first, and the stream after them.
final class PrefixedStreamInput: ChunkInput {
    private let stream: StreamInput
    private var prefix: [UInt8]
    private var prefixUsed = 0

    /// Reads until something other than whitespace arrives, the stream
    /// ends, or 64 KiB are in (a pipe hands over what it has so far).
    init(descriptor: Int32, sourceName: String) throws(LoadError) {
        stream = StreamInput(descriptor: descriptor)
        prefix = []
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while prefix.count < 1 << 16 {
            let stream = self.stream
            let count = try piece.withUnsafeMutableBufferPointer { buffer throws(LoadError) in
                try stream.read(into: buffer, at: 0, sourceName: sourceName)
            }
            if count == 0 { break }
            prefix += piece[0..<count]
            if prefix.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) {
                break
            }
        }
    }

    var sniffedFormat: InputFormat { InputFormat(sniffing: prefix) }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int, sourceName: String) throws(LoadError) -> Int {
        guard prefixUsed < prefix.count else { return try stream.read(into: buffer, at: offset, sourceName: sourceName) }
        let count = min(buffer.count, prefix.count - prefixUsed)
        let start = prefixUsed
        prefix.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress, let into = buffer.baseAddress else { return }
            into.update(from: from + start, count: count)
        }
        prefixUsed += count
        return count
    }

    func checkComplete(at offset: Int, sourceName: String) throws(LoadError) {}

    func exact(_ error: ParseError) -> ParseError { error }
}
