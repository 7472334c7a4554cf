/// One company's figures for the overview: exact sums, then averages.
public struct CompanySummary: Sendable, Equatable {
    public var companyID: Int
    public var title: String
    public var headcount: Int
    public var active: Int
    /// Sum of the balances that could be read, in cents: exact in 128 bits
    /// (two balances near the 64-bit limit already overflow 64).
    public var totalCents: Int128
    /// People with a readable balance, and with an age.
    public var balances: Int
    public var ages: Int
    public var ageSum: Int

    /// Rounded half away from zero to the cent.
    public var averageCents: Int128? { balances == 0 ? nil : Balance.average(of: totalCents, count: balances) }
    public var averageAge: Double? { ages == 0 ? nil : Double(ageSum) / Double(ages) }

    /// Every company's figures, in one pass over the store.
    public static func all(in store: PeopleStore, grouped: GroupedPeople) -> [CompanySummary] {
        var summaries = grouped.sections.map {
            CompanySummary(companyID: $0.companyID, title: $0.title, headcount: 0, active: 0, totalCents: 0, balances: 0, ages: 0, ageSum: 0)
        }
        var index = [Int: Int]()
        for (offset, summary) in summaries.enumerated() { index[summary.companyID] = offset }
        for person in 0..<store.count {
            guard let offset = index[store.companyID(of: person)] else { continue }
            summaries[offset].headcount += 1
            if store.isActive(person) == true { summaries[offset].active += 1 }
            if let cents = store.balanceCents(of: person) {
                summaries[offset].totalCents += Int128(cents)
                summaries[offset].balances += 1
            }
            if let age = store.age(of: person) {
                summaries[offset].ages += 1
                summaries[offset].ageSum += age
            }
        }
        return summaries
    }
}

/// How the overview is ordered: `s` cycles, `S` reverses.
public struct CompanySortOrder: Equatable, Sendable {
    public enum Key: CaseIterable, Sendable {
        case name, headcount, totalBalance, averageAge
        var label: String {
            switch self {
            case .name: return "name"
            case .headcount: return "headcount"
            case .totalBalance: return "total balance"
            case .averageAge: return "average age"
            }
        }
    }

    public var key: Key = .name
    public var descending = false

    public init(_ key: Key = .name, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }

    public var label: String { key.label + (descending ? " ↓" : " ↑") }

    /// Orders summaries (given in A→Z order): by key, ties keep A→Z.
    func sorted(_ summaries: [CompanySummary]) -> [CompanySummary] {
        let ranked = summaries.enumerated().map { ($0.offset, $0.element) }
        return ranked.sorted { a, b in
            let order: Int
            switch key {
            case .name: order = a.0 < b.0 ? -1 : (a.0 > b.0 ? 1 : 0)
            case .headcount: order = compare(a.1.headcount, b.1.headcount)
            case .totalBalance: order = compare(a.1.totalCents, b.1.totalCents)
            case .averageAge: order = compare(a.1.averageAge ?? -1, b.1.averageAge ?? -1)
            }
            if order != 0 { return descending ? order > 0 : order < 0 }
            return a.0 < b.0
        }.map(\.1)
    }

    private func compare<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
}
