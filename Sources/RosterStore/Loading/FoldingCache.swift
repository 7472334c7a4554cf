#if !ROSTER_FUZZ
import RosterCore
#endif

/// Folds names while loading: ASCII never leaves the fast path, and other
/// text is folded by Foundation once per distinct spelling, then remembered.
struct FoldingCache {
    private var spellings = SpellingTable()
    private let folded = ByteArena()
    private var foldedRanges: [Range<Int>] = []

    /// Appends the folded form of UTF-8 `bytes` to `output`.
    mutating func appendFolded(_ bytes: UnsafeBufferPointer<UInt8>, to output: ByteArena) {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            for byte in bytes { output.append(TextFolding.lowercasedASCII(byte)) }
            return
        }
        let (number, isNew) = spellings.number(of: bytes)
        if isNew {
            let start = folded.count
            TextFolding.foldedBytes(String(decoding: bytes, as: UTF8.self)).withUnsafeBufferPointer { folded.append(contentsOf: $0) }
            foldedRanges.append(start..<folded.count)
        }
        output.append(contentsOf: folded.bytes(foldedRanges[number]))
    }
}
