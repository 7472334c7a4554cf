import Foundation

/// Case- and accent-insensitive keys: `José` and `JOSE` fold to `jose`.
public enum TextFolding {
    /// Folds `text` to the bytes it sorts and matches by.
    public static func foldedBytes(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.map(lowercasedASCII)
        }
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter { !isInvisible($0) }))
        return Array(visible.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).utf8)
    }

    /// Characters that draw nothing (zero-width spaces and joiners, bidi
    /// marks, the byte-order mark, variation selectors): `AC\u{200B}ME` and
    /// `ACME` read the same on screen, so they fold to the same key.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x115F, 0x1160, 0x3164, 0xFFA0: return true
        default: break
        }
        switch scalar.properties.generalCategory {
        case .format, .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// Whether UTF-8 `bytes` hold anything a reader would see: not only
    /// spaces (including no-break spaces) and invisible characters.
    public static func hasVisibleText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for byte in bytes {
            if byte > 0x20 && byte < 0x7F { return true }
            if byte >= 0x80 { ascii = false }
        }
        if ascii { return false }
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.contains {
            !$0.properties.isWhitespace && !isInvisible($0)
        }
    }

    @inlinable @inline(__always)
    public static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
