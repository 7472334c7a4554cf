/// The org chart screen: the tree of who reports to whom, opened at a
/// person with their chain of managers expanded, collapsible, searchable
/// (matches inside their chains). What each line says is `OrgChartLines`'.
@MainActor
public final class OrgChartPresenter: OrgChartModuleInterface {
    private weak var view: OrgChartViewInterface?
    private weak var wireframe: OrgChartWireframe?
    private var interactor: OrgChartInteractorInput
    /// The person the chart opens at (the list's selection).
    private let startingPerson: Int?
    /// Or the record's `_id` of the person it opens at (`T` on a person's screen).
    private let startingRecord: String?
    private var chart: OrgChart?
    /// Why there is no chart, said in its place.
    private var message: String?
    /// The rows shown: the whole chart's, or a search's.
    private var rows: OrgChartRows?
    /// The whole chart's rows, as left when a search replaced them.
    private var wholeChartRows: OrgChartRows?
    public private(set) var selectedRow = 0
    /// The search shown, nil for everyone.
    public private(set) var filter: String?
    /// The search shown matched no one: the chart says so in place of a
    /// lone `N not shown`.
    private var searchFoundNobody = false
    /// A search typed before the chart was read: run once it is.
    private var searchWhenRead: String?
    /// Searches asked for: only the latest one's answer is shown.
    private var searchesAsked = 0
    private var notice: String?

    public init(interactor: OrgChartInteractorInput, wireframe: OrgChartWireframe, startingAt person: Int?,
                record: String? = nil) {
        self.interactor = interactor
        self.wireframe = wireframe
        startingPerson = person
        startingRecord = record
    }

    public func attach(view: OrgChartViewInterface) {
        self.view = view
        show()
        interactor.loadChart { [weak self] load in self?.loaded(load) }
    }

    private func loaded(_ load: OrgChartLoad, at personID: Int? = nil) {
        switch load {
        case .loaded(let chart):
            self.chart = chart
            message = nil
            var rows = OrgChartRows(chart.tree.outline)
            let starting = (personID ?? startingPerson).flatMap { chart.people.person(withID: $0) }
                ?? (personID == nil ? startingRecord.flatMap { chart.people.person(recordID: $0) } : nil)
            selectedRow = starting.flatMap { rows.open(at: $0) } ?? 0
            self.rows = rows
        case .noManagers(let text), .unavailable(let text):
            (chart, rows, message) = (nil, nil, text)
        }
        show()
        if chart != nil, let search = searchWhenRead {
            searchWhenRead = nil
            self.search(search)
        }
    }

    /// Someone else changed the source: the chart is read again, at the
    /// person selected, the managers open kept open (a search on is made
    /// again over it), as a file's chart read again keeps them.
    public func reload() {
        // The managers open are kept by `_id`, the person selected by `PersonID` too (a row without one).
        let selectedID = chart.flatMap { chart in selectedPerson.map { chart.people.personID(of: $0) } }
        let kept = OrgChartKeptState(chart: chart, rows: wholeChartRows ?? rows, selected: selectedPerson, filter: filter)
        interactor.loadChart { [weak self] load in self?.reloaded(load, keeping: kept, selectedID: selectedID) }
    }

    /// The source changed (another program's write): the chart is read
    /// again through `interactor`, the selected person kept selected (under
    /// their new manager if they moved), the managers open kept open, the
    /// search kept, wherever those people still are.
    public func reload(from interactor: OrgChartInteractorInput) {
        self.interactor = interactor
        let kept = OrgChartKeptState(chart: chart, rows: wholeChartRows ?? rows, selected: selectedPerson, filter: filter)
        interactor.loadChart { [weak self] load in self?.reloaded(load, keeping: kept) }
    }

    private func reloaded(_ load: OrgChartLoad, keeping kept: OrgChartKeptState, selectedID: Int? = nil) {
        guard case .loaded(let chart) = load else {
            (chart, rows, wholeChartRows, filter) = (nil, nil, nil, nil)
            return loaded(load)
        }
        (self.chart, message) = (chart, nil)
        let (expanded, keptSelected) = kept.found(in: chart)
        let selected = keptSelected ?? selectedID.flatMap { chart.people.person(withID: $0) }
        var rows = OrgChartRows(chart.tree.outline) { position in chart.tree.outline.person(at: position).map(expanded.contains) ?? false }
        selectedRow = selected.flatMap { rows.open(at: $0) } ?? min(selectedRow, max(0, rows.count - 1))
        self.rows = rows
        (wholeChartRows, filter, notice) = (nil, nil, nil)
        if let search = kept.filter { return self.search(search) }
        show()
    }

    /// The person on the selected row, if it is a person's.
    public var selectedPerson: Int? { rows.flatMap { $0.count > 0 ? $0.row(selectedRow).person : nil } }

    // MARK: Moving

    public func move(by delta: Int) { select(selectedRow + delta) }
    public func moveToFirst() { select(0) }
    public func moveToLast() { select(Int.max / 2) }

    private func select(_ row: Int) {
        guard let rows else { return }
        selectedRow = max(0, min(row, rows.count - 1))
        show()
    }

    // MARK: Opening and closing

    public func expandOrEnter() {
        change { rows, selected in
            let row = rows.row(selected)
            if row.hasChildren, !row.isExpanded {
                rows.setExpanded(true, position: row.position)
            } else if let report = rows.firstReportRow(of: selected) {
                selected = report
            }
        }
    }

    public func collapseOrLeave() { closeOrGoUp(closingTheManager: false) }

    public func expand() {
        change { rows, selected in rows.setExpanded(true, position: rows.row(selected).position) }
    }

    public func collapse() { closeOrGoUp(closingTheManager: true) }

    /// Closes the selected manager when open; else goes to the person's
    /// manager (`-` closes that manager too).
    private func closeOrGoUp(closingTheManager: Bool) {
        change { rows, selected in
            let row = rows.row(selected)
            if row.hasChildren, row.isExpanded {
                rows.setExpanded(false, position: row.position)
            } else if let manager = rows.managerRow(of: selected) {
                if closingTheManager { rows.setExpanded(false, position: rows.row(manager).position) }
                selected = manager
            }
        }
    }

    public func toggle() {
        change { rows, selected in rows.toggle(row: selected) }
    }

    /// Runs `body` on the rows and the selection when there are rows.
    private func change(_ body: (inout OrgChartRows, inout Int) -> Void) {
        guard var rows, rows.count > 0 else { return }
        var selected = selectedRow
        self.rows = nil  // held uniquely while changed: no copy of a million rows' bookkeeping
        body(&rows, &selected)
        self.rows = rows
        selectedRow = max(0, min(selected, rows.count - 1))
        show()
    }

    // MARK: Searching

    public func search(_ query: String) {
        let text = query.trimmingCharacters(in: .whitespaces)
        // Typed a key at a time: an answer to an earlier key is not shown over a later one's.
        searchesAsked += 1
        guard !text.isEmpty else {
            searchWhenRead = nil
            return clearSearch()
        }
        if let error = SearchQuery(text).error {
            notice = error.describe(in: text)
            return show()
        }
        guard chart != nil else {
            // Still being read (a message in its place: there is nothing to search).
            if message == nil { searchWhenRead = text }
            return show()
        }
        let asked = searchesAsked
        interactor.matches(of: text) { [weak self] found in
            guard let self, self.searchesAsked == asked else { return }
            self.searched(text, found)
        }
    }

    private func searched(_ text: String, _ found: Result<[Int], RepositoryError>) {
        guard let chart, let current = rows else { return }
        switch found {
        case .failure(let error):
            notice = "search failed: \(error.reason)"
        case .success(let matchIDs):
            let matches = matchIDs.compactMap { chart.people.person(withID: $0) }
            let person = selectedPerson
            if filter == nil { wholeChartRows = current }
            let rows = OrgChartRows.openToMatches(chart.tree.searchOutline(matching: matches))
            filter = text
            searchFoundNobody = matches.isEmpty
            notice = matches.isEmpty ? "no one matches" : NumberText.count(matches.count, "match", "matches")
            // The person selected stays selected if they match; else the first match.
            let isMatch = { (row: Int) in rows.row(row).person != nil && !rows.row(row).isContext }
            selectedRow = person.flatMap { rows.rowIndex(of: $0) }.flatMap { isMatch($0) ? $0 : nil }
                ?? (0..<rows.count).first(where: isMatch) ?? 0
            self.rows = rows
        }
        show()
    }

    private func clearSearch() {
        guard filter != nil, var whole = wholeChartRows else { return }
        let person = selectedPerson
        selectedRow = person.flatMap { whole.open(at: $0) } ?? min(selectedRow, max(0, whole.count - 1))
        rows = whole
        wholeChartRows = nil
        filter = nil
        searchFoundNobody = false
        notice = nil
        show()
    }

    /// Back on the chart from a person's screen opened over it (`T` there):
    /// the person whose record's `_id` is `recordID` selected, their chain
    /// opened (the search cleared when it leaves them out).
    public func select(recordID: String) {
        guard let chart, let person = chart.people.person(recordID: recordID) else { return }
        if let row = rows?.rowIndex(of: person), rows?.row(row).isContext == false {
            selectedRow = row
        } else {
            clearSearch()
            selectedRow = rows?.open(at: person) ?? selectedRow
        }
        show()
    }

    public func clearSearchOrBack() {
        if filter != nil { clearSearch() } else { goBack() }
    }

    // MARK: Leaving

    public func openPerson() {
        guard let person = selectedPerson, let chart else { return }
        wireframe?.navigate(to: .person(chart.people.personID(of: person)))
    }

    public func goBack() { wireframe?.navigate(to: .back) }
    public func quit() { wireframe?.navigate(to: .quit) }

    // MARK: The view model

    private func show() {
        view?.show(makeViewModel())
    }

    public func makeViewModel() -> OrgChartViewModel {
        let source = interactor.sourceName
        guard let chart, let rows else {
            let waiting = searchWhenRead.map { "search '\(DisplayText.sanitized($0))' runs once the chart is read" }
            return OrgChartViewModel(sourceName: source, content: message.map { .message($0) } ?? .loading,
                                     notice: message == nil ? waiting ?? notice : nil)
        }
        let lines = OrgChartLines(chart: chart, rows: rows, isSearch: filter != nil)
        let tree = chart.tree
        let summary = "\(NumberText.count(tree.count, "person", "people")) · \(NumberText.grouped(tree.roots.count)) at the top"
        let problemCount = tree.problemCounts.values.reduce(0, +)
        let nobody = filter.flatMap { searchFoundNobody ? "No one matches '\(DisplayText.sanitized($0))': Esc shows everyone." : nil }
        return OrgChartViewModel(sourceName: source, content: .chart, problems: tree.problemSummary,
                                 problemsBrief: problemCount == 0 ? nil : NumberText.count(problemCount, "problem", "problems"),
                                 summary: summary,
                                 rowCount: nobody == nil ? rows.count : 0, selectedRow: selectedRow, filter: filter,
                                 notice: notice, emptyText: nobody, lines: { lines.lines($0) })
    }
}
