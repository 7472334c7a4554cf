#if !ROSTER_FUZZ
import RosterCore
#endif

/// Every `_id` of a store, found again in a few probes: an open-addressing
/// table of people's positions, hashed on the `_id`'s bytes where they
/// already lie in the store. Eight bytes a person at most, where a
/// dictionary of strings took a hundred (a million people: 8 MB, not 100).
struct RecordIDIndex: Sendable {
    private let slots: ContiguousArray<Int32>
    private let mask: Int

    /// The first person of each `_id`, in file order (a later duplicate is
    /// left out; an empty `_id` is not indexed).
    init(_ store: PeopleStore) {
        var capacity = 16
        while capacity < store.count * 2 { capacity <<= 1 }
        let mask = capacity - 1
        var slots = ContiguousArray<Int32>(repeating: -1, count: capacity)
        for person in 0..<store.count {
            store.withBytes(.id, of: person) { id in
                guard !id.isEmpty else { return }
                var slot = Self.hash(id) & mask
                while slots[slot] >= 0 {
                    if store.withBytes(.id, of: Int(slots[slot]), { $0.elementsEqual(id) }) { return }
                    slot = (slot + 1) & mask
                }
                slots[slot] = Int32(person)
            }
        }
        self.slots = slots
        self.mask = mask
    }

    /// The first person whose `_id` is `id`.
    func position(of id: String, in store: PeopleStore) -> Int? {
        var id = id
        return id.withUTF8 { id in
            guard !id.isEmpty else { return nil }
            var slot = Self.hash(id) & mask
            while slots[slot] >= 0 {
                let person = Int(slots[slot])
                if store.withBytes(.id, of: person, { $0.elementsEqual(id) }) { return person }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// FNV-1a over the bytes, folded so that the low bits mix the high.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
