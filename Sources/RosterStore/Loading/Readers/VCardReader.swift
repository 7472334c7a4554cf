#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// vCard files (RFC 6350 4.0, RFC 2426 3.0, vCard 2.1), one card or many,
/// read a buffer at a time into a `FieldRecordSink`.
///
/// A card runs from a `BEGIN:VCARD` line to its `END:VCARD` line (either
/// may carry a group, as RFC 2425 allows; any case). Between cards, blank
/// lines are nothing and any other text is passed over, said once per run
/// of such lines (`skipLine`); a line of binary garbage is passed over as
/// it streams by, never held. A card is read once it is whole in the
/// buffer (`VCardCardReader`): one without its `END:VCARD` (the next
/// `BEGIN:VCARD` comes first, or the file ends) is skipped, naming its
/// line; so is one longer than the record limit (a 64 MiB line inside it,
/// say), which is passed over to its `END:VCARD` without being held.
///
/// Two of them can split a file: the first stops at `boundary` (a
/// `BEGIN:VCARD` at a line start, `findBoundary`), the second starts there.
public struct VCardReader<Sink: FieldRecordSink>: FieldChunkReader {
    public private(set) var sink: Sink
    public private(set) var line = 1
    /// Cards seen, read and skipped alike.
    public private(set) var recordCount = 0
    public private(set) var reachedBoundary = false
    private let boundary: Int?
    private let cards = VCardCardReader()
    private var skippingCard = false
    /// Inside a line already judged (passed over): its rest goes too.
    private var midLine = false
    /// Whether the last non-blank line outside a card was text (said once a run).
    private var inTextOutsideCards = false

    /// A line outside a card at least this long is no `BEGIN:VCARD`, and
    /// is passed over without waiting for its end.
    private static var longestMarker: Int { 64 }

    public init(sink: Sink, boundary: Int? = nil) {
        self.sink = sink
        self.boundary = boundary
    }

    /// The next file of a folder: lines count from 1 again, nothing of the
    /// last file's end carries over, and the sink is told.
    public mutating func beginFile(path: String) {
        line = 1
        skippingCard = false
        midLine = false
        inTextOutsideCards = false
        sink.beginFile(path: path)
    }

    /// A folder's file that could not be read, or held no card: one skipped record.
    mutating func skipFile(reason: String) {
        sink.skipRecord(reason: reason, line: 1)
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
            if let boundary, base + position == boundary, !skippingCard {
                reachedBoundary = true
                return position
            }
            guard let next = step(bytes, at: position, base: base, isFinal: isFinal) else { return position }
            position = next
        }
        return min(position, bytes.count)
    }

    /// One line outside a card, or one card; where the next starts, or nil
    /// to wait for more input.
    private mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, base: Int, isFinal: Bool) -> Int? {
        let newline = FieldBytes.newline(in: bytes, from: position)
        if newline == nil, !isFinal {
            if bytes.count - position < Self.longestMarker { return nil }
            // Too long to be a card's first line: pass it over as it streams.
            if !skippingCard { noteTextOutsideCards() }
            midLine = true
            return bytes.count
        }
        let end = newline ?? bytes.count
        let text = UnsafeBufferPointer(rebasing: bytes[position..<end])
        if VCardCardReader.isMarker(text, "BEGIN:VCARD") {
            skippingCard = false
            return card(bytes, at: position, base: base, isFinal: isFinal)
        }
        if skippingCard {
            if VCardCardReader.isMarker(text, "END:VCARD") { skippingCard = false }
        } else if FieldBytes.trimmed(text).contains(where: { $0 != 0x0D }) {
            noteTextOutsideCards()
        }
        if newline != nil { line += 1 }
        return end + 1
    }

    /// The card starting at `position`: read, or skipped; nil to wait for its end.
    private mutating func card(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, base: Int, isFinal: Bool) -> Int? {
        inTextOutsideCards = false
        switch cards.scan(bytes, from: position, line: line, isFinal: isFinal) {
        case .needMore:
            return nil
        case .complete(let next, let nextLine):
            recordCount += 1
            cards.emit(bytes, base: base, card: position..<next, line: line, into: &sink)
            line = nextLine
            return next
        case .unterminated(let next, let nextLine, let reason):
            recordCount += 1
            sink.skipRecord(reason: reason, line: line)
            line = nextLine
            return max(next, position + 1)
        }
    }

    private mutating func noteTextOutsideCards() {
        guard !inTextOutsideCards else { return }
        inTextOutsideCards = true
        sink.skipLine(reason: "text outside a card, passed over (a card starts with BEGIN:VCARD)", line: line)
    }

    /// The card at the start of `bytes` is too long: skipped, naming the
    /// line that is too long when one line is most of it; its rest is
    /// passed over up to its `END:VCARD` (or the next `BEGIN:VCARD`).
    public mutating func skipLongRecord(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        recordCount += 1
        let (lastLine, isLong) = Self.lastLine(of: bytes, firstLine: line)
        let reason = isLong ? "line \(lastLine) is \(Self.tooLong(limit)); the card is skipped"
                            : "the card is \(Self.tooLong(limit))"
        sink.skipRecord(reason: reason, line: line)
        line = lastLine
        skippingCard = true
        midLine = bytes.last != 0x0A
    }

    /// Just after a line feed before a `BEGIN:VCARD` near the start of
    /// `bytes` (at absolute `offset`): where a second reader may start.
    /// Only a guess (a quoted-printable value could hold such a line); the
    /// first reader confirms it by arriving there exactly.
    public static func findBoundary(in bytes: UnsafeBufferPointer<UInt8>, startingAt offset: Int) -> Int? {
        var position = 0
        while let newline = FieldBytes.newline(in: bytes, from: position) {
            let next = newline + 1
            if FieldBytes.hasPrefixIgnoringCase(UnsafeBufferPointer(rebasing: bytes[next...]), "BEGIN:VCARD") { return offset + next }
            position = next
        }
        return nil
    }
}
