/// What a field's value is, written plainly over a `Person`: the meaning
/// every repository's counts keep (the store's one-pass count is tested
/// against it through the contract, and a fake repository counts this way).
extension SummaryField {
    /// The person's value of this field (companies go by the repository's
    /// company id, so they are not read here: `.missing`).
    public func value(of person: Person) -> SummaryValue {
        func text(_ value: String) -> SummaryValue { value.isEmpty ? .missing : .text(value) }
        switch self {
        case .company: return .missing
        case .city: return text(QueryCondition.addressParts(person.address).city)
        case .state: return text(QueryCondition.addressParts(person.address).state)
        case .eyeColor: return text(person.eyeColor)
        case .favoriteFruit: return text(person.favoriteFruit)
        case .active: return person.isActive.map(SummaryValue.active) ?? .missing
        case .ageBand: return person.age.map { .band(SummaryBands.ageBand(of: Int64($0))) } ?? .missing
        case .balanceBand: return person.balance.cents.map { .band(SummaryBands.balanceBand(of: $0)) } ?? .missing
        }
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
    /// plain way, in `ordered`'s order.
    public static func counted(_ people: [Person], by field: SummaryField) -> [ValueSummary] {
        var byValue: [SummaryValue: ValueSummary] = [:]
        for person in people {
            let value = field.value(of: person)
            var summary = byValue[value] ?? ValueSummary(value: value, title: field.title(of: value))
            summary.headcount += 1
            if let cents = person.balance.cents {
                summary.totalCents += Int128(cents)
                summary.balances += 1
            }
            byValue[value] = summary
        }
        return ordered(Array(byValue.values))
    }
}
