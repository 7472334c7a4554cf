/// Counts by any field (VisiData's frequency sheet): one row per value of
/// the field with headcount, share, total and average balance (exact
/// cents) and a bar; sortable; Enter lists the people with that value.
@MainActor
public final class FrequencyPresenter: FrequencyModuleInterface {
    private weak var view: FrequencyViewInterface?
    private weak var wireframe: FrequencyWireframe?
    private let interactor: SummaryInteractorInput
    public private(set) var field: SummaryField
    /// What the people list shows: the counts are of its people.
    private var shown: PeopleArrangement
    /// The search the people list is narrowed by: the counts say so.
    public private(set) var filter: String?
    private var summariesInOrder: [ValueSummary] = []
    private var summaries: [ValueSummary] = [] {
        didSet { formatted = nil }
    }
    /// `summaries` worded for the view (shares of `counted` people), made
    /// once per change: a key that only moves the selection formats nothing.
    private var formatted: (rows: [FrequencyViewModel.Row], counted: Int, version: Int)?
    private var rowsVersion = 0
    public private(set) var sortOrder = ValueSortOrder()
    public private(set) var selection = 0
    var notice: String?
    private let counting: BackgroundCount

    /// Counts `shown` by `field` through `interactor`.
    public init(interactor: SummaryInteractorInput, field: SummaryField, shown: PeopleArrangement, filter: String? = nil,
                wireframe: FrequencyWireframe) {
        self.interactor = interactor
        self.field = field
        self.shown = shown
        self.filter = filter
        self.wireframe = wireframe
        counting = BackgroundCount(interactor: interactor)
        count(keeping: nil)
    }

    public func attach(view: FrequencyViewInterface) {
        self.view = view
        render()
    }

    /// The people list's filter changed: count again, keeping the selected
    /// value selected when it is still there.
    public func update(shown: PeopleArrangement, filter: String?) {
        self.shown = shown
        self.filter = filter
        count(keeping: selectedValue)
        render()
    }

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

    public func cycleField(by step: Int) {
        field = field.cycled(by: step)
        selection = 0
        // The last field's rows would read as this one's: none until counted.
        summariesInOrder = []
        summaries = []
        count(keeping: nil)
        render()
    }

    public func moveSelection(by delta: Int) {
        notice = nil
        if !summaries.isEmpty { selection = min(max(selection + delta, 0), summaries.count - 1) }
        render()
    }

    public func selectFirst() { moveSelection(by: -selection) }
    public func selectLast() { moveSelection(by: summaries.count) }

    public func cycleSortOrder() { resort(sortOrder.next) }

    public func reverseSortOrder() {
        resort(ValueSortOrder(sortOrder.key, descending: !sortOrder.descending))
    }

    public func openSelected() {
        guard let summary = summaries.indices.contains(selection) ? summaries[selection] : nil else { return }
        if case .company(let id) = summary.value {
            wireframe?.navigate(to: .company(id))
        } else if let term = field.queryTerm(for: summary.value), let error = SearchQuery(term).error {
            // A term this Roster's queries do not take: said here, not a list that shows everyone.
            notice = "cannot list them: " + error.describe(in: term)
            render()
        } else if let term = field.queryTerm(for: summary.value) {
            wireframe?.navigate(to: .matching(term: term, title: "\(valueListTitle) › \(summary.title)"))
        } else {
            notice = "no search term can spell this \(field.label)"
            render()
        }
    }

    /// "counts by state": where a value's list came from, which its title
    /// names with the value ("counts by city › Nadine"). Its term lists
    /// exactly the people the row counted, so there is nothing to add.
    private var valueListTitle: String { "counts by \(field.label)" }

    public func goBack() { wireframe?.navigate(to: .back) }
    public func clearFilter() { wireframe?.navigate(to: .clearFilter) }
    public func quit() { wireframe?.navigate(to: .quit) }
    public func openCommandLine() { wireframe?.navigate(to: .commandLine) }

    public func endMessage() { endNotice() }

    /// A command typed at `:` (`TableCommand`).
    public func run(_ command: ListCommand) { TableCommand.run(command, on: self) }

    private var selectedValue: SummaryValue? {
        summaries.indices.contains(selection) ? summaries[selection].value : nil
    }

    /// Counts `shown` by `field` (off the main actor where the source may
    /// wait) and shows the counts when they come, on `value` when it is there.
    private func count(keeping value: SummaryValue?, retrying: Bool = false) {
        notice = nil
        let (field, shown) = (self.field, self.shown)
        counting.count(retrying: retrying, { interactor.valueSummaries(of: field, in: shown, then: $0) }, again: { [weak self] in
            self?.count(keeping: value, retrying: true)
            self?.render()
        }) { [weak self] counted in
            guard let self else { return }
            self.summariesInOrder = counted
            self.summaries = self.sortOrder.sorted(counted)
            self.selection = value.flatMap { value in self.summaries.firstIndex { $0.value == value } } ?? 0
            self.render()
        }
    }

    /// True while the counts shown are not of the field and people asked for.
    public var isCounting: Bool { counting.isCounting }

    /// Keeps the selected value selected across a new order.
    private func resort(_ order: ValueSortOrder) {
        let selected = selectedValue
        sortOrder = order
        summaries = order.sorted(summariesInOrder)
        selection = selected.flatMap { value in summaries.firstIndex { $0.value == value } } ?? 0
        notice = nil
        render()
    }

    public func makeViewModel() -> FrequencyViewModel {
        let counted = shown.count
        if formatted?.counted != counted {
            rowsVersion += 1
            let rows = summaries.map { summary in
                FrequencyViewModel.Row(
                    title: summary.title,
                    headcount: NumberText.grouped(summary.headcount),
                    share: Self.share(summary.headcount, of: counted),
                    // Counts by manager come from the org chart, which holds no balances: none summed, none shown.
                    total: field == .manager ? "—" : Balance.format(cents: summary.totalCents),
                    average: summary.averageCents.map(Balance.format(cents:)) ?? "—",
                    count: summary.headcount)
            }
            formatted = (rows, counted, rowsVersion)
        }
        let (rows, _, version) = formatted ?? ([], counted, 0)
        let people = filter == nil
            ? NumberText.count(counted, "person", "people")
            : "\(NumberText.grouped(counted)) of \(NumberText.count(interactor.personCount, "person", "people")) matching '\(filter ?? "")'"
        var model = FrequencyViewModel(
            sourceName: interactor.titleName,
            fieldLabel: field.label,
            summary: counting.summary(people),
            rows: rows,
            largestCount: summaries.map(\.headcount).max() ?? 0,
            selectedRow: rows.isEmpty ? nil : selection,
            position: counting.position(selection, of: rows.count),
            sortLabel: sortOrder.label,
            sortedColumn: sortOrder.figureColumn,
            sortDescending: sortOrder.descending,
            filter: filter,
            notice: notice,
            // A database whose server went away counts nobody: say why, not "nobody".
            emptyMessage: isCounting ? "Counting…" : interactor.isConnectionLost
                ? "r reconnects: the connection is lost, so nothing was counted (tried again on its own too)."
                : counting.failureSaid ?? "Nobody to count.")
        model.problemDetail = interactor.problemDetail
        model.figures = counting.state
        model.rowsVersion = version
        return model
    }

    /// "12.3%": the share of `total`, to a tenth of a percent, half up;
    /// "<0.1%" for some that would round to none, ">99.9%" for almost all
    /// (69,705 companies' rows would otherwise say 0.0% nearly every one).
    static func share(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "—" }
        let tenths = (Int128(count) * 2000 + Int128(total)) / (Int128(total) * 2)
        if tenths == 0, count > 0 { return "<0.1%" }
        if tenths == 1000, count < total { return ">99.9%" }
        return "\(tenths / 10).\(tenths % 10)%"
    }

    func render() {
        view?.show(makeViewModel())
    }
}

extension FrequencyPresenter: TableCommandTarget {
    var rowCount: Int { summaries.count }
    func showHelp() { wireframe?.navigate(to: .help) }
}
