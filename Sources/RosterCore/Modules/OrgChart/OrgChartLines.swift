/// What each line of the org chart says: a person's name and email, a
/// manager's team and organisation sizes, and why a person at the top is
/// there when that is a problem (a manager not here, a loop).
public struct OrgChartLines: Sendable {
    let chart: OrgChart
    let rows: OrgChartRows
    /// A search's chart: the counts are of matches.
    let isSearch: Bool

    public init(chart: OrgChart, rows: OrgChartRows, isSearch: Bool) {
        self.chart = chart
        self.rows = rows
        self.isSearch = isSearch
    }

    /// The lines `range` of the rows (clamped to them).
    public func lines(_ range: Range<Int>) -> [OrgChartLine] {
        rows.rows(range).map(line)
    }

    func line(_ row: OrgChartRow) -> OrgChartLine {
        let marker: OrgChartLine.Marker = row.hasChildren ? (row.isExpanded ? .expanded : .collapsed) : .none
        switch row.entry {
        case .notShown(let hidden):
            return OrgChartLine(depth: row.depth, marker: .none, text: "\(NumberText.grouped(hidden)) not shown", email: "",
                                counts: "", problem: nil, isContext: true, isNotShown: true)
        case .person(let person):
            return OrgChartLine(depth: row.depth, marker: marker, text: DisplayText.sanitized(chart.people.name(of: person)),
                                email: DisplayText.sanitized(chart.people.email(of: person)), counts: counts(row),
                                problem: chart.tree.problem(of: person), isContext: row.isContext,
                                isNotShown: false)
        }
    }

    /// "3 reports · 12 in all" (a search's: "2 matching · 5 in all").
    private func counts(_ row: OrgChartRow) -> String {
        guard row.teamSize > 0 || row.organisationSize > 0 else { return "" }
        let team = isSearch
            ? "\(NumberText.grouped(row.teamSize)) matching"
            : NumberText.count(row.teamSize, "report", "reports")
        return "\(team) · \(NumberText.grouped(row.organisationSize)) in all"
    }
}
