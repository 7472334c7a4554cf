/// One kind's reference table in four shards, chosen by the top bits of a
/// key's tag, so that the cores fill it side by side: first every key is
/// made and hashed, runs of people at once; then each shard takes the keys
/// that fall in it, in person order (the first person with a key stays
/// the one a lookup names first). A million ids: half the wall time of one
/// table filled by one core.
struct ShardedReferenceTable: Sendable {
    private static let shardBits = 2
    private let shards: [ReferenceTable]

    var count: Int { shards.reduce(0) { $0 + $1.count } }
    var memoryBytes: Int { shards.reduce(0) { $0 + $1.memoryBytes } }

    func find(tag: UInt32, isKey: (Int) -> Bool) -> ReferenceTable.Found? {
        shards[Self.shard(of: tag)].find(tag: tag, isKey: isKey)
    }

    private static func shard(of tag: UInt32) -> Int { Int(tag >> UInt32(32 - shardBits)) }

    /// The table of every identifier of `kind` in `source`.
    init<Source: PersonReferenceSource>(_ kind: PersonReferenceKind, of source: Source) {
        let keyed = Self.tags(of: kind, in: source)
        shards = Parallel.map(1 << Self.shardBits) { shard in
            let keys = keyed.reduce(0) { total, run in total + run.count { Self.shard(of: UInt32($0 >> 32)) == shard } }
            var table = ReferenceTable(expectedKeys: keys, shardBits: Self.shardBits)
            var personKey = ReferenceKey()
            var candidateKey = ReferenceKey()
            for run in keyed {
                for entry in run where Self.shard(of: UInt32(entry >> 32)) == shard {
                    let (tag, person) = (UInt32(entry >> 32), Int(entry & 0xFFFF_FFFF))
                    table.add(person, tag: tag) { candidate in
                        Self.share(person, candidate, kind, tag: tag, in: source,
                                   personKey: &personKey, candidateKey: &candidateKey)
                    }
                }
            }
            return table
        }
    }

    /// Each key's tag and person (`tag << 32 | person`), in person order,
    /// made by runs of people across the cores.
    private static func tags<Source: PersonReferenceSource>(of kind: PersonReferenceKind,
                                                            in source: Source) -> [[UInt64]] {
        let count = source.count
        let runLength = max(4096, (count + 15) / 16)
        return Parallel.map((count + runLength - 1) / runLength) { run in
            var key = ReferenceKey()
            var entries: [UInt64] = []
            for person in (run * runLength)..<min(count, (run + 1) * runLength) {
                source.forEachIdentifier(kind, of: person) { identifier in
                    guard key.make(kind, of: identifier) else { return }
                    entries.append(UInt64(ReferenceTable.tag(of: key.bytes)) << 32 | UInt64(person))
                }
            }
            return entries
        }
    }

    /// Whether `person` and `candidate` both have one identifier of `kind`
    /// (the one of `person`'s whose tag is `tag`).
    private static func share<Source: PersonReferenceSource>(
        _ person: Int, _ candidate: Int, _ kind: PersonReferenceKind, tag: UInt32, in source: Source,
        personKey: inout ReferenceKey, candidateKey: inout ReferenceKey
    ) -> Bool {
        var shared = false
        source.forEachIdentifier(kind, of: person) { identifier in
            guard !shared, personKey.make(kind, of: identifier), ReferenceTable.tag(of: personKey.bytes) == tag else { return }
            shared = has(candidate, kind, personKey.bytes, in: source, scratch: &candidateKey)
        }
        return shared
    }

    /// Whether `person` has an identifier of `kind` whose normal form is `key`.
    static func has<Source: PersonReferenceSource>(_ person: Int, _ kind: PersonReferenceKind, _ key: [UInt8],
                                                   in source: Source, scratch: inout ReferenceKey) -> Bool {
        var found = false
        source.forEachIdentifier(kind, of: person) { identifier in
            guard !found, scratch.make(kind, of: identifier) else { return }
            found = scratch.bytes == key
        }
        return found
    }
}
