import Foundation

/// One row per company with headcount, active people, total and average
/// balance (exact cents) and average age; sortable; Enter opens a company.
@MainActor
public final class CompaniesPresenter: CompaniesModuleInterface {
    private weak var view: CompaniesViewInterface?
    private weak var wireframe: CompaniesWireframe?
    private let repository: any PeopleRepository
    private var summariesAToZ: [CompanySummary]
    private var summaries: [CompanySummary]
    /// The search the people list is narrowed by: the overview counts only
    /// its matches, and says so.
    public private(set) var filter: String?
    private var peopleCounted: Int
    /// Companies with anyone in them, whatever the filter.
    private let companiesInAll: Int
    public private(set) var sortOrder = CompanySortOrder()
    public private(set) var selection = 0
    /// What `r` said, until the next key that moves or sorts.
    private var notice: String?
    /// What the overview counts: the people list's rows.
    private var shown: PeopleArrangement

    /// `grouped` is what the people list shows (a search's matches, or
    /// everyone); `selectedCompany` is where the user was.
    public init(repository: any PeopleRepository, shown: PeopleArrangement, filter: String? = nil, selectedCompany: Int? = nil,
                wireframe: CompaniesWireframe) {
        self.repository = repository
        summariesAToZ = repository.companySummaries(in: shown)
        summaries = summariesAToZ
        self.filter = filter
        peopleCounted = shown.count
        self.shown = shown
        companiesInAll = repository.nonEmptyCompanyCount
        self.wireframe = wireframe
        if let selectedCompany { selection = summaries.firstIndex { $0.companyID == selectedCompany } ?? 0 }
    }

    /// The people list's filter changed: count again, keeping the selected
    /// company selected when it is still there.
    public func update(shown: PeopleArrangement, filter: String?) {
        let selected = summaries.isEmpty ? nil : summaries[selection].companyID
        summariesAToZ = repository.companySummaries(in: shown)
        summaries = sortOrder.sorted(summariesAToZ)
        self.filter = filter
        peopleCounted = shown.count
        self.shown = shown
        selection = selected.flatMap { id in summaries.firstIndex { $0.companyID == id } } ?? 0
        render()
    }

    /// `r`: connects again and counts again what the list shows.
    public func reconnect() {
        let (said, reconnected) = Reconnection.attempt(repository)
        if reconnected { update(shown: shown, filter: filter) }
        notice = said
        render()
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

    public func makeViewModel() -> CompaniesViewModel {
        let rows = summaries.map { summary in
            CompaniesViewModel.Row(
                title: summary.title,
                headcount: NumberText.grouped(summary.headcount),
                active: NumberText.grouped(summary.active),
                total: Balance.format(cents: summary.totalCents),
                average: summary.averageCents.map(Balance.format(cents:)) ?? "—",
                averageAge: summary.averageAge.map { String(format: "%.1f", $0) } ?? "—",
                count: summary.headcount)
        }
        let summary = filter == nil
            ? NumberText.count(summaries.count, "company", "companies")
            : "\(NumberText.grouped(peopleCounted)) of \(NumberText.count(repository.personCount, "person", "people")) · "
                + "\(NumberText.grouped(summaries.count)) of \(NumberText.count(companiesInAll, "company", "companies"))"
        var model = CompaniesViewModel(
            sourceName: repository.sourceName,
            summary: summary,
            rows: rows,
            selectedRow: rows.isEmpty ? nil : selection,
            position: rows.isEmpty ? "0/0" : "\(NumberText.grouped(selection + 1))/\(NumberText.grouped(rows.count))",
            sortLabel: sortOrder.label,
            sortedColumn: sortOrder.figureColumn,
            sortDescending: sortOrder.descending,
            filter: filter,
            emptyMessage: filter.map { "No one matches '\($0)': Esc clears the filter." } ?? "No companies.")
        model.problemDetail = ConnectionStatus(repository)?.detail
        model.notice = notice
        return model
    }

    private func render() {
        view?.show(makeViewModel())
    }
}
