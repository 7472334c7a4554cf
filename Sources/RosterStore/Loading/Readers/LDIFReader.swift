#if !ROSTER_FUZZ
import RosterCore
#endif

/// LDIF files (RFC 2849) as `slapcat` and `ldapsearch -LLL` write them,
/// read a buffer at a time into a `FieldRecordSink`.
///
/// A `version: 1` line may come first; entries are separated by blank
/// lines; `#` lines are comments (with their continuations); a line that
/// starts with one space continues the one before. Each entry is read once
/// it is whole in the buffer (`LDIFEntryReader`). An entry longer than the
/// record limit is skipped, naming its line, and passed over to the next
/// blank line without being held.
///
/// Two of them can split a file at an entry's `dn:` after a blank line
/// (`findBoundary`), as `VCardReader` does at `BEGIN:VCARD`.
public struct LDIFReader<Sink: FieldRecordSink>: FieldChunkReader {
    public private(set) var sink: Sink
    public private(set) var line = 1
    /// Entries seen, read and skipped alike.
    public private(set) var recordCount = 0
    public private(set) var reachedBoundary = false
    private let boundary: Int?
    private let entries = LDIFEntryReader()
    /// Whether the `version:` line may still come (nothing else has).
    private var atStart: Bool
    private var skippingEntry = false
    /// Inside a line already judged (passed over): its rest goes too.
    private var midLine = false

    /// A reader from the file's start, or (given `boundary`) one that
    /// stops there; `startsMidFile` for the second half of a split.
    public init(sink: Sink, boundary: Int? = nil, startsMidFile: Bool = false) {
        self.sink = sink
        self.boundary = boundary
        atStart = !startsMidFile
    }

    public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, isFinal: Bool) -> Int {
        var position = 0
        if base == 0, line == 1, !midLine {
            guard let start = FieldBytes.afterByteOrderMark(bytes, isFinal: isFinal) else { return 0 }
            position = start
        }
        while position < bytes.count, sink.refusal == nil {
            if midLine {
                guard let newline = FieldBytes.newline(in: bytes, from: position) else { return bytes.count }
                midLine = false
                position = newline + 1
                line += 1
                continue
            }
            if let boundary, base + position == boundary, !skippingEntry {
                reachedBoundary = true
                return position
            }
            guard let next = step(bytes, at: position, base: base, isFinal: isFinal) else { return position }
            position = next
        }
        return min(position, bytes.count)
    }

    /// A blank line, the version line, a line of an entry being passed
    /// over, or one entry; where the next starts, or nil to wait for more.
    private mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, base: Int, isFinal: Bool) -> Int? {
        let newline = FieldBytes.newline(in: bytes, from: position)
        let end = newline ?? bytes.count
        let isBlank = end == position || (end == position + 1 && bytes[position] == 0x0D)
        if isBlank || skippingEntry {
            if newline == nil, !isFinal {
                guard skippingEntry else { return nil }
                midLine = true
                return bytes.count
            }
            if isBlank { skippingEntry = false }
            if newline != nil { line += 1 }
            return end + 1
        }
        if atStart, FieldBytes.hasPrefixIgnoringCase(UnsafeBufferPointer(rebasing: bytes[position...]), "version:") {
            guard newline != nil || isFinal else { return nil }
            atStart = false
            if newline != nil { line += 1 }
            return end + 1
        }
        atStart = false
        switch entries.scan(bytes, from: position, line: line, isFinal: isFinal) {
        case .needMore:
            return nil
        case .complete(let next, let nextLine):
            if entries.hasLines {
                recordCount += 1
                entries.emit(bytes, base: base, entry: position..<next, line: line, into: &sink)
            }
            line = nextLine
            return next
        }
    }

    /// The entry at the start of `bytes` is too long: skipped, naming the
    /// line that is too long when one line is most of it; its rest is
    /// passed over up to the next blank line.
    public mutating func skipLongRecord(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        recordCount += 1
        let (lastLine, isLong) = Self.lastLine(of: bytes, firstLine: line)
        let reason = isLong ? "line \(lastLine) is \(Self.tooLong(limit)); the entry is skipped"
                            : "the entry is \(Self.tooLong(limit))"
        sink.skipRecord(reason: reason, line: line)
        line = lastLine
        skippingEntry = true
        midLine = bytes.last != 0x0A
    }

    /// Just after a blank line before a `dn:` near the start of `bytes` (at
    /// absolute `offset`): where a second reader may start. A guess,
    /// confirmed by the first reader arriving there exactly.
    public static func findBoundary(in bytes: UnsafeBufferPointer<UInt8>, startingAt offset: Int) -> Int? {
        var position = 0
        while let newline = FieldBytes.newline(in: bytes, from: position) {
            var next = newline + 1
            if next < bytes.count, bytes[next] == 0x0D { next += 1 }
            if next < bytes.count, bytes[next] == 0x0A,
               FieldBytes.hasPrefixIgnoringCase(UnsafeBufferPointer(rebasing: bytes[(next + 1)...]), "dn:") {
                return offset + next + 1
            }
            position = newline + 1
        }
        return nil
    }
}
