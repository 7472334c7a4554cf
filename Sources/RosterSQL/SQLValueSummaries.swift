import RosterCore

/// Counts by field (`F`) in SQL: one `GROUP BY` over the people shown, on a
/// key from which Swift reads the value (`SummaryField.value(of:)`'s
/// meaning): the address part as `city:` cuts it, the text as stored (its
/// spellings merged in Swift, `ValueSummary.mergingSpellings`), the
/// age itself (few values: bands are made here), a balance's band's lower
/// end (so that a million balances are a couple of dozen groups). Sums are
/// exact, in two 32-bit halves as the summary table's.
struct SQLValueSummaries {
    let table: PeopleTable

    /// The grouping key of `field` (not `.company`).
    func key(of field: SummaryField) -> String {
        if let recorded = field.recordField { return PeopleTable.column(of: recorded) }
        switch field {
        case .company: return "company_key"
        case .city: return table.dialect.addressPart(.city)
        case .state: return table.dialect.addressPart(.state)
        case .active: return "is_active"
        case .ageBand: return "age"
        case .balanceBand:
            // Below zero, then by $1,000 to $10,000, then by powers of ten.
            var cases = ["WHEN balance_cents IS NULL THEN NULL", "WHEN balance_cents < 0 THEN -1", "WHEN balance_cents < 1000000 THEN balance_cents / 100000 * 100000"]
            var low: Int64 = 1_000_000
            while low <= Int64.max / 10 {
                cases.append("WHEN balance_cents < \(low * 10) THEN \(low)")
                low *= 10
            }
            return "CASE " + cases.joined(separator: " ") + " ELSE \(low) END"
        // A field as the record has it (`recordField`), answered above.
        default: preconditionFailure("\(field) has no grouping key")
        }
    }

    func query(_ field: SummaryField, where condition: String) -> String {
        """
        SELECT \(key(of: field)), count(*), count(balance_cents), coalesce(sum(balance_cents >> 32), 0), \
        coalesce(sum(balance_cents & 4294967295), 0) FROM \(table.table) WHERE \(condition) GROUP BY 1
        """
    }

    /// The summaries from the grouped rows, merged by value, in order.
    func summaries(_ field: SummaryField, rows: [SQLRow]) -> [ValueSummary] {
        var byValue: [SummaryValue: ValueSummary] = [:]
        for row in rows {
            let value = self.value(field, row)
            var summary = byValue[value] ?? ValueSummary(value: value, title: field.title(of: value))
            summary.headcount += Int(row.int(1) ?? 0)
            summary.balances += Int(row.int(2) ?? 0)
            summary.totalCents += ((row.int128(3) ?? 0) << 32) + (row.int128(4) ?? 0)
            byValue[value] = summary
        }
        // Grouped by the text as stored: spellings that fold alike
        // (`state=` compares them so) become one row, as the file source's.
        return ValueSummary.ordered(ValueSummary.mergingSpellings(Array(byValue.values), of: field))
    }

    private func value(_ field: SummaryField, _ row: SQLRow) -> SummaryValue {
        switch field {
        case .active:
            return row.bool(0).map(SummaryValue.active) ?? .missing
        case .ageBand:
            return row.int(0).map { .band(SummaryBands.ageBand(of: $0)) } ?? .missing
        case .balanceBand:
            return row.int(0).map { .band(SummaryBands.balanceBand(of: $0)) } ?? .missing
        default:
            // Text: the company's key, an address part, a recorded field.
            guard let text = row.text(0), !text.isEmpty else { return .missing }
            return .text(text)
        }
    }
}
