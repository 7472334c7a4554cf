#if !ROSTER_FUZZ
import RosterCore
#endif

/// A file's people reduced to what `roster query` reads, as bytes kept
/// between runs (`QueryIndexFile` in the app keeps them in the cache):
/// the names, company, email, phone and address of each person, the name
/// keys, the numbers, each person's company, the list's order by last
/// name and the search's presence masks. Read back, it is a `PeopleStore`
/// holding exactly the bytes the file's own store held for those fields,
/// so the same search and the same lines come out of it; a query naming
/// any other field (eye colour, fruit, ids) reads the file.
public enum QueryIndex {
    /// The text fields kept, side by side (`TextField` raw values in a row:
    /// the search reads email, phone and address as one run).
    static let keptFields: [TextField] = [.firstName, .lastName, .company, .email, .phone, .address]

    /// Whether every term of `query` reads only what the index keeps.
    public static func answers(_ query: PeopleQuery) -> Bool {
        query.terms.allSatisfy { term in
            switch term.condition {
            case .text(let scope, _), .exact(let scope, _): return keptScopes.contains(scope)
            case .number, .active, .unrecorded: return true
            // The org chart is read from the file's managers, which an index does not keep.
            case .org, .depth: return false
            }
        }
    }

    static let keptScopes: Set<TextScope> = [.anywhere, .name, .firstName, .lastName, .company, .email, .phone,
                                              .address, .street, .city, .state, .zip]

    /// What an index holds once read: the store and everyone by last name.
    public struct Contents: Sendable {
        public let store: PeopleStore
        public let everyone: GroupedPeople
    }

    /// The index's bytes for `store`, whose people `everyone` lists by last
    /// name (one flat section, as `GroupedPeople(store:sort:byCompany: false)`).
    public static func encode(_ store: PeopleStore, everyone: GroupedPeople) -> [UInt8] {
        var writer = QueryIndexWriter()
        var text: [UInt8] = [], ends: [UInt32] = [], keys: [UInt8] = [], keyEnds: [UInt64] = []
        var ages: [Int32] = [], cents: [Int64] = [], active: [UInt8] = [], present: [UInt16] = []
        for segment in store.segments {
            for local in 0..<segment.count {
                let entry = segment.first + local
                var end = 0
                for field in keptFields {
                    let bytes = segment.arena.bytes(segment.byteRange(field, of: local))
                    text.append(contentsOf: bytes)
                    end += bytes.count
                    ends.append(UInt32(end))
                }
                segment.withNameKey(of: local) { keys.append(contentsOf: $0) }
                keyEnds.append(UInt64(keys.count))
                ages.append(segment.ages[entry])
                cents.append(segment.cents[entry])
                active.append(segment.activeFlags[entry])
                present.append(segment.presentFields[entry])
            }
        }
        writer.integer(store.count)
        writer.integer(store.companies.count)
        for company in store.companies {
            writer.array(Array(company.name.utf8))
            writer.array(company.key)
            writer.integer(company.headcount)
        }
        writer.array(text)
        writer.array(ends)
        writer.array(keys)
        writer.array(keyEnds)
        writer.array(ages)
        writer.array(cents)
        writer.array(active)
        writer.array(present)
        writer.array(Array(store.companyOfPerson))
        writer.array(Array(everyone.order))
        writer.array(store.presenceMasks().flatMap { $0 })
        return writer.bytes
    }

    /// The store and order in `body` (what `encode` made); nil for bytes
    /// that are not one (cut short, inconsistent): never a crash.
    public static func decode(_ body: UnsafeRawBufferPointer) -> Contents? {
        var reader = QueryIndexReader(body)
        guard let count = reader.integer(), count < Int(UInt32.max), let companyCount = reader.integer(),
              companyCount <= max(count, 1) else { return nil }
        var companies: [Company] = []
        companies.reserveCapacity(companyCount)
        for _ in 0..<companyCount {
            guard let name = reader.array(UInt8.self), let key = reader.array(UInt8.self), let headcount = reader.integer() else { return nil }
            companies.append(Company(name: String(decoding: name, as: UTF8.self), key: Array(key), headcount: headcount))
        }
        guard let text = reader.array(UInt8.self), let ends = reader.array(UInt32.self, count: count * keptFields.count),
              let keys = reader.array(UInt8.self), let keyEnds = reader.array(UInt64.self, count: count),
              let ages = reader.array(Int32.self, count: count), let cents = reader.array(Int64.self, count: count),
              let active = reader.array(UInt8.self, count: count), let present = reader.array(UInt16.self, count: count),
              let companyOfPerson = reader.array(UInt32.self, count: count), let order = reader.array(UInt32.self, count: count),
              let presence = reader.array(UInt64.self, count: count), reader.isAtEnd else { return nil }
        guard let records = QueryIndexRecords(ends: ends, textCount: text.count, people: count),
              Self.isAscending(keyEnds, upTo: keys.count), active.allSatisfy({ $0 <= 2 }),
              companyOfPerson.allSatisfy({ Int($0) < companyCount }), Self.isPermutation(order, of: count) else { return nil }
        let segment = PeopleSegment(
            count: count, arena: frozen(text), recordStart: records.starts, fileOffsets: ContiguousArray(repeating: 0, count: count),
            fieldEnds: records.fieldEnds, indexValues: ContiguousArray(repeating: PeopleSegment.missingInt, count: count),
            ages: ContiguousArray(ages), activeFlags: ContiguousArray(active), cents: ContiguousArray(cents),
            presentFields: ContiguousArray(present), nameKeys: frozen(keys), nameKeyEnds: ContiguousArray(keyEnds.lazy.map { Int($0) }),
            namePrefixes: namePrefixes(keys: keys, ends: keyEnds), companyIDs: ContiguousArray(companyOfPerson),
            companyNames: companies.map { CompanyName(display: $0.name, key: $0.key) }, companyHeadcounts: companies.map(\.headcount))
        let store = PeopleStore(segments: [segment], companies: companies, companyOfPerson: ContiguousArray(companyOfPerson))
        store.keepPresenceMasks([ContiguousArray(presence)])
        // The flat list's one section, as `GroupedPeople(store:sort:byCompany:)` makes it.
        let sections = count == 0 ? [] : [CompanySection.everyone(0..<count)]
        return Contents(store: store, everyone: GroupedPeople(order: ContiguousArray(order), sections: sections))
    }

    private static func frozen(_ bytes: UnsafeBufferPointer<UInt8>) -> FrozenBytes {
        let arena = ByteArena(capacity: bytes.count)
        arena.append(contentsOf: bytes)
        return arena.freeze()
    }

    /// Each person's two big-endian words of the name key's first sixteen bytes.
    private static func namePrefixes(keys: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<UInt64>) -> ContiguousArray<UInt64> {
        var prefixes = ContiguousArray<UInt64>()
        prefixes.reserveCapacity(ends.count * 2)
        var start = 0
        for end in ends {
            let key = UnsafeBufferPointer(rebasing: keys[start..<Int(end)])
            prefixes.append(PeopleSegment.prefix(of: key))
            prefixes.append(PeopleSegment.prefix(of: key, from: 8))
            start = Int(end)
        }
        return prefixes
    }

    private static func isAscending(_ ends: UnsafeBufferPointer<UInt64>, upTo total: Int) -> Bool {
        var previous: UInt64 = 0
        for end in ends {
            guard end >= previous else { return false }
            previous = end
        }
        return previous == UInt64(total)
    }

    private static func isPermutation(_ order: UnsafeBufferPointer<UInt32>, of count: Int) -> Bool {
        var seen = [Bool](repeating: false, count: count)
        for person in order {
            guard Int(person) < count, !seen[Int(person)] else { return false }
            seen[Int(person)] = true
        }
        return true
    }
}

/// Where each person's record starts in the index's text and where each
/// of its fields ends (every `TextField`, those not kept empty), checked
/// to lie inside the text.
struct QueryIndexRecords {
    let starts: ContiguousArray<Int>
    let fieldEnds: ContiguousArray<UInt32>

    init?(ends: UnsafeBufferPointer<UInt32>, textCount: Int, people: Int) {
        let kept = QueryIndex.keptFields.map(\.rawValue)
        guard let firstKept = kept.first, kept == Array(firstKept..<(firstKept + kept.count)) else { return nil }
        var starts = ContiguousArray<Int>(), fieldEnds = ContiguousArray<UInt32>()
        starts.reserveCapacity(people)
        fieldEnds.reserveCapacity(people * PeopleSegment.textFieldCount)
        var start = 0
        for person in 0..<people {
            starts.append(start)
            var previous: UInt32 = 0
            for field in 0..<PeopleSegment.textFieldCount {
                let keptIndex = field - firstKept
                if keptIndex >= 0, keptIndex < kept.count {
                    let end = ends[person * kept.count + keptIndex]
                    guard end >= previous else { return nil }
                    previous = end
                }
                fieldEnds.append(previous)
            }
            start += Int(previous)
            guard start <= textCount else { return nil }
        }
        guard start == textCount else { return nil }
        self.starts = starts
        self.fieldEnds = fieldEnds
    }
}
