#if !ROSTER_FUZZ
import RosterCore
#endif

/// Distinct byte strings, numbered in the order first seen.
///
/// The loader looks up a company (and each accented name) a million times;
/// this open-addressing table hashes the raw bytes and compares them in
/// place, so a spelling already seen costs no allocation at all.
struct SpellingTable {
    private struct Entry {
        var start: Int
        var count: Int
        var hash: UInt64
    }

    private let storage = ByteArena()
    private var entries: [Entry] = []
    private var slots = [Int32](repeating: -1, count: 64)

    var count: Int { entries.count }

    /// The number of `spelling`, and whether this is its first sighting.
    mutating func number(of spelling: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
        let hash = Self.hash(spelling)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { break }
            let known = entries[entry]
            if known.hash == hash, known.count == spelling.count,
               Self.equal(storage.bytes(known.start..<known.start + known.count), spelling) {
                return (entry, false)
            }
            slot = (slot + 1) & mask
        }
        let number = entries.count
        slots[slot] = Int32(number)
        entries.append(Entry(start: storage.count, count: spelling.count, hash: hash))
        storage.append(contentsOf: spelling)
        if entries.count * 2 > slots.count { grow() }
        return (number, true)
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
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
