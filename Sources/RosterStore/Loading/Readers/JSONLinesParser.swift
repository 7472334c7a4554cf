#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// JSON Lines (`.jsonl`, `.ndjson`): one person object per line.
///
/// Each line is parsed on its own by the JSON parser's record reader, so
/// every rule of the JSON format holds (field names, types, what skips a
/// record). Lines are independent, so a bad one — even one that is not
/// JSON at all — is a skipped record with its line number and the load
/// goes on. Blank lines are not records. A file splits between two cores
/// at any line break, with nothing to verify.
struct JSONLinesParser: ChunkParser {
    private var records: PeopleParser
    private(set) var line = 1
    private let boundary: Int?
    private(set) var reachedBoundary = false
    /// Passing over a line longer than the limit, up to its line feed.
    private var skippingLine = false

    init(boundary: Int? = nil, expectedPeople: Int = 0, locatesOnly: Bool = false) {
        records = PeopleParser(startingInside: true, expectedPeople: expectedPeople, locatesOnly: locatesOnly)
        self.boundary = boundary
    }

    var segment: PeopleSegmentBuilder { records.segment }
    var skipped: [SkippedRecord] { records.skipped }
    var elementCount: Int { records.elementCount }
    func finishedSegment() -> PeopleSegment { records.finishedSegment() }

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, isFinal: Bool) throws(ParseError) -> Int {
        guard let start = bytes.baseAddress else { return 0 }
        var position = 0
        while position < bytes.count {
            if let boundary, base + position == boundary {
                reachedBoundary = true
                return position
            }
            let end: Int
            if let newline = memchr(start + position, 0x0A, bytes.count - position) {
                end = start.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            } else if skippingLine {
                return bytes.count  // all of it is the long line's
            } else if isFinal {
                end = bytes.count
            } else {
                return position  // the line goes on in the next buffer
            }
            if skippingLine {
                skippingLine = false
            } else {
                parseLine(UnsafeBufferPointer(rebasing: bytes[position..<end]), at: base + position)
            }
            position = end + 1
            line += 1
        }
        return min(position, bytes.count)
    }

    /// Lines are independent: a long one is skipped and the next one read.
    mutating func skipLongRecord(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
        records.skipRecord(line: line, reason: Self.tooLong(limit))
        skippingLine = true
        return true
    }

    /// One line, without its line feed.
    private mutating func parseLine(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) {
        var cursor = JSONCursor(bytes: text, base: offset, isFinal: true, line: line, lineStart: offset)
        if offset == 0, InputFormat.startsWithByteOrderMark(text) { cursor.position = InputFormat.byteOrderMark.count }
        cursor.skipWhitespace()
        if cursor.isAtEnd { return }
        do {
            try records.parseRecord(onItsOwnLine: &cursor)
        } catch {
            records.skipRecord(line: line, reason: Self.reason(for: error, in: text, lineStart: offset))
        }
    }

    /// "not valid JSON at column 12: expected a value, found '}'".
    static func reason(for failure: ScanFailure, in text: UnsafeBufferPointer<UInt8>, lineStart: Int) -> String {
        guard case .syntax(let message, let offset) = failure else { return "not valid JSON" }
        let end = min(max(0, offset - lineStart), text.count)
        let column = 1 + text[0..<end].reduce(0) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) }
        // The cursor saw only this line: its "end of the file" is the line's.
        let said = message.hasPrefix("the file ends") ? "the line ends inside the record" : message
        return "not valid JSON at column \(column): \(said)"
    }

    /// Just after a line feed near `middle`: where the second core starts.
    static func findBoundary(in bytes: UnsafeBufferPointer<UInt8>, startingAt offset: Int) -> Int? {
        guard let newline = bytes.firstIndex(of: 0x0A), newline + 1 < bytes.count else { return nil }
        return offset + newline + 1
    }
}
