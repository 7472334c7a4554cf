/// The bands that ages and balances are counted in.
///
/// Ages by decade (20–29, 30–39 …). Balances by $1,000 up to $10,000,
/// then by powers of ten ($10,000–$99,999.99, $100,000–$999,999.99 …):
/// everyday balances (a few thousand dollars) spread over a readable
/// handful of rows, while a file with wild amounts still gives at most a
/// couple of dozen rows, never one per thousand dollars up to 2^63 cents.
/// Anything below zero is one band of its own.
public enum SummaryBands {
    static let below = Int64.min...(-1)

    public static func ageBand(of years: Int64) -> ClosedRange<Int64> {
        guard years >= 0 else { return below }
        let low = years / 10 * 10
        return low...(low + 9)
    }

    public static func balanceBand(of cents: Int64) -> ClosedRange<Int64> {
        guard cents >= 0 else { return below }
        if cents < 1_000_000 {
            let low = cents / 100_000 * 100_000
            return low...(low + 99_999)
        }
        var low: Int64 = 1_000_000
        while low <= Int64.max / 10, cents >= low * 10 { low *= 10 }
        return low...(low <= Int64.max / 10 ? low * 10 - 1 : Int64.max)
    }

    /// "30–39", "below 0".
    public static func ageTitle(_ band: ClosedRange<Int64>) -> String {
        band.lowerBound < 0 ? "below 0" : "\(band.lowerBound)–\(band.upperBound)"
    }

    /// "$1,000–$1,999.99", "below $0", "$10,000,000,000,000,000 and over".
    public static func balanceTitle(_ band: ClosedRange<Int64>) -> String {
        if band.lowerBound < 0 { return "below $0" }
        if band.upperBound == Int64.max { return "\(wholeDollars(band.lowerBound)) and over" }
        return "\(wholeDollars(band.lowerBound))–\(Balance.format(cents: band.upperBound))"
    }

    /// A band's lower end is whole dollars: "$1,000", not "$1,000.00".
    private static func wholeDollars(_ cents: Int64) -> String {
        let text = Balance.format(cents: cents)
        return text.hasSuffix(".00") ? String(text.dropLast(3)) : text
    }

    /// The query term that selects exactly this age band (`age:30-39`);
    /// nil past what the query language reads (nine digits of years).
    public static func ageTerm(_ band: ClosedRange<Int64>) -> String? {
        if band.lowerBound < 0 { return "age<0" }
        guard band.upperBound <= 999_999_999 else { return band.lowerBound <= 999_999_999 ? "age>=\(band.lowerBound)" : nil }
        return "age:\(band.lowerBound)-\(band.upperBound)"
    }

    /// The query term that selects exactly this balance band
    /// (`balance:1000-1999.99`, in dollars without grouping commas).
    public static func balanceTerm(_ band: ClosedRange<Int64>) -> String {
        if band.lowerBound < 0 { return "balance<0" }
        if band.upperBound == Int64.max { return "balance>=\(dollars(band.lowerBound))" }
        return "balance:\(dollars(band.lowerBound))-\(dollars(band.upperBound))"
    }

    /// 199999 → "1999.99"; 100000 → "1000".
    static func dollars(_ cents: Int64) -> String {
        let fraction = cents % 100
        return fraction == 0 ? "\(cents / 100)" : "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

extension SummaryField {
    /// The query term that lists exactly the people counted with `value`,
    /// for every source alike: `state="Kansas"` (the whole value, ignoring
    /// case and accents, as the counts group it: not Arkansas), `state=`
    /// for "(none)". Nil for a company (it goes by its id instead) and for
    /// text the language cannot spell: a double quote with a space (a
    /// phrase has no escape), or a word starting with a quote.
    public func queryTerm(for value: SummaryValue) -> String? {
        switch (self, value) {
        case (.company, _): return nil
        case (.manager, .text(let reference)): return ManagerCounts.term(for: reference)
        // "(none)" counts the people at the top of the chart: no manager, or none that counts (not here, a loop).
        case (.manager, .missing): return "depth=0"
        case (.manager, _): return nil
        case (.active, .active(let flag)): return flag ? "active:yes" : "active:no"
        case (.ageBand, .band(let band)): return SummaryBands.ageTerm(band)
        case (.balanceBand, .band(let band)): return SummaryBands.balanceTerm(band)
        case (_, .missing): return "\(queryName)="
        case (_, .text(let text)):
            if !text.contains("\"") { return "\(queryName)=\"\(text)\"" }
            guard !text.hasPrefix("\""), !text.contains(where: \.isWhitespace) else { return nil }
            return "\(queryName)=\(text)"
        default: return nil
        }
    }

    /// The query language's name for the field.
    var queryName: String {
        let field: QueryParser.Field
        switch self {
        case .company: field = .text(.company)
        case .active: field = .active
        case .ageBand: field = .number(.age)
        case .balanceBand: field = .number(.balance)
        default: field = .text(textScope ?? .anywhere)
        }
        return QueryParser.fieldNames.first { $0.1 == field }?.0.first ?? label
    }
}
