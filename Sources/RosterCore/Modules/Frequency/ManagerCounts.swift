/// `F`'s counts by manager: how many of the people shown report to each
/// manager (their team, or span of control), read from the org chart, not
/// the repository (a file's managers are not kept in memory).
public enum ManagerCounts {
    /// One row per manager of someone among `people` (`PersonID` raw
    /// values), in the managers' names' order, then a
    /// "(none)" row for those at the top. A row's value is how a query
    /// names the manager: their `_id`, else their email, else their name.
    /// No balances are summed: the rows' figures are headcounts.
    public static func summaries(of people: [Int], in chart: OrgChart) -> [ValueSummary] {
        let managers = chart.tree.managers
        var teams: [Int32: Int] = [:]
        var atTheTop = 0
        for id in people {
            guard let person = chart.people.person(withID: id), managers.indices.contains(person) else { continue }
            let manager = managers[person]
            if manager < 0 { atTheTop += 1 } else { teams[manager, default: 0] += 1 }
        }
        let rows = teams.map { manager, headcount in
            let person = Int(manager)
            let name = DisplayText.sanitized(chart.people.name(of: person))
            return (key: TextFolding.foldedBytes(name), row: ValueSummary(value: .text(reference(to: person, in: chart.people)),
                                                                         title: name.isEmpty ? "(no name)" : name,
                                                                         headcount: headcount))
        }.sorted { a, b in
            a.key != b.key ? a.key.lexicographicallyPrecedes(b.key) : a.row.value.textValue < b.row.value.textValue
        }.map(\.row)
        return rows + (atTheTop == 0 ? [] : [ValueSummary(value: .missing, title: ValueSummary.missingTitle, headcount: atTheTop)])
    }

    /// How the query language names `person`: their `_id`, their email, or their name.
    static func reference(to person: Int, in people: any OrgChartPeople) -> String {
        for reference in [people.recordID(of: person), people.email(of: person), people.name(of: person)] where !reference.isEmpty {
            return reference
        }
        return ""
    }

    /// The query term for the people who report to the manager `reference`
    /// names: `reports-to:ID`, quoted when it is more than one plain word
    /// (`reports-to:"Ada Lovelace"`); nil when no term can spell it.
    public static func term(for reference: String) -> String? {
        guard !reference.isEmpty, !reference.contains("\"") else { return nil }
        let plain = reference.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.@+".unicodeScalars.contains(scalar))
        }
        return plain ? "reports-to:\(reference)" : "reports-to:\"\(reference)\""
    }
}

extension SummaryValue {
    /// The text of a text value; empty for any other.
    fileprivate var textValue: String {
        if case .text(let text) = self { return text }
        return ""
    }
}
