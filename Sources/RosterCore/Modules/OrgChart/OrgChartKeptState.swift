/// What the org chart screen keeps when its chart is read again: who was
/// selected and which managers were open, by their records' `_id`s (people
/// are numbered afresh by each reading), and the search shown.
struct OrgChartKeptState {
    let selectedRecord: String?
    let expandedRecords: Set<String>
    let filter: String?

    /// The state of `rows` of `chart` (the whole chart's rows under a search).
    init(chart: OrgChart?, rows: OrgChartRows?, selected: Int?, filter: String?) {
        self.filter = filter
        guard let chart, let rows else {
            (selectedRecord, expandedRecords) = (nil, [])
            return
        }
        selectedRecord = selected.map { chart.people.recordID(of: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        var expanded = Set<String>()
        for position in 0..<rows.outline.count where rows.isExpanded(position: position) {
            if let person = rows.outline.person(at: position) { expanded.insert(chart.people.recordID(of: person)) }
        }
        expanded.remove("")
        expandedRecords = expanded
    }

    /// The people of `chart` these records are now: the managers to open, the person to select.
    func found(in chart: OrgChart) -> (expanded: Set<Int>, selected: Int?) {
        let selected = selectedRecord.flatMap { chart.people.person(recordID: $0) }
        // Finding one `_id` may be a pass over everyone's: past a few, one pass finds them all.
        guard expandedRecords.count > 8 else { return (Set(expandedRecords.compactMap { chart.people.person(recordID: $0) }), selected) }
        var expanded = Set<Int>()
        for person in 0..<chart.tree.count where expandedRecords.contains(chart.people.recordID(of: person)) { expanded.insert(person) }
        return (expanded, selected)
    }
}
