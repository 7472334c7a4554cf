/// People found again by one kind of identifier: an open-addressing table
/// of person numbers, each beside its key's hash tag in one 8-byte slot,
/// hashed on the identifier's normal form while the bytes stay where the
/// source keeps them. `[String: Int32]`s of the same ids, emails and names
/// took six times the memory (`roster-bench orgchart`: 219 MiB against 36
/// at a million people).
///
/// A key several people share (a common name, an email given twice) is
/// kept once with the number of people who have it: a lookup says how many,
/// so a name that fits two people is said to be ambiguous, never guessed.
struct ReferenceTable: Sendable {
    /// Per slot: the key's 32-bit tag in the high half, the first person
    /// with the key plus one in the low half; 0 for an empty slot. One
    /// slot, one cache line to read: the tag rejects most other keys without
    /// reading the source, and places the key again when the table grows.
    private var slots: [UInt64]
    /// Keys more than one person has: slot → how many, and who came last.
    private var shared: [Int: (people: Int32, last: Int32)] = [:]
    private(set) var count = 0
    /// How many keys the table makes room for when its first comes: a kind
    /// nobody has (DNs outside LDAP) costs nothing.
    private let expectedKeys: Int
    /// Tag bits that chose this table among its shards (the top ones), left
    /// out of where a key's search starts: they are the same for every key here.
    private let shardBits: UInt32

    init(expectedKeys: Int, shardBits: Int = 0) {
        self.expectedKeys = max(expectedKeys, 4)
        self.shardBits = UInt32(shardBits)
        slots = []
    }

    /// What a lookup found: the first person with the key and how many have it.
    struct Found: Equatable {
        let person: Int
        let people: Int
    }

    /// The bytes the table uses: the slots and the shared keys.
    var memoryBytes: Int { slots.count * 8 + shared.count * 32 }

    /// Adds `person` under a key whose tag is `tag`; `isKey(candidate)`
    /// says whether a person already there has this very key. People are
    /// added in increasing order, each person's keys together.
    mutating func add(_ person: Int, tag: UInt32, isKey: (Int) -> Bool) {
        if slots.isEmpty {
            slots = Array(repeating: 0, count: Self.capacity(for: expectedKeys))
        } else if (count + 1) * 8 > slots.count * 5 {
            grow()
        }
        var slot = home(of: tag, capacity: slots.count)
        while slots[slot] != 0 {
            if Self.tag(in: slots[slot]) == tag, isKey(Self.person(in: slots[slot])) {
                addSharer(person, at: slot)
                return
            }
            slot = slot + 1 == slots.count ? 0 : slot + 1
        }
        slots[slot] = UInt64(tag) << 32 | UInt64(person + 1)
        count += 1
    }

    /// The people with the key whose tag is `tag`, if anyone has it.
    func find(tag: UInt32, isKey: (Int) -> Bool) -> Found? {
        guard count > 0 else { return nil }
        var slot = home(of: tag, capacity: slots.count)
        while slots[slot] != 0 {
            let person = Self.person(in: slots[slot])
            if Self.tag(in: slots[slot]) == tag, isKey(person) {
                return Found(person: person, people: shared.isEmpty ? 1 : Int(shared[slot]?.people ?? 1))
            }
            slot = slot + 1 == slots.count ? 0 : slot + 1
        }
        return nil
    }

    /// The tag of a normalised key. Swift's `Hasher` is seeded afresh in each
    /// process, so a hostile file cannot be made to pile its keys into one
    /// run of slots.
    static func tag(of key: [UInt8]) -> UInt32 {
        var hasher = Hasher()
        key.withUnsafeBytes { hasher.combine(bytes: $0) }
        let hash = UInt64(bitPattern: Int64(hasher.finalize()))
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    private static func tag(in slot: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: slot >> 32) }
    private static func person(in slot: UInt64) -> Int { Int(slot & 0xFFFF_FFFF) - 1 }

    private mutating func addSharer(_ person: Int, at slot: Int) {
        let first = Int32(Self.person(in: slots[slot]))
        let current = shared[slot] ?? (people: 1, last: first)
        // The same person giving one key twice (two equal emails) is one person.
        guard current.last != Int32(person) else { return }
        shared[slot] = (people: current.people + 1, last: Int32(person))
    }

    /// Doubles the slots, placing every key again by its tag.
    private mutating func grow() {
        let old = slots
        let oldShared = shared
        let capacity = old.count * 2
        slots = Array(repeating: 0, count: capacity)
        shared = [:]
        for index in old.indices where old[index] != 0 {
            var slot = home(of: Self.tag(in: old[index]), capacity: capacity)
            while slots[slot] != 0 { slot = slot + 1 == capacity ? 0 : slot + 1 }
            slots[slot] = old[index]
            if let sharing = oldShared[index] { shared[slot] = sharing }
        }
    }

    /// Room for `keys` at most five in eight slots full (linear probing
    /// stays short below that).
    private static func capacity(for keys: Int) -> Int {
        keys * 8 / 5 + 1
    }

    /// Where a key's search starts: the tag (less the shard's bits) scaled
    /// to the table, so any capacity works, not only powers of two.
    private func home(of tag: UInt32, capacity: Int) -> Int {
        Int((UInt64(tag &<< shardBits) &* UInt64(capacity)) >> 32)
    }
}
