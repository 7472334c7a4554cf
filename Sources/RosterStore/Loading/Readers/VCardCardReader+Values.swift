#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// Handing one property's values to the sink: split into components and
/// items as the property's traits say, each with its escapes taken off.
extension VCardCardReader {
    func emit<Sink: FieldRecordSink>(_ content: VCardContentLine, as field: inout SourceField, in bytes: UnsafeBufferPointer<UInt8>,
                                     base: Int, into sink: inout Sink) {
        let raw = UnsafeBufferPointer(rebasing: bytes[content.rawValue])
        if content.form.encoding == .base64 || Self.isDataURI(raw) {
            let fileRange = (base + content.rawValue.lowerBound)..<(base + content.rawValue.upperBound)
            field.kind = .external(ExternalValue(fileRange: fileRange, encoding: content.form.encoding == .base64 ? .base64 : .dataURI))
            sink.field(field)
            return
        }
        let text = decodedText(content, in: bytes)
        let traits = VCardPropertyTraits(name: field.name)
        field.kind = traits.kind(of: text, form: content.form)
        switch traits.shape {
        case .single:
            field.value = piece(text)
            sink.field(field)
        case .list:
            Self.forEachPiece(of: text, separatedBy: UInt8(ascii: ",")) { item, itemText in
                field.item = item
                field.value = piece(itemText)
                sink.field(field)
            }
        case .structured(let items):
            Self.forEachPiece(of: text, separatedBy: UInt8(ascii: ";")) { component, componentText in
                field.component = component
                guard items else {
                    field.value = piece(componentText)
                    sink.field(field)
                    return
                }
                Self.forEachPiece(of: componentText, separatedBy: UInt8(ascii: ",")) { item, itemText in
                    field.item = item
                    field.value = piece(itemText)
                    sink.field(field)
                }
            }
        }
    }

    /// `text` without its escapes: itself when it has none, else written
    /// to `unescaped` (valid until the next piece).
    private func piece(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let base = text.baseAddress, memchr(base, 0x5C, text.count) != nil else { return text }
        unescaped.removeAll()
        Self.unescape(text, into: unescaped)
        return unescaped.allBytes
    }

    /// Calls `body` with each piece of `text` between unescaped
    /// `separator`s (a backslash escapes the byte after it), and its index.
    static func forEachPiece(of text: UnsafeBufferPointer<UInt8>, separatedBy separator: UInt8,
                             _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        var index = 0
        var start = 0
        var position = 0
        while position < text.count {
            let byte = text[position]
            if byte == 0x5C {
                position += 2
                continue
            }
            if byte == separator {
                body(index, UnsafeBufferPointer(rebasing: text[start..<position]))
                index += 1
                start = position + 1
            }
            position += 1
        }
        body(index, UnsafeBufferPointer(rebasing: text[min(start, text.count)...]))
    }

    /// RFC 6350's escapes taken off: `\n` and `\N` a line feed, `\\` `\,`
    /// `\;` the character (and Apple's `\:`); any other backslash stays.
    static func unescape(_ text: UnsafeBufferPointer<UInt8>, into output: ByteArena) {
        var position = 0
        while position < text.count {
            let byte = text[position]
            guard byte == 0x5C, position + 1 < text.count else {
                output.append(byte)
                position += 1
                continue
            }
            switch text[position + 1] {
            case UInt8(ascii: "n"), UInt8(ascii: "N"):
                output.append(0x0A)
            case UInt8(ascii: "\\"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"):
                output.append(text[position + 1])
            default:
                output.append(byte)
                output.append(text[position + 1])
            }
            position += 2
        }
    }
}
