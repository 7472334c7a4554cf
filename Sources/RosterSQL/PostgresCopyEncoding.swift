/// The text format of `COPY`: tab-separated, `\N` for NULL, backslash
/// escapes; `bytea` as `\\x` and hex digits (COPY takes one backslash away).
enum PostgresCopyEncoding {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func append(_ row: [SQLValue], to buffer: inout [UInt8]) {
        for (column, value) in row.enumerated() {
            if column > 0 { buffer.append(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
            case .int(let number): buffer += String(number).utf8
            case .bool(let flag): buffer.append(flag ? UInt8(ascii: "t") : UInt8(ascii: "f"))
            case .text(let text):
                for byte in text.utf8 {
                    switch byte {
                    case 0: buffer += [0xEF, 0xBF, 0xBD]  // text cannot hold U+0000: U+FFFD, counted by the import
                    case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                    case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                    case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                    case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                    default: buffer.append(byte)
                    }
                }
            case .bytes(let bytes):
                buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")]
                for byte in bytes {
                    buffer.append(hexDigits[Int(byte >> 4)])
                    buffer.append(hexDigits[Int(byte & 15)])
                }
            }
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// `\x6a6f` (bytea's text output) → `[0x6a, 0x6f]`.
    static func bytes(fromHex text: String) -> [UInt8] {
        var digits = Array(text.utf8)
        if digits.starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "x")]) { digits.removeFirst(2) }
        func value(_ digit: UInt8) -> UInt8 {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return 0
            }
        }
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }
}
