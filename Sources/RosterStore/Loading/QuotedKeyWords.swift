#if !ROSTER_FUZZ
import RosterCore
#endif

/// A known key, quoted (`"_id"`), as two little-endian words and the
/// masks of its bytes: compared at the cursor with two loads, no loop over
/// its bytes and no array to retain. A key longer than 16 bytes never
/// matches this way (it is decoded instead).
struct QuotedKeyWords {
    let words: (UInt64, UInt64)
    let masks: (UInt64, UInt64)
    let count: Int
    let key: PersonKey

    init(_ quoted: [UInt8], _ key: PersonKey) {
        var words: (UInt64, UInt64) = (0, 0)
        var masks: (UInt64, UInt64) = (0, 0)
        for (offset, byte) in quoted.prefix(16).enumerated() {
            let shift = UInt64(offset % 8) * 8
            if offset < 8 {
                words.0 |= UInt64(byte) << shift
                masks.0 |= 0xFF << shift
            } else {
                words.1 |= UInt64(byte) << shift
                masks.1 |= 0xFF << shift
            }
        }
        // Longer than two words: a mask no input can meet.
        if quoted.count > 16 { (words, masks) = ((1, 0), (0, 0)) }
        self.words = words
        self.masks = masks
        self.count = quoted.count
        self.key = key
    }
}

extension JSONCursor {
    /// Whether the input at `position` starts with `key`: two loads and
    /// masked compares. False within 16 bytes of the buffer's end, where
    /// the caller decodes the key instead.
    @inline(__always)
    func startsWith(_ key: QuotedKeyWords) -> Bool {
        guard position + 16 <= bytes.count, let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base + position)
        return raw.loadUnaligned(as: UInt64.self) & key.masks.0 == key.words.0
            && raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & key.masks.1 == key.words.1
    }
}
