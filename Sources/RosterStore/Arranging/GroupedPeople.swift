import Dispatch
#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// People grouped by company and sorted: the order the list shows them in.
///
/// Companies A→Z, people by last then first name, both ignoring case and
/// accents; ties keep file order; people without a company come last.
/// Built with a counting sort by company and one sort per section on
/// precomputed keys, so nothing moves a `Person` around; sections are
/// sorted on both cores.
public struct GroupedPeople: Sendable {
    public static let noCompanyTitle = "No company"

    /// Person positions (file order numbers) in display order.
    public let order: ContiguousArray<UInt32>
    public let sections: [CompanySection]

    public init(order: ContiguousArray<UInt32>, sections: [CompanySection]) {
        self.order = order
        self.sections = sections
    }

    /// Groups (or not) and sorts everyone in `store`.
    public init(store: PeopleStore, sort: SortOrder = .byLastName, byCompany: Bool = true) {
        guard byCompany else {
            var order = ContiguousArray<UInt32>((0..<store.count).map { UInt32($0) })
            let sections = store.count == 0 ? [] : [CompanySection.everyone(0..<store.count)]
            Self.sortSections(sections, of: &order, store: store, sort: sort)
            self.init(order: order, sections: sections)
            return
        }
        let companies = store.companies
        let companyRank = Self.rankCompanies(companies)
        // Sections in rank order; counting sort keeps file order within each.
        var starts = [Int](repeating: 0, count: companies.count + 1)
        var sections: [CompanySection] = []
        var ranked = [Int](repeating: 0, count: companies.count)
        for (companyID, rank) in companyRank.enumerated() { ranked[rank] = companyID }
        var next = 0
        for companyID in ranked where companies[companyID].headcount > 0 {
            let company = companies[companyID]
            starts[companyRank[companyID]] = next
            sections.append(CompanySection(
                title: company.key.isEmpty ? Self.noCompanyTitle : company.name,
                companyID: companyID,
                range: next..<(next + company.headcount)))
            next += company.headcount
        }
        var order = ContiguousArray<UInt32>(repeating: 0, count: store.count)
        var fill = starts
        order.withUnsafeMutableBufferPointer { order in
            store.companyOfPerson.withUnsafeBufferPointer { companyOfPerson in
                for position in 0..<companyOfPerson.count {
                    let rank = companyRank[Int(companyOfPerson[position])]
                    order[fill[rank]] = UInt32(position)
                    fill[rank] += 1
                }
            }
        }
        Self.sortSections(sections, of: &order, store: store, sort: sort)
        self.init(order: order, sections: sections)
    }

    /// One company's people as a list of their own (the overview's Enter),
    /// in `sort`'s order: one section, the whole company.
    public init(company companyID: Int, store: PeopleStore, sort: SortOrder) {
        var order = ContiguousArray<UInt32>()
        store.companyOfPerson.withUnsafeBufferPointer { companyOfPerson in
            for position in 0..<companyOfPerson.count where Int(companyOfPerson[position]) == companyID {
                order.append(UInt32(position))
            }
        }
        order.withUnsafeMutableBufferPointer { Self.sort($0, store: store, by: sort) }
        let company = store.companies[companyID]
        let title = company.key.isEmpty ? Self.noCompanyTitle : company.name
        self.init(order: order, sections: order.isEmpty ? [] : [CompanySection(title: title, companyID: companyID, range: 0..<order.count)])
    }

    /// This order (by last name, in companies) after the person at file
    /// position `person` changed name but not company, `store` holding
    /// the new name: that person moved to where the name sorts now within
    /// their company, everyone else where they were. One binary search,
    /// not everyone sorted again. Nil if they are not found where they were.
    func moving(_ person: Int, store: PeopleStore) -> GroupedPeople? {
        let sort = SortOrder.byLastName
        let company = store.companyID(of: person)
        guard let section = sections.first(where: { $0.companyID == company }),
              let from = order[section.range].firstIndex(of: UInt32(person)) else { return nil }
        var moved = order
        moved.remove(at: from)
        let moving = Self.entry(for: UInt32(person), store: store, sort: sort, textKeys: nil)
        // The first place in the section whose person does not come before the one moving.
        var low = section.range.lowerBound, high = section.range.upperBound - 1
        while low < high {
            let middle = (low + high) / 2
            let other = Self.entry(for: moved[middle], store: store, sort: sort, textKeys: nil)
            if Self.precedes(other, moving, store: store, sort: sort, textKeys: nil) { low = middle + 1 } else { high = middle }
        }
        moved.insert(UInt32(person), at: low)
        return GroupedPeople(order: moved, sections: sections)
    }

    /// The company id of whoever is at display `position`.
    public func companyID(at position: Int, store: PeopleStore) -> Int {
        store.companyID(of: Int(order[position]))
    }

    /// Rank of each company id: by folded name, "No company" last.
    static func rankCompanies(_ companies: [Company]) -> [Int] {
        // Sixteen bytes of each key as integers order almost every pair
        // without touching the keys (70,000 companies at 1M people).
        struct Ranked {
            var isBlank: Bool
            var prefix: UInt64
            var secondPrefix: UInt64
            var id: Int
        }
        var ranked = companies.indices.map { id in
            companies[id].key.withUnsafeBufferPointer { key in
                Ranked(isBlank: key.isEmpty, prefix: PeopleSegment.prefix(of: key), secondPrefix: PeopleSegment.prefix(of: key, from: 8), id: id)
            }
        }
        ranked.sort { a, b in
            if a.isBlank != b.isBlank { return b.isBlank }
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            if a.secondPrefix != b.secondPrefix { return a.secondPrefix < b.secondPrefix }
            let order = companies[a.id].key.withUnsafeBufferPointer { left in
                companies[b.id].key.withUnsafeBufferPointer { right in compareBytes(left, right) }
            }
            return order != 0 ? order < 0 : a.id < b.id
        }
        var rank = [Int](repeating: 0, count: companies.count)
        for (position, entry) in ranked.enumerated() { rank[entry.id] = position }
        return rank
    }

    /// Sorts each section's people by name key, splitting the work in two.
    ///
    /// The two halves write one buffer (`nonisolated(unsafe)`): sound, as
    /// they write disjoint ranges of it and the caller reads it only after
    /// both are done. Handing each half a copy instead cost 6 MiB of peak
    /// memory at 1M (measured), so the shared buffer stays.
    private static func sortSections(_ sections: [CompanySection], of order: inout ContiguousArray<UInt32>,
                                     store: PeopleStore, sort: SortOrder) {
        let textKeys = TextSortKeys(store: store, key: sort.key)
        if sections.count == 1 {
            // One big section (the flat list): split it, sort halves, merge.
            order.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let shared = buffer
                let middle = shared.count / 2
                DispatchQueue.concurrentPerform(iterations: 2) { half in
                    let range = half == 0 ? 0..<middle : middle..<shared.count
                    Self.sort(UnsafeMutableBufferPointer(rebasing: shared[range]), store: store, by: sort, textKeys: textKeys)
                }
            }
            let merged = merge(Array(order[..<(order.count / 2)]), Array(order[(order.count / 2)...]), store: store, sort: sort,
                               textKeys: textKeys)
            order = ContiguousArray(merged)
            return
        }
        let total = order.count
        var split = sections.count
        var running = 0
        for (index, section) in sections.enumerated() {
            if running >= total / 2 {
                split = index
                break
            }
            running += section.count
        }
        let halves = [sections[..<split], sections[split...]]
        order.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let shared = buffer
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                // One buffer of entries per core, reused by every section
                // (70,000 of them at 1M people) rather than one each.
                var scratch: [SortEntry] = []
                for section in halves[half] {
                    Self.sort(UnsafeMutableBufferPointer(rebasing: shared[section.range]), store: store, by: sort, textKeys: textKeys,
                              scratch: &scratch)
                }
            }
        }
    }

    private struct SortEntry {
        /// The sort's number (cents, age, active), 1 for a blank text key
        /// (blanks last), else 0.
        var primary: Int64
        /// The first 16 bytes of the folded text key, or of the name key.
        var prefix: UInt64
        var secondPrefix: UInt64
        var position: UInt32
        /// The name key's length: two keys of at most 16 bytes with equal
        /// prefixes differ only in length (in the padding's place), so
        /// most ties between people of one name never read the keys.
        /// `.max` where the prefixes are not the name key's own (a text
        /// order, first name first): the keys are compared.
        var nameKeyLength: UInt32
    }

    /// Sorts positions by `sort`: its key (missing values last either way),
    /// then by name, then in file order, so equal keys keep a stable order.
    static func sort(_ positions: UnsafeMutableBufferPointer<UInt32>, store: PeopleStore, by sort: SortOrder,
                     textKeys: TextSortKeys? = nil) {
        var scratch: [SortEntry] = []
        self.sort(positions, store: store, by: sort, textKeys: textKeys ?? TextSortKeys(store: store, key: sort.key), scratch: &scratch)
    }

    /// As above, with the entries made in `scratch` (kept between calls).
    /// A company holds 14 people on average: those are sorted by insertion,
    /// which for so few makes fewer comparisons than the library's sort and
    /// no calls through a closure.
    private static func sort(_ positions: UnsafeMutableBufferPointer<UInt32>, store: PeopleStore, by sort: SortOrder,
                             textKeys: TextSortKeys?, scratch: inout [SortEntry]) {
        guard positions.count > 1 else { return }
        scratch.removeAll(keepingCapacity: true)
        for position in positions { scratch.append(entry(for: position, store: store, sort: sort, textKeys: textKeys)) }
        scratch.withUnsafeMutableBufferPointer { entries in
            if entries.count <= 24 {
                for next in 1..<entries.count {
                    let moving = entries[next]
                    var slot = next
                    while slot > 0, precedes(moving, entries[slot - 1], store: store, sort: sort, textKeys: textKeys) {
                        entries[slot] = entries[slot - 1]
                        slot -= 1
                    }
                    entries[slot] = moving
                }
            } else {
                entries.sort { precedes($0, $1, store: store, sort: sort, textKeys: textKeys) }
            }
            for index in entries.indices { positions[index] = entries[index].position }
        }
    }

    /// Two sorted runs merged into one (the flat list sorts halves apart).
    private static func merge(_ left: [UInt32], _ right: [UInt32], store: PeopleStore, sort: SortOrder,
                              textKeys: TextSortKeys?) -> [UInt32] {
        let leftEntries = left.map { entry(for: $0, store: store, sort: sort, textKeys: textKeys) }
        let rightEntries = right.map { entry(for: $0, store: store, sort: sort, textKeys: textKeys) }
        var merged: [UInt32] = []
        merged.reserveCapacity(left.count + right.count)
        var i = 0, j = 0
        while i < leftEntries.count, j < rightEntries.count {
            if precedes(rightEntries[j], leftEntries[i], store: store, sort: sort, textKeys: textKeys) {
                merged.append(rightEntries[j].position)
                j += 1
            } else {
                merged.append(leftEntries[i].position)
                i += 1
            }
        }
        merged += leftEntries[i...].map(\.position)
        merged += rightEntries[j...].map(\.position)
        return merged
    }

    private static func entry(for position: UInt32, store: PeopleStore, sort: SortOrder, textKeys: TextSortKeys?) -> SortEntry {
        let person = Int(position)
        if let textKeys {
            return textKeys.withKey(of: person) { key in
                SortEntry(primary: key.isEmpty ? 1 : 0, prefix: PeopleSegment.prefix(of: key),
                          secondPrefix: PeopleSegment.prefix(of: key, from: 8), position: position, nameKeyLength: .max)
            }
        }
        let primary: Int64
        switch sort.key {
        case .balance:
            primary = store.balanceCents(of: person).map { sort.descending ? -$0 : $0 } ?? Int64.max
        case .age:
            primary = store.age(of: person).map { Int64(sort.descending ? -$0 : $0) } ?? Int64.max
        case .active:
            // Yes before no, ascending.
            primary = store.isActive(person).map { sort.descending ? ($0 ? 0 : -1) : ($0 ? 0 : 1) } ?? Int64.max
        default:
            primary = 0
        }
        if sort.key == .firstName {
            return store.withNameKey(of: person) { key in
                var bytes = FirstNameFirst(key)
                var prefix: UInt64 = 0, second: UInt64 = 0
                for _ in 0..<8 { prefix = prefix << 8 | UInt64(bytes.next() ?? 0) }
                for _ in 0..<8 { second = second << 8 | UInt64(bytes.next() ?? 0) }
                return SortEntry(primary: primary, prefix: prefix, secondPrefix: second, position: position, nameKeyLength: .max)
            }
        }
        let name = store.namePrefix(of: person)
        return SortEntry(primary: primary, prefix: name.first, secondPrefix: name.second, position: position,
                         nameKeyLength: UInt32(truncatingIfNeeded: name.keyLength))
    }

    /// A descending name or text order reverses the text and the names; a
    /// descending figure is negated in `primary`, and its names ascend.
    private static func precedes(_ a: SortEntry, _ b: SortEntry, store: PeopleStore, sort: SortOrder, textKeys: TextSortKeys?) -> Bool {
        if a.primary != b.primary { return a.primary < b.primary }
        let reverse = sort.descending && (sort.key == .lastName || sort.key == .firstName || textKeys != nil)
        if a.prefix != b.prefix { return (a.prefix < b.prefix) != reverse }
        if a.secondPrefix != b.secondPrefix { return (a.secondPrefix < b.secondPrefix) != reverse }
        var order = textKeys.map { $0.compare(Int(a.position), Int(b.position)) } ?? 0
        if order == 0, a.nameKeyLength <= 16, b.nameKeyLength <= 16 {
            order = a.nameKeyLength == b.nameKeyLength ? 0 : a.nameKeyLength < b.nameKeyLength ? -1 : 1
        } else if order == 0 {
            order = store.withNameKey(of: Int(a.position)) { left in
                store.withNameKey(of: Int(b.position)) { right in
                    sort.key == .firstName ? compareFirstNameFirst(left, right) : compareBytes(left, right)
                }
            }
        }
        if reverse { order = -order }
        if order != 0 { return order < 0 }
        return a.position < b.position
    }

    /// The bytes of a "last\0first" key read as "first\0last", without copying.
    struct FirstNameFirst: IteratorProtocol {
        let key: UnsafeBufferPointer<UInt8>
        let split: Int
        var index: Int

        init(_ key: UnsafeBufferPointer<UInt8>) {
            self.key = key
            split = key.firstIndex(of: 0) ?? key.count
            index = 0
        }

        /// First name, a 0, then last name.
        mutating func next() -> UInt8? {
            let firstCount = key.count - min(key.count, split + 1)
            defer { index += 1 }
            if index < firstCount { return key[split + 1 + index] }
            if index == firstCount { return 0 }
            let lastIndex = index - firstCount - 1
            return lastIndex < split ? key[lastIndex] : nil
        }
    }

    static func compareFirstNameFirst(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int32 {
        var a = FirstNameFirst(left), b = FirstNameFirst(right)
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    static func compareBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int32 {
        let common = min(left.count, right.count)
        if common > 0, let a = left.baseAddress, let b = right.baseAddress {
            let result = memcmp(a, b, common)
            if result != 0 { return result }
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }

    // MARK: Rows

    /// Index of the section holding display position `position`.
    public func sectionIndex(containing position: Int) -> Int {
        sections.sectionIndex(containing: position)
    }
}
