#if !ROSTER_FUZZ
import RosterCore
#endif

/// A CSV cell's text as the reader takes it: the quote an export added
/// before a formula taken off, spaces trimmed for numbers, quoted for reasons.
extension CSVParser {
    /// `'=1+2` → `=1+2`: the quote `--export csv` puts before text a
    /// spreadsheet would run (`SpreadsheetCell.guarded`; an edit too), and only that:
    /// after any leading quotes must come `=`, `+`, `-`, `@`, tab or CR
    /// (the export quotes `'=x` as `''=x`, so it reads back as `'=x`).
    static func withoutAddedQuote(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard bytes.first == UInt8(ascii: "'") else { return bytes }
        var index = 1
        while index < bytes.count, bytes[index] == UInt8(ascii: "'") { index += 1 }
        guard index < bytes.count else { return bytes }
        switch bytes[index] {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D:
            return UnsafeBufferPointer(rebasing: bytes[1...])
        default:
            return bytes
        }
    }

    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// A cell's text for a reason: quoted, cut at 24 characters.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return "'" + (text.count > 24 ? text.prefix(24) + "…" : text) + "'"
    }
}
