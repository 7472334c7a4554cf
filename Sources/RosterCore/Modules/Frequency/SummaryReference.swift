/// What a field's value is, written plainly over a `Person`: the meaning
/// every repository's counts keep (the store's one-pass count is tested
/// against it through the contract, and a fake repository counts this way).
extension SummaryField {
    /// The person's value of this field (companies go by the repository's
    /// company id, so they are not read here: `.missing`).
    public func value(of person: Person) -> SummaryValue {
        func text(_ value: String) -> SummaryValue { value.isEmpty ? .missing : .text(value) }
        switch self {
        case .company, .manager: return .missing
        case .city: return text(QueryCondition.addressParts(person.address).city)
        case .state: return text(QueryCondition.addressParts(person.address).state)
        case .text(let field): return text(person.text(field))
        case .active: return person.isActive.map(SummaryValue.active) ?? .missing
        case .ageBand: return person.age.map { .band(SummaryBands.ageBand(of: Int64($0))) } ?? .missing
        case .balanceBand: return person.balance.cents.map { .band(SummaryBands.balanceBand(of: $0)) } ?? .missing
        }
    }

    /// The query language's field for a text value (nil: not text).
    public var textScope: TextScope? {
        switch self {
        case .company, .active, .ageBand, .balanceBand, .manager: return nil
        case .city: return .city
        case .state: return .state
        case .text(let field): return TextScope(field: field)
        }
    }

    /// What a text value is counted by: its bytes folded as `field=value`
    /// folds them, so that a row's term lists exactly its people.
    public func foldedKey(_ text: String) -> [UInt8]? {
        textScope.map { QueryCondition.exactNeedle(text, in: $0) }
    }

    /// How a row names `value` ("30–39", "$1,000–$1,999.99", "yes", "(none)").
    public func title(of value: SummaryValue) -> String {
        switch value {
        case .company(let id): return "company \(id)"
        case .text(let text): return text
        case .active(let flag): return flag ? "yes" : "no"
        case .band(let band): return self == .ageBand ? SummaryBands.ageTitle(band) : SummaryBands.balanceTitle(band)
        case .missing: return ValueSummary.missingTitle
        }
    }
}

extension ValueSummary {
    /// The figures of `people` per value of `field` (not `.company`), the
    /// plain way, in `ordered`'s order. Text values that fold alike are one
    /// value (`SummaryField.foldedKey`), named by their commonest spelling.
    public static func counted(_ people: [Person], by field: SummaryField) -> [ValueSummary] {
        var byValue: [SummaryValue: ValueSummary] = [:]
        var spellings: [SummaryValue: [String: Int]] = [:]
        for person in people {
            var value = field.value(of: person)
            if case .text(let text) = value, let key = field.foldedKey(text) {
                value = .text(String(decoding: key, as: UTF8.self))
                spellings[value, default: [:]][text, default: 0] += 1
            }
            var summary = byValue[value] ?? ValueSummary(value: value, title: "")
            summary.headcount += 1
            if let cents = person.balance.cents {
                summary.totalCents += Int128(cents)
                summary.balances += 1
            }
            byValue[value] = summary
        }
        let summaries = byValue.map { value, summary in
            var summary = summary
            if let counts = spellings[value] {
                let spelling = counts.max { a, b in preferred(b.key, b.value, over: a.key, a.value) }?.key ?? ""
                summary.value = .text(spelling)
            }
            summary.title = field.title(of: summary.value)
            return summary
        }
        return ordered(summaries)
    }

    /// `summaries` counted by each spelling as stored (a store's tally, an
    /// SQL `GROUP BY`), with the text values that fold alike
    /// (`SummaryField.foldedKey`) merged into one row named by the
    /// `preferred` spelling; other rows as they are. Folding once per
    /// distinct spelling keeps the per-person count to a hash.
    public static func mergingSpellings(_ summaries: [ValueSummary], of field: SummaryField) -> [ValueSummary] {
        var merged: [ValueSummary] = []
        var rowOfKey: [[UInt8]: (row: Int, count: Int)] = [:]
        for summary in summaries {
            guard case .text(let spelling) = summary.value, let key = field.foldedKey(spelling) else {
                merged.append(summary)
                continue
            }
            guard let (row, count) = rowOfKey[key] else {
                rowOfKey[key] = (merged.count, summary.headcount)
                merged.append(summary)
                continue
            }
            guard case .text(let chosen) = merged[row].value else { continue }
            if preferred(spelling, summary.headcount, over: chosen, count) {
                merged[row].value = summary.value
                merged[row].title = summary.title
                rowOfKey[key] = (row, summary.headcount)
            }
            merged[row].headcount += summary.headcount
            merged[row].totalCents += summary.totalCents
            merged[row].balances += summary.balances
        }
        return merged
    }

    /// Which spelling names a text value: the one most of its people
    /// have, so the row reads as the data mostly does ("Kansas", not the
    /// odd "KANSAS"); at a tie the first in byte order, so that every
    /// source picks the same one whatever order it reads people in.
    public static func preferred(_ spelling: String, _ count: Int, over other: String, _ otherCount: Int) -> Bool {
        count != otherCount ? count > otherCount : Array(spelling.utf8).lexicographicallyPrecedes(Array(other.utf8))
    }
}
