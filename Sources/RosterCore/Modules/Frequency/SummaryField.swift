/// A field the frequency view (`F`) counts people by: one row per value.
public enum SummaryField: Hashable, Sendable, CaseIterable {
    case company, city, state
    /// A text field counted as the record spells it: those the table of
    /// fields gives a `countLabel` (eye colour, fruit).
    case text(TextField)
    case active, ageBand, balanceBand
    /// Who each person reports to (the org chart's manager): the rows are
    /// team sizes, counted from the chart (`ManagerCounts`), not by the
    /// repository.
    case manager

    /// In `f`'s cycle: the company, the address's parts, the counted text
    /// fields in `TextField`'s order, the figures, then the manager (`F`
    /// from the company goes to it).
    public static let allCases: [SummaryField] = [.company, .city, .state]
        + TextField.allCases.filter { $0.countLabel != nil }.map(SummaryField.text) + [.active, .ageBand, .balanceBand, .manager]

    /// The fields a repository counts (`valueSummaries`): all but the
    /// manager, whose counts come from the org chart.
    public static let countedByRepositories: [SummaryField] = allCases.filter { $0 != .manager }

    /// How titles and the status bar name it ("eye colour").
    public var label: String {
        switch self {
        case .company: return "company"
        case .city: return "city"
        case .state: return "state"
        case .text(let field): return field.countLabel ?? field.label.lowercased()
        case .active: return "active"
        case .ageBand: return "age band"
        case .balanceBand: return "balance band"
        case .manager: return "manager"
        }
    }

    /// The record's field counted as the record spells it; nil for the
    /// company (counted by its key), the address's parts and the figures.
    public var recordField: TextField? {
        if case .text(let field) = self { return field }
        return nil
    }

    /// The field the list's sort key is about (`F` opens on it): a band for
    /// age and balance; names have no field worth counting, so company.
    public static func matching(_ sort: SortOrder.Key) -> SummaryField {
        switch sort {
        case .age: return .ageBand
        case .balance: return .balanceBand
        case .active: return .active
        case .city: return .city
        case .state: return .state
        default:
            // A counted text field counts by itself; names, contacts and ids have no field worth counting.
            guard let field = sort.recordField, field.countLabel != nil else { return .company }
            return .text(field)
        }
    }

    /// The next field in `f`'s cycle (`by: -1`, `F`: the previous one).
    public func cycled(by step: Int) -> SummaryField {
        let fields = Self.allCases
        let index = fields.firstIndex(of: self) ?? 0
        return fields[((index + step) % fields.count + fields.count) % fields.count]
    }
}

/// One value of a `SummaryField`: what a row of the frequency view stands for.
public enum SummaryValue: Hashable, Sendable {
    case company(Int)
    /// City, state (the address's parts, spaces trimmed), eye colour or
    /// fruit, exactly as the file has it.
    case text(String)
    case active(Bool)
    /// An age band (years) or a balance band (cents), both ends included.
    case band(ClosedRange<Int64>)
    /// No value: no address part, no recorded age, activity or readable
    /// balance, or empty text. Counted, in a "(none)" row of its own.
    case missing
}

/// The figures of the people with one value of a field: exact sums.
public struct ValueSummary: Sendable, Equatable {
    public var value: SummaryValue
    /// How the row names the value ("30–39", "$1,000–$1,999.99", "(none)").
    public var title: String
    public var headcount: Int
    /// Sum of the balances that could be read, in cents (exact in 128 bits).
    public var totalCents: Int128
    /// People with a readable balance.
    public var balances: Int

    public init(value: SummaryValue, title: String, headcount: Int = 0, totalCents: Int128 = 0, balances: Int = 0) {
        self.value = value
        self.title = title
        self.headcount = headcount
        self.totalCents = totalCents
        self.balances = balances
    }

    /// Rounded half away from zero to the cent, as the company overview does.
    public var averageCents: Int128? { balances == 0 ? nil : Balance.average(of: totalCents, count: balances) }

    public static let missingTitle = "(none)"

    /// A company's row, from the company overview's figures.
    public init(_ company: CompanySummary) {
        self.init(value: .company(company.companyID), title: company.title, headcount: company.headcount,
                  totalCents: company.totalCents, balances: company.balances)
    }
}

extension ValueSummary {
    /// The order every repository returns a field's values in (companies
    /// excepted: they come in the company overview's order): text by its
    /// folded form (case and accents ignored), then its bytes; yes before
    /// no; bands low to high; "(none)" last.
    public static func ordered(_ summaries: [ValueSummary]) -> [ValueSummary] {
        summaries.map { (key: SortKey($0.value), summary: $0) }.sorted { $0.key < $1.key }.map(\.summary)
    }

    private struct SortKey: Comparable {
        let group: Int
        let folded: [UInt8]
        let raw: [UInt8]
        let number: Int64

        init(_ value: SummaryValue) {
            switch value {
            case .company(let id): (group, folded, raw, number) = (0, [], [], Int64(id))
            case .text(let text): (group, folded, raw, number) = (0, TextFolding.foldedBytes(text), Array(text.utf8), 0)
            case .active(let flag): (group, folded, raw, number) = (0, [], [], flag ? 0 : 1)
            case .band(let range): (group, folded, raw, number) = (0, [], [], range.lowerBound)
            case .missing: (group, folded, raw, number) = (1, [], [], 0)
            }
        }

        static func < (a: SortKey, b: SortKey) -> Bool {
            if a.group != b.group { return a.group < b.group }
            if a.folded != b.folded { return a.folded.lexicographicallyPrecedes(b.folded) }
            if a.raw != b.raw { return a.raw.lexicographicallyPrecedes(b.raw) }
            return a.number < b.number
        }
    }
}
