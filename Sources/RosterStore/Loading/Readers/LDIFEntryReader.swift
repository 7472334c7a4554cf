#if !ROSTER_FUZZ
import RosterCore
#endif

/// One LDIF entry, whole in the buffer: found (`scan`: its lines as
/// ranges, comments left out, up to the blank line or the end), then read
/// into a sink (`emit`). Its buffers are kept from entry to entry.
final class LDIFEntryReader {
    struct LogicalLine {
        var start: Int
        var end: Int
        var firstEnd: Int
        var line: Int
    }

    enum Scan: Equatable {
        case needMore
        /// The entry ends before `next` (a blank line, or the end of the input).
        case complete(next: Int, nextLine: Int)
    }

    /// One attribute line, taken apart (offsets in `bytes` or `unfolded`).
    struct Attribute {
        var inUnfolded: Bool
        var name: Range<Int>
        var options: Range<Int>
        enum Form { case text, base64, url }
        var form: Form
        /// The value as written (after `:`, `::` or `:<` and the spaces after them), in `bytes`.
        var rawValue: Range<Int>
        /// Where its first physical line ends (past it, the value is folded).
        var firstEnd: Int
        var line: Int
    }

    private(set) var lines: [LogicalLine] = []
    let unfolded = ByteArena(capacity: 1024)
    let decoded = ByteArena(capacity: 256)
    let recoded = ByteArena(capacity: 256)

    var hasLines: Bool { !lines.isEmpty }

    init() {
        lines.reserveCapacity(32)
    }

    /// Finds the lines of the entry starting at `start` (a line that is not blank).
    func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, line firstLine: Int, isFinal: Bool) -> Scan {
        lines.removeAll(keepingCapacity: true)
        var position = start
        var line = firstLine
        var inComment = false
        while true {
            guard position < bytes.count else { return isFinal ? .complete(next: bytes.count, nextLine: line) : .needMore }
            let newline = FieldBytes.newline(in: bytes, from: position)
            if newline == nil, !isFinal { return .needMore }
            let lineEnd = newline ?? bytes.count
            let contentEnd = lineEnd > position && bytes[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
            if contentEnd == position { return .complete(next: position, nextLine: line) }  // the blank line is the reader's
            switch bytes[position] {
            case 0x20:
                if !inComment, !lines.isEmpty { lines[lines.count - 1].end = contentEnd }
            case UInt8(ascii: "#"):
                inComment = true
            default:
                inComment = false
                lines.append(LogicalLine(start: position, end: contentEnd, firstEnd: contentEnd, line: line))
            }
            position = newline.map { $0 + 1 } ?? bytes.count
            if newline != nil { line += 1 }
        }
    }

    /// One line as an attribute, or nil when it has no `:` or no name.
    func attribute(_ logical: LogicalLine, in bytes: UnsafeBufferPointer<UInt8>) -> Attribute? {
        guard let colon = bytes[logical.start..<logical.end].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let inUnfolded = colon > logical.firstEnd
        let header = inUnfolded ? FieldBytes.unfold(logical.start..<colon, of: bytes, into: unfolded) : logical.start..<colon
        let source = inUnfolded ? unfolded.allBytes : bytes
        let semicolon = source[header].firstIndex(of: UInt8(ascii: ";")) ?? header.upperBound
        let name = header.lowerBound..<semicolon
        guard FieldBytes.isName(UnsafeBufferPointer(rebasing: source[name]), allowingDots: true) else { return nil }
        var form = Attribute.Form.text
        var valueStart = colon + 1
        if valueStart < logical.end, bytes[valueStart] == UInt8(ascii: ":") {
            form = .base64
            valueStart += 1
        } else if valueStart < logical.end, bytes[valueStart] == UInt8(ascii: "<") {
            form = .url
            valueStart += 1
        }
        while valueStart < logical.end, bytes[valueStart] == 0x20 { valueStart += 1 }
        return Attribute(inUnfolded: inUnfolded, name: name, options: min(semicolon + 1, header.upperBound)..<header.upperBound,
                         form: form, rawValue: valueStart..<logical.end, firstEnd: logical.firstEnd, line: logical.line)
    }

    /// The attribute's name and options, from wherever its header is.
    func header(of attribute: Attribute, in bytes: UnsafeBufferPointer<UInt8>) -> (name: UnsafeBufferPointer<UInt8>, options: FieldParameters) {
        let source = attribute.inUnfolded ? unfolded.allBytes : bytes
        return (UnsafeBufferPointer(rebasing: source[attribute.name]),
                FieldParameters(raw: UnsafeBufferPointer(rebasing: source[attribute.options])))
    }

    /// Attributes whose values are binary however short (photos, certificates).
    static func isBinary(_ name: UnsafeBufferPointer<UInt8>, options: FieldParameters) -> Bool {
        FieldBytes.equalsIgnoringCase(name, "jpegPhoto") || FieldBytes.equalsIgnoringCase(name, "photo")
            || FieldBytes.equalsIgnoringCase(name, "thumbnailPhoto") || FieldBytes.equalsIgnoringCase(name, "audio")
            || FieldBytes.equalsIgnoringCase(name, "userCertificate") || FieldBytes.equalsIgnoringCase(name, "cACertificate")
            || FieldBytes.equalsIgnoringCase(name, "userSMIMECertificate") || FieldBytes.equalsIgnoringCase(name, "userPKCS12")
            || options.hasType("binary")
    }

    /// A base64 value this long or longer is left in the file, unread.
    static let longestDecoded = 4096

    /// The value of `attribute` as text, or as a place in the file (a
    /// binary attribute, a long base64 value, one that is not UTF-8).
    func value(of attribute: Attribute, binary: Bool, in bytes: UnsafeBufferPointer<UInt8>,
               base: Int) -> (text: UnsafeBufferPointer<UInt8>, kind: FieldValueKind) {
        let raw = UnsafeBufferPointer(rebasing: bytes[attribute.rawValue])
        let external = FieldValueKind.external(ExternalValue(fileRange: (base + attribute.rawValue.lowerBound)..<(base + attribute.rawValue.upperBound),
                                                             encoding: .base64))
        var text = raw
        switch attribute.form {
        case .base64:
            guard !binary, raw.count < Self.longestDecoded else { return (FieldBytes.none, external) }
            decoded.removeAll()
            guard Base64Text.decode(raw, into: decoded), TextCharset.isValidUTF8(decoded.allBytes) else { return (FieldBytes.none, external) }
            return (decoded.allBytes, .text)
        case .text, .url:
            if attribute.rawValue.upperBound > attribute.firstEnd {
                decoded.removeAll()
                let range = FieldBytes.unfold(attribute.rawValue, of: bytes, into: decoded)
                text = decoded.bytes(range)
            }
        }
        if !TextCharset.isValidUTF8(text) {
            recoded.removeAll()
            TextCharset.appendUTF8(text, charset: .windows1252, to: recoded)
            text = recoded.allBytes
        }
        return (text, attribute.form == .url ? .uri : .text)
    }
}
