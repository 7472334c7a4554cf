#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// One vCard, whole in the buffer: found (`scan`: its lines, unfolded in
/// place as ranges, and where it ends), then read into a sink (`emit`,
/// in `VCardCardReader+Fields.swift`).
///
/// Its buffers are kept from card to card, so a card costs no allocation.
/// Not `Sendable`: it belongs to the reader that owns it.
final class VCardCardReader {
    /// A content line, from its first byte to the end of its last physical
    /// line (without the line break): folded lines (a break and a space or
    /// tab) and 2.1's quoted-printable soft breaks (`=` at a line's end)
    /// are part of it.
    struct LogicalLine {
        var start: Int
        var end: Int
        /// The end of its first physical line.
        var firstEnd: Int
        var folds: Int
        var line: Int
    }

    enum Scan: Equatable {
        /// The buffer ends inside the card.
        case needMore
        /// The card ends before `next` (just after its END line); the line after it is `nextLine`.
        case complete(next: Int, nextLine: Int)
        /// No END:VCARD: skip to `next` (the next card's BEGIN, or the end).
        case unterminated(next: Int, nextLine: Int, reason: String)
    }

    private(set) var lines: [LogicalLine] = []
    /// Headers and values unfolded (copied without their folds), per card.
    let unfolded = ByteArena(capacity: 1024)
    /// A value decoded (quoted-printable, charset), one property at a time.
    let decoded = ByteArena(capacity: 256)
    let recoded = ByteArena(capacity: 256)
    /// One component or item with its escapes taken off.
    let unescaped = ByteArena(capacity: 256)
    /// The `X-ABLabel` of the group of the property being handed over.
    let label = ByteArena(capacity: 64)
    var contents: [VCardContentLine] = []

    init() {
        lines.reserveCapacity(64)
        contents.reserveCapacity(64)
    }

    /// Finds the lines of the card whose BEGIN line starts at `start`.
    func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, line firstLine: Int, isFinal: Bool) -> Scan {
        lines.removeAll(keepingCapacity: true)
        var position = start
        var line = firstLine
        var isBeginLine = true
        var softBreakPending = false
        while true {
            guard position < bytes.count else {
                return isFinal ? .unterminated(next: bytes.count, nextLine: line, reason: "the file ends before this card's END:VCARD")
                               : .needMore
            }
            let newline = FieldBytes.newline(in: bytes, from: position)
            if newline == nil, !isFinal { return .needMore }
            let lineEnd = newline ?? bytes.count
            let contentEnd = lineEnd > position && bytes[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
            let next = newline.map { $0 + 1 } ?? bytes.count
            let nextLine = newline == nil ? line : line + 1
            let first = position < contentEnd ? bytes[position] : 0
            if isBeginLine {
                isBeginLine = false
            } else if !lines.isEmpty, first == 0x20 || first == 0x09 || softBreakPending {
                lines[lines.count - 1].end = contentEnd
                lines[lines.count - 1].folds += 1
            } else {
                let text = UnsafeBufferPointer(rebasing: bytes[position..<contentEnd])
                if Self.isMarker(text, "END:VCARD") { return .complete(next: next, nextLine: nextLine) }
                if Self.isMarker(text, "BEGIN:VCARD") {
                    return .unterminated(next: position, nextLine: line,
                                         reason: "no END:VCARD before the next card's BEGIN:VCARD on line \(line)")
                }
                if position < contentEnd {
                    lines.append(LogicalLine(start: position, end: contentEnd, firstEnd: contentEnd, folds: 0, line: line))
                }
            }
            softBreakPending = contentEnd > position && bytes[contentEnd - 1] == UInt8(ascii: "=") && !lines.isEmpty
                && lines[lines.count - 1].end == contentEnd && Self.saysQuotedPrintable(bytes, lines[lines.count - 1])
            position = next
            line = nextLine
        }
    }

    /// Whether the header of `line` (before its first `:`) asks for quoted-printable.
    private static func saysQuotedPrintable(_ bytes: UnsafeBufferPointer<UInt8>, _ line: LogicalLine) -> Bool {
        guard let colon = bytes[line.start..<line.firstEnd].firstIndex(of: UInt8(ascii: ":")) else { return false }
        let header = UnsafeBufferPointer(rebasing: bytes[line.start..<colon])
        let marker: StaticString = "QUOTED-PRINTABLE"
        guard header.count >= marker.utf8CodeUnitCount else { return false }
        for offset in 0...(header.count - marker.utf8CodeUnitCount)
        where FieldBytes.hasPrefixIgnoringCase(UnsafeBufferPointer(rebasing: header[offset...]), marker) {
            return true
        }
        return false
    }

    /// Whether `text` is `marker` (`BEGIN:VCARD`), any case, perhaps after
    /// a group (`home.begin:vcard`) and before spaces or a CR.
    static func isMarker(_ text: UnsafeBufferPointer<UInt8>, _ marker: StaticString) -> Bool {
        var end = text.count
        while end > 0, text[end - 1] == 0x20 || text[end - 1] == 0x09 || text[end - 1] == 0x0D { end -= 1 }
        let length = marker.utf8CodeUnitCount
        guard end >= length, FieldBytes.equalsIgnoringCase(UnsafeBufferPointer(rebasing: text[(end - length)..<end]), marker)
        else { return false }
        let start = end - length
        if start == 0 { return true }
        return text[start - 1] == UInt8(ascii: ".") && FieldBytes.isName(UnsafeBufferPointer(rebasing: text[0..<(start - 1)]))
    }

    /// Copies `range` of `bytes` to `unfolded` without its folds; returns where it landed.
    func unfold(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        FieldBytes.unfold(range, of: bytes, into: unfolded)
    }
}
