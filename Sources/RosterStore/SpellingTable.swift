#if !ROSTER_FUZZ
import RosterCore
#endif

/// Distinct byte strings, numbered in the order first seen.
///
/// The loader looks up a company (and each accented name) a million times;
/// this open-addressing table hashes the raw bytes and compares them in
/// place, so a spelling already seen costs no allocation at all.
///
/// Each slot holds what a lookup needs (length, first eight bytes, where
/// the rest is kept, number): a spelling of up to eight bytes is found
/// with one read of memory, a longer one with two. Slots that pointed into
/// separate arrays cost three cache misses a person at 70,000 companies,
/// a tenth of the JSON parse.
struct SpellingTable {
    private struct Slot {
        /// The spelling's first eight bytes, zero-padded (`head(of:)`).
        var prefix: UInt64 = 0
        /// Where it starts in `storage`.
        var start = 0
        var count: Int32 = 0
        /// Its number; -1 for an empty slot.
        var number: Int32 = -1
    }

    private let storage = ByteArena()
    private var slots = [Slot](repeating: Slot(), count: 64)
    private(set) var count = 0

    /// The number of `spelling`, and whether this is its first sighting.
    mutating func number(of spelling: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
        let prefix = Self.head(of: spelling)
        let hash = Self.hash(spelling)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        let found: Int? = slots.withUnsafeBufferPointer { slots in
            while true {
                let slot = slots[index]
                if slot.number < 0 { return nil }
                if slot.prefix == prefix, Int(slot.count) == spelling.count,
                   spelling.count <= 8 || Self.equal(storage.bytes((slot.start + 8)..<(slot.start + spelling.count)),
                                                     UnsafeBufferPointer(rebasing: spelling[8...])) {
                    return Int(slot.number)
                }
                index = (index + 1) & mask
            }
        }
        if let found { return (found, false) }
        let number = count
        slots[index] = Slot(prefix: prefix, start: storage.count, count: Int32(truncatingIfNeeded: spelling.count), number: Int32(number))
        storage.append(contentsOf: spelling)
        count += 1
        if count * 2 > slots.count { grow() }
        return (number, true)
    }

    /// Reads the slot where a lookup of `spelling` starts, and returns
    /// what it read: lookups made after touching several slots find them
    /// in cache (the reads overlap; the lookups' own would not).
    @inline(__always)
    func touch(_ spelling: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let index = Int(truncatingIfNeeded: Self.hash(spelling)) & (slots.count - 1)
        return slots.withUnsafeBufferPointer { $0[index].prefix }
    }

    /// The first eight bytes of `bytes` as one integer, zero-padded: with
    /// the length, equal heads mean equal spellings of up to eight bytes.
    @inline(__always)
    private static func head(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        if bytes.count >= 8 { return UnsafeRawPointer(base).loadUnaligned(as: UInt64.self) }
        var head: UInt64 = 0
        for index in 0..<bytes.count { head |= UInt64(base[index]) << (8 * UInt64(index)) }
        return head
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.number >= 0 {
            var index = Int(truncatingIfNeeded: Self.hash(storage.bytes(slot.start..<(slot.start + Int(slot.count))))) & mask
            while slots[index].number >= 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// Byte equality, eight at a time: short strings, no call into libc.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        var offset = 0
        while offset + 8 <= a.count {
            if UnsafeRawPointer(left + offset).loadUnaligned(as: UInt64.self)
                != UnsafeRawPointer(right + offset).loadUnaligned(as: UInt64.self) { return false }
            offset += 8
        }
        while offset < a.count {
            if left[offset] != right[offset] { return false }
            offset += 1
        }
        return true
    }

    /// Multiply-xorshift over eight bytes at a time: short keys, well spread.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        if let base = bytes.baseAddress {
            while offset + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 32
                offset += 8
            }
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        hash = (hash ^ tail) &* 0x9E37_79B9_7F4A_7C15
        return hash ^ (hash >> 29)
    }
}
