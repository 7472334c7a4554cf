import Foundation

/// One row per company with headcount, active people, total and average
/// balance (exact cents) and average age; sortable; Enter opens a company.
@MainActor
public final class CompaniesPresenter: CompaniesModuleInterface {
    private weak var view: CompaniesViewInterface?
    private weak var wireframe: CompaniesWireframe?
    private let interactor: SummaryInteractorInput
    private var summariesAToZ: [CompanySummary]
    private var summaries: [CompanySummary] = [] {
        didSet { rowsVersion += 1 }
    }
    /// Counts the changes of `summaries`: the view measures the columns
    /// once per change, not on every key (70,000 companies).
    private var rowsVersion = 1
    /// The search the people list is narrowed by: the overview counts only
    /// its matches, and says so.
    public private(set) var filter: String?
    private var peopleCounted: Int
    /// Companies with anyone in them, whatever the filter.
    private let companiesInAll: Int
    public private(set) var sortOrder = CompanySortOrder()
    public private(set) var selection = 0
    /// What `r` or a command said, until the next key.
    var notice: String?
    /// What the overview counts: the people list's rows.
    private var shown: PeopleArrangement
    private let counting: BackgroundCount

    /// `grouped` is what the people list shows (a search's matches, or
    /// everyone); `selectedCompany` is where the user was; `interactor` counts
    /// a source that may wait (by default, at once).
    public init(interactor: SummaryInteractorInput, shown: PeopleArrangement, filter: String? = nil, selectedCompany: Int? = nil,
                wireframe: CompaniesWireframe) {
        self.interactor = interactor
        summariesAToZ = []
        summaries = []
        self.filter = filter
        peopleCounted = shown.count
        self.shown = shown
        companiesInAll = interactor.companiesWithPeople
        self.wireframe = wireframe
        counting = BackgroundCount(interactor: interactor)
        count(keeping: selectedCompany)
    }

    /// The people list's filter changed: count again, keeping the selected
    /// company selected when it is still there.
    public func update(shown: PeopleArrangement, filter: String?) {
        let selected = summaries.isEmpty ? nil : summaries[selection].companyID
        self.filter = filter
        peopleCounted = shown.count
        self.shown = shown
        count(keeping: selected)
        render()
    }

    /// Counts `shown` (off the main actor where the source may wait) and
    /// shows the counts when they come, on `selected` when it is there.
    private func count(keeping selected: Int?, retrying: Bool = false) {
        counting.count(retrying: retrying, { interactor.companySummaries(in: shown, then: $0) }, again: { [weak self] in
            self?.count(keeping: selected, retrying: true)
            self?.render()
        }) { [weak self] counted in
            guard let self else { return }
            let selected = selected ?? (self.summaries.isEmpty ? nil : self.summaries[self.selection].companyID)
            self.summariesAToZ = counted
            self.summaries = self.sortOrder.sorted(counted)
            self.selection = selected.flatMap { id in self.summaries.firstIndex { $0.companyID == id } } ?? 0
            self.render()
        }
    }

    /// True while the counts shown are not of what the list shows yet.
    public var isCounting: Bool { counting.isCounting }

    /// `r`: connects again and counts again what the list shows.
    public func reconnect() {
        notice = Reconnection.inProgress
        render()
        interactor.reconnect { [weak self] said, reconnected in
            guard let self else { return }
            if reconnected { self.update(shown: self.shown, filter: self.filter) }
            self.notice = said
            self.render()
        }
    }

    public func attach(view: CompaniesViewInterface) {
        self.view = view
        render()
    }

    public func moveSelection(by delta: Int) {
        notice = nil
        guard !summaries.isEmpty else { return }
        selection = min(max(selection + delta, 0), summaries.count - 1)
        render()
    }

    public func selectFirst() { moveSelection(by: -selection) }
    public func selectLast() { moveSelection(by: summaries.count) }

    public func cycleSortOrder() { resort(sortOrder.next) }

    public func reverseSortOrder() {
        resort(CompanySortOrder(sortOrder.key, descending: !sortOrder.descending))
    }

    public func openSelected() {
        guard !summaries.isEmpty else { return }
        wireframe?.navigate(to: .people(companyID: summaries[selection].companyID))
    }

    public func openCommandLine() { wireframe?.navigate(to: .commandLine) }

    public func endMessage() { endNotice() }

    /// A command typed at `:` (`TableCommand`).
    public func run(_ command: ListCommand) { TableCommand.run(command, on: self) }

    public func goBack() { wireframe?.navigate(to: .back) }
    public func clearFilter() { wireframe?.navigate(to: .clearFilter) }
    public func quit() { wireframe?.navigate(to: .quit) }

    /// A new order starts at its top: sorting is asking what comes first
    /// (kept on its company, the selection scrolled the largest ones off
    /// the screen with no sign of them).
    private func resort(_ order: CompanySortOrder) {
        sortOrder = order
        summaries = order.sorted(summariesAToZ)
        selection = 0
        render()
    }

    /// The rows that are companies: "No company" is the people without one.
    private var companyCount: Int { summaries.filter { interactor.isCompany($0.companyID) }.count }

    public func makeViewModel() -> CompaniesViewModel {
        let rows = CompaniesViewModel.Rows(summaries)
        var summary = filter == nil
            ? NumberText.count(companyCount, "company", "companies")
            : "\(NumberText.grouped(peopleCounted)) of \(NumberText.count(interactor.personCount, "person", "people")) · "
                + "\(NumberText.grouped(companyCount)) of \(NumberText.count(companiesInAll, "company", "companies"))"
        // "No company" is a row but no company: the title names its people,
        // and the position, counting it, says it counts rows.
        let withoutCompany = summaries.first { !interactor.isCompany($0.companyID) }
        if let withoutCompany { summary += " · \(NumberText.grouped(withoutCompany.headcount)) with no company" }
        summary = counting.summary(summary)
        var model = CompaniesViewModel(
            sourceName: interactor.titleName,
            summary: summary,
            rows: rows,
            selectedRow: rows.isEmpty ? nil : selection,
            position: counting.position(selection, of: rows.count) + (withoutCompany == nil ? "" : " rows"),
            sortLabel: sortOrder.label,
            sortedColumn: sortOrder.figureColumn,
            sortDescending: sortOrder.descending,
            filter: filter,
            emptyMessage: isCounting ? "Counting…" : counting.failureSaid ?? filter.map { "No one matches '\($0)': Esc clears the filter." } ?? "No companies.")
        model.problemDetail = interactor.problemDetail
        model.figures = counting.state
        model.rowsVersion = rowsVersion
        model.notice = notice
        return model
    }

    func render() {
        view?.show(makeViewModel())
    }
}

extension CompaniesPresenter: TableCommandTarget {
    var rowCount: Int { summaries.count }
    func showHelp() { wireframe?.navigate(to: .help) }
}
