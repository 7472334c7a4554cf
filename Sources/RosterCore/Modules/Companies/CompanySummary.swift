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

    public init(companyID: Int, title: String, headcount: Int = 0, active: Int = 0, totalCents: Int128 = 0, balances: Int = 0,
                ages: Int = 0, ageSum: Int = 0) {
        self.companyID = companyID
        self.title = title
        self.headcount = headcount
        self.active = active
        self.totalCents = totalCents
        self.balances = balances
        self.ages = ages
        self.ageSum = ageSum
    }

    /// Rounded half away from zero to the cent.
    public var averageCents: Int128? { balances == 0 ? nil : Balance.average(of: totalCents, count: balances) }
    public var averageAge: Double? { ages == 0 ? nil : Double(ageSum) / Double(ages) }
}

/// How the overview is ordered: `s` cycles, `S` reverses.
public struct CompanySortOrder: Equatable, Sendable {
    public enum Key: CaseIterable, Sendable {
        case name, headcount, active, totalBalance, averageBalance, averageAge
        var label: String {
            switch self {
            case .name: return "name"
            case .headcount: return "headcount"
            case .totalBalance: return "total balance"
            case .active: return "active"
            case .averageBalance: return "average balance"
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

    /// What `s` turns to: the next key, a figure largest first (as in the
    /// counts by field), names A→Z.
    public var next: CompanySortOrder {
        let keys = Key.allCases
        let key = keys[((keys.firstIndex(of: key) ?? 0) + 1) % keys.count]
        return CompanySortOrder(key, descending: key != .name)
    }

    /// Orders summaries (given in A→Z order): by key, ties keep A→Z.
    func sorted(_ summaries: [CompanySummary]) -> [CompanySummary] {
        // By name is the order given, or its reverse: no comparisons.
        if key == .name { return descending ? summaries.reversed() : summaries }
        let ranked = summaries.enumerated().map { ($0.offset, $0.element) }
        return ranked.sorted { a, b in
            let order: Int
            switch key {
            case .name: order = a.0 < b.0 ? -1 : (a.0 > b.0 ? 1 : 0)
            case .headcount: order = compare(a.1.headcount, b.1.headcount)
            case .totalBalance: order = compare(a.1.totalCents, b.1.totalCents)
            case .active: order = compare(a.1.active, b.1.active)
            case .averageBalance: order = compareMissingFirst(a.1.averageCents, b.1.averageCents)
            case .averageAge: order = compare(a.1.averageAge ?? -1, b.1.averageAge ?? -1)
            }
            if order != 0 { return descending ? order > 0 : order < 0 }
            return a.0 < b.0
        }.map(\.1)
    }

    private func compare<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a > b ? 1 : 0) }

    /// A company with no readable balance has no average: it ranks lowest.
    private func compareMissingFirst<T: Comparable>(_ a: T?, _ b: T?) -> Int {
        switch (a, b) {
        case let (a?, b?): return compare(a, b)
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        }
    }

    /// The figure column this order sorts on (0 people … 4 average age), if any.
    public var figureColumn: Int? {
        switch key {
        case .name: return nil
        case .headcount: return 0
        case .active: return 1
        case .totalBalance: return 2
        case .averageBalance: return 3
        case .averageAge: return 4
        }
    }
}
