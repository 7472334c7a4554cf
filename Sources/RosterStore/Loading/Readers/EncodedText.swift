#if !ROSTER_FUZZ
import RosterCore
#endif

/// Base64 as vCard and LDIF write it: folded, so whitespace is passed over.
enum Base64Text {
    /// 0–63 for a base64 letter, 64 for whitespace, 255 for anything else.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, letter) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(letter)] = UInt8(index)
        }
        for space in [0x20, 0x09, 0x0D, 0x0A] { table[space] = 64 }
        return table
    }()

    /// The bytes `text` encodes, appended to `output`; false when it is not
    /// base64 (a letter outside the alphabet, padding in the middle).
    static func decode(_ text: UnsafeBufferPointer<UInt8>, into output: ByteArena) -> Bool {
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        return table.withUnsafeBufferPointer { table in
            for byte in text {
                let value = table[Int(byte)]
                if value == 64 { continue }
                if byte == UInt8(ascii: "=") {
                    padding += 1
                    continue
                }
                guard value != 255, padding == 0 else { return false }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            }
            return padding <= 2
        }
    }

    static func decoded(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let output = ByteArena(capacity: text.count * 3 / 4 + 4)
        guard decode(text, into: output) else { return nil }
        return Array(output.allBytes)
    }
}

/// The charsets old cards name (`CHARSET=ISO-8859-1`), made UTF-8.
enum TextCharset {
    case utf8, latin1, windows1252

    /// The charset a `CHARSET=` value names; anything unknown is read as
    /// UTF-8 where it is, else as Windows-1252 (what such files mostly are).
    init(name: UnsafeBufferPointer<UInt8>) {
        if FieldBytes.equalsIgnoringCase(name, "ISO-8859-1") || FieldBytes.equalsIgnoringCase(name, "ISO8859-1")
            || FieldBytes.equalsIgnoringCase(name, "LATIN1") || FieldBytes.equalsIgnoringCase(name, "ISO-8859-15") {
            self = .latin1
        } else if FieldBytes.equalsIgnoringCase(name, "WINDOWS-1252") || FieldBytes.equalsIgnoringCase(name, "CP1252") {
            self = .windows1252
        } else {
            self = .utf8
        }
    }

    /// What Windows-1252 puts at 0x80–0x9F (0 where it has nothing: kept as Latin-1).
    private static let windowsHigh: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// `bytes` as UTF-8, appended to `output`: UTF-8 that is valid as it
    /// is, else each byte read in this charset (Windows-1252 for UTF-8 that
    /// is not).
    static func appendUTF8(_ bytes: UnsafeBufferPointer<UInt8>, charset: TextCharset, to output: ByteArena) {
        if charset == .utf8, isValidUTF8(bytes) {
            output.append(contentsOf: bytes)
            return
        }
        for byte in bytes {
            var scalar = UInt32(byte)
            if charset != .latin1, byte >= 0x80, byte < 0xA0, windowsHigh[Int(byte - 0x80)] != 0 {
                scalar = UInt32(windowsHigh[Int(byte - 0x80)])
            }
            appendScalar(scalar, to: output)
        }
    }

    private static func appendScalar(_ scalar: UInt32, to output: ByteArena) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, no
    /// surrogates, nothing past U+10FFFF). ASCII is checked eight bytes at a time.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        let count = bytes.count
        while index < count {
            if index + 8 <= count, UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard index + length <= count, base[index + 1] >= low, base[index + 1] <= high else { return false }
            for next in (index + 2)..<(index + length) where base[next] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}

/// Quoted-printable (RFC 2045) as vCard 2.1 writes it: `=XX` a byte, `=`
/// at a line's end a soft break; a line fold (a break and a space) is
/// taken off too. A lone `=` that is neither stays as it is.
enum QuotedPrintableText {
    static func decode(_ text: UnsafeBufferPointer<UInt8>, into output: ByteArena) {
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            if byte == UInt8(ascii: "=") {
                var next = index + 1
                while next < count, text[next] == 0x20 || text[next] == 0x09 { next += 1 }  // trailing space before a soft break
                if next < count, text[next] == 0x0D || text[next] == 0x0A {
                    index = next + (text[next] == 0x0D && next + 1 < count && text[next + 1] == 0x0A ? 2 : 1)
                    continue
                }
                if index + 2 < count, let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) {
                    output.append(high << 4 | low)
                    index += 3
                    continue
                }
            } else if byte == 0x0D || byte == 0x0A {
                // A break that is no soft break: a fold, whose space goes too.
                index += byte == 0x0D && index + 1 < count && text[index + 1] == 0x0A ? 2 : 1
                if index < count, text[index] == 0x20 || text[index] == 0x09 { index += 1 }
                continue
            }
            output.append(byte)
            index += 1
        }
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
