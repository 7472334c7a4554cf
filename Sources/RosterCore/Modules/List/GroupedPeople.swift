import Dispatch
import Foundation

/// One company's run of people in the list's order.
public struct CompanySection: Sendable, Equatable {
    /// The company as shown; "(no company)" for the section of people without one.
    public var title: String
    public var companyID: Int
    /// Positions in `GroupedPeople.order` that belong to this section.
    public var range: Range<Int>
    /// The company's headcount before any search narrowed it.
    public var total: Int

    public init(title: String, companyID: Int, range: Range<Int>, total: Int? = nil) {
        self.title = title
        self.companyID = companyID
        self.range = range
        self.total = total ?? range.count
    }

    public var count: Int { range.count }
}

/// People grouped by company and sorted: the order the list shows them in.
///
/// Companies A→Z, people by last then first name, both ignoring case and
/// accents; ties keep file order; people without a company come last.
/// Built with a counting sort by company and one sort per section on
/// precomputed keys, so nothing moves a `Person` around; sections are
/// sorted on both cores.
public struct GroupedPeople: Sendable {
    public static let noCompanyTitle = "(no company)"

    /// Person positions (file order numbers) in display order.
    public let order: ContiguousArray<UInt32>
    public let sections: [CompanySection]

    public init(order: ContiguousArray<UInt32>, sections: [CompanySection]) {
        self.order = order
        self.sections = sections
    }

    public static let empty = GroupedPeople(order: [], sections: [])

    /// Groups and sorts everyone in `store`.
    public init(store: PeopleStore) {
        let companies = store.companies
        let companyRank = Self.rankCompanies(companies)
        // Sections in rank order; counting sort keeps file order within each.
        var starts = [Int](repeating: 0, count: companies.count + 1)
        var sections: [CompanySection] = []
        var sectionOfRank = [Int](repeating: -1, count: companies.count)
        let ranked = companies.indices.sorted { companyRank[$0] < companyRank[$1] }
        var next = 0
        for companyID in ranked where companies[companyID].headcount > 0 {
            let company = companies[companyID]
            starts[companyRank[companyID]] = next
            sectionOfRank[companyRank[companyID]] = sections.count
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
        Self.sortSections(sections, of: &order, store: store)
        self.order = order
        self.sections = sections
    }

    /// Rank of each company id: by folded name, "(no company)" last.
    static func rankCompanies(_ companies: [Company]) -> [Int] {
        let sorted = companies.indices.sorted { left, right in
            let a = companies[left].key, b = companies[right].key
            if a.isEmpty != b.isEmpty { return b.isEmpty }
            let order = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in compareBytes(a, b) } }
            return order != 0 ? order < 0 : left < right
        }
        var rank = [Int](repeating: 0, count: companies.count)
        for (position, companyID) in sorted.enumerated() { rank[companyID] = position }
        return rank
    }

    /// Sorts each section's people by name key, splitting the work in two.
    private static func sortSections(_ sections: [CompanySection], of order: inout ContiguousArray<UInt32>, store: PeopleStore) {
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
                for section in halves[half] {
                    sortByName(UnsafeMutableBufferPointer(rebasing: shared[section.range]), store: store)
                }
            }
        }
    }

    private struct SortEntry {
        var prefix: UInt64
        var secondPrefix: UInt64
        var position: UInt32
    }

    /// Sorts positions by folded last name, first name, then file order.
    static func sortByName(_ positions: UnsafeMutableBufferPointer<UInt32>, store: PeopleStore) {
        guard positions.count > 1 else { return }
        var entries = store.namePrefixes.withUnsafeBufferPointer { prefixes in
            positions.map { SortEntry(prefix: prefixes[2 * Int($0)], secondPrefix: prefixes[2 * Int($0) + 1], position: $0) }
        }
        entries.sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            if a.secondPrefix != b.secondPrefix { return a.secondPrefix < b.secondPrefix }
            let order = store.withNameKey(of: Int(a.position)) { left in
                store.withNameKey(of: Int(b.position)) { right in compareBytes(left, right) }
            }
            if order != 0 { return order < 0 }
            return a.position < b.position
        }
        for (index, entry) in entries.enumerated() { positions[index] = entry.position }
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
        var low = 0, high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].range.lowerBound <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
