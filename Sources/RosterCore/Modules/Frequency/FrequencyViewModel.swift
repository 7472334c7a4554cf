/// The frequency view, worded and ready to draw.
public struct FrequencyViewModel: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var title: String
        public var headcount: String
        public var share: String
        public var total: String
        public var average: String
        /// The headcount as a number, for the bar.
        public var count: Int
    }

    public var sourceName: String
    /// "eye colour": what the rows are values of.
    public var fieldLabel: String
    /// "1,234 of 5,000 people matching 'acme'" (the position, "1/3",
    /// says how many values).
    public var summary: String
    public var rows: [Row]
    /// The largest headcount: a full bar.
    public var largestCount: Int
    public var selectedRow: Int?
    /// What the database said last, for the `?` help (nil: nothing failed).
    public var problemDetail: String? = nil
    public var position: String
    public var sortLabel: String
    /// The figure column sorted on (0 people … 3 average): never dropped.
    public var sortedColumn: Int?
    /// Whether that order (or the names', when `sortedColumn` is nil) runs
    /// high to low: the header marks the column `↓`, else `↑`.
    public var sortDescending = false
    /// The search the figures are narrowed by, if any ("acme").
    public var filter: String?
    /// Why the last key did nothing, until the next one.
    public var notice: String?
    /// Changes whenever `rows` does (0: not said), so that a view measures
    /// thousands of rows once, not on every key.
    public var rowsVersion = 0
    /// What the screen says when there are no rows.
    public var emptyMessage = "Nobody to count."
    /// Whether `rows` are the count asked for: `.loading` while it is
    /// counted, `.failed` with why when it could not be (the rows are then
    /// none, never figures made up or left over from before).
    public var figures: LoadState = .loaded
}

/// How the frequency view is ordered: `s` cycles (figures largest first,
/// as VisiData's frequency sheet; values in their own order), `S` reverses.
public struct ValueSortOrder: Equatable, Sendable {
    public enum Key: CaseIterable, Sendable {
        case value, headcount, totalBalance, averageBalance
        var label: String {
            switch self {
            case .value: return "value"
            case .headcount: return "headcount"
            case .totalBalance: return "total balance"
            case .averageBalance: return "average balance"
            }
        }
    }

    public var key: Key
    public var descending: Bool

    public init(_ key: Key = .value, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }

    public var label: String { key.label + (descending ? " ↓" : " ↑") }

    /// What `s` turns to: the next key, a figure largest first, the values
    /// in their own order.
    public var next: ValueSortOrder {
        let keys = Key.allCases
        let key = keys[((keys.firstIndex(of: key) ?? 0) + 1) % keys.count]
        return ValueSortOrder(key, descending: key != .value)
    }

    /// Orders summaries (given in the field's own order): by key, ties
    /// keep that order; a value without an average ranks lowest. The
    /// "(none)" row stays last in every order, as in the field's own.
    func sorted(_ summaries: [ValueSummary]) -> [ValueSummary] {
        func compare<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
        return summaries.enumerated().sorted { a, b in
            let aMissing = a.element.value == .missing, bMissing = b.element.value == .missing
            if aMissing != bMissing { return bMissing }
            let order: Int
            switch key {
            case .value: order = compare(a.offset, b.offset)
            case .headcount: order = compare(a.element.headcount, b.element.headcount)
            case .totalBalance: order = compare(a.element.totalCents, b.element.totalCents)
            case .averageBalance:
                order = compare(a.element.averageCents ?? Int128.min, b.element.averageCents ?? Int128.min)
            }
            if order != 0 { return descending ? order > 0 : order < 0 }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The figure column this order sorts on (0 people … 3 average), if any.
    public var figureColumn: Int? {
        switch key {
        case .value: return nil
        case .headcount: return 0
        case .totalBalance: return 2
        case .averageBalance: return 3
        }
    }
}
