/// Folding of UTF-8 bytes without Foundation, for searching a million
/// fields a keystroke: ASCII letters lowercased, the accented letters of
/// Latin-1 and Latin Extended-A mapped to their base letter (`ö` → `o`,
/// `Ł` → `l`), anything else kept as it is. Agrees with `TextFolding` on
/// every character it maps.
public enum LatinFolding {
    public static func fold(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                output.append(TextFolding.lowercasedASCII(byte))
                index += 1
                continue
            }
            if (byte == 0xC3 || byte == 0xC4 || byte == 0xC5), index + 1 < bytes.count {
                let scalar = (Int(byte & 0x1F) << 6) | Int(bytes[index + 1] & 0x3F)
                if scalar >= 0xC0, scalar <= 0x17F, let base = baseLetters[scalar - 0xC0] {
                    output.append(base)
                    index += 2
                    continue
                }
            }
            output.append(byte)
            index += 1
        }
    }

    /// U+00C0…U+017F → base letter (nil: keep the bytes, e.g. ×, ÷, æ, ß).
    private static let baseLetters: [UInt8?] = {
        // Generated from Unicode decompositions (NFD base letter, lowercased);
        // x: no ASCII base (×, ÷, æ, ø, ß, đ, ł …), kept as it is.
        let table = "aaaaaaxceeeeiiiixnoooooxxuuuuyxxaaaaaaxceeeeiiiixnoooooxxuuuuyxyaaaaaaccccccccddxxeeeeeeeeeegggggggghhxxiiiiiiiiixxxjjkkxllllllxxxxnnnnnnxxxooooooxxrrrrrrssssssssttttxxuuuuuuuuuuuuwwyyyzzzzzzx"
        return table.unicodeScalars.map { $0 == "x" ? nil : UInt8(ascii: $0) }
    }()
}
