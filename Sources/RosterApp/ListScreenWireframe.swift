import RosterCore
import RosterTUI
import RosterStore

/// Builds the list module and takes it where its presenter asks.
@MainActor
public final class ListScreenWireframe: ListWireframe, ColumnChooserOutput {
    unowned let root: RootWireframe
    let makeSearcher: () -> ListSearchScheduling
    /// The main list is the root screen; a company's list (from the
    /// overview) is pushed and goes back with Esc.
    let isMainList: Bool
    /// The prompts' entries, shared by every list of the session.
    let history: PromptHistory
    /// Marks and columns, shared by every list of the session.
    let session: ListSession
    var presenter: ListPresenter?
    private(set) var listView: ListView?
    private var columnChooser: ColumnChooserPresenter?
    var repository: (any PeopleRepository)?
    var detailWireframe: DetailScreenWireframe?
    var companiesWireframe: CompaniesScreenWireframe?
    private var frequencyWireframe: FrequencyScreenWireframe?
    private var orgChartWireframe: OrgChartScreenWireframe?
    var editorWireframe: EditorScreenWireframe?
    /// How the source is saved to, shared by every list of the session
    /// (a company's list edits as the main list does).
    let editingAccess: SourceEditingAccess
    /// A company's list, on its way back to the overview: the filter it
    /// ended with, for the lists below to take up.
    var onLeave: ((String?) -> Void)?
    /// Reads the source again whole once the connection is back (the
    /// main list's: `AppDependencies.readAgain`); false when it does not.
    var onReadAgain: ((String) -> Bool)?

    /// `makeSearcher` gives each list its own search scheduler, so that one
    /// list's newer search never cancels another's.
    init(root: RootWireframe, makeSearcher: @escaping () -> ListSearchScheduling, history: PromptHistory, session: ListSession,
         editingAccess: SourceEditingAccess = SourceEditingAccess(), isMainList: Bool = true) {
        self.root = root
        self.editingAccess = editingAccess
        self.history = history
        self.session = session
        self.makeSearcher = makeSearcher
        self.isMainList = isMainList
    }

    /// A list of its own pushed over another screen (a company's people
    /// from the overview, a value's from the counts), showing `arranged`
    /// narrowed by `filter`, of `scope`; `onLeave` is told the filter it
    /// ended with.
    static func pushed(_ arranged: ArrangedDirectory, filter: String?, scope: ListScope?, root: RootWireframe,
                       makeSearcher: @escaping () -> ListSearchScheduling, history: PromptHistory, session: ListSession,
                       editingAccess: SourceEditingAccess, onLeave: @escaping (String?) -> Void) -> ListScreenWireframe {
        let list = ListScreenWireframe(root: root, makeSearcher: makeSearcher, history: history, session: session,
                                       editingAccess: editingAccess, isMainList: false)
        list.onLeave = onLeave
        list.presentList(arranged, filter: filter, scope: scope)
        return list
    }

    /// What a landed save says once the source is read again.
    enum SavedNote: Equatable {
        case saved, deleted
        /// Deleted from a company's list (over the overview), which shows again.
        case deletedFromCompanyList
        /// Saved from the person's screen, which shows them again.
        case savedFromDetail
        /// Saved from a company's list (over the overview), which shows again.
        case savedFromCompanyList
        /// Nothing saved; read again to show what someone else saved.
        case reread
        case undone(String)
        /// Another program changed the file; read again.
        case changedOnDisk
        /// Refused (someone changed the people meanwhile): read again, saying this.
        case refused(String)
        /// Edits made offline were sent (`OutboxSender.Report.summary`).
        case sent(String)
        /// The connection is back, or was read over (`r`): read again, saying this.
        case reconnected(String)
        /// The source told of a change (a directory server's feed): read again, saying this.
        case toldByTheSource(String)

        /// A save from a screen (an edit, an add, a delete, an undo) landing.
        var isSave: Bool {
            switch self {
            case .saved, .savedFromDetail, .savedFromCompanyList, .deleted, .deletedFromCompanyList, .undone: true
            case .reread, .changedOnDisk, .refused, .sent, .reconnected, .toldByTheSource: false
            }
        }

        /// The connection came back (or `r` read over it): no screen asked for this read.
        var isReconnect: Bool {
            if case .reconnected = self { true } else { false }
        }
    }

    /// The source on screen.
    var shownRepository: (any PeopleRepository)? { repository }

    /// The list's presenter, once the directory is on screen (tests look at it).
    var listPresenter: ListPresenter? { presenter }

    /// Shows `arranged` (its order is the list's), narrowed by `filter`;
    /// `scope` says what a list over another screen is of. Whatever was
    /// opened over an earlier list (of another source) is let go.
    func presentList(_ arranged: ArrangedDirectory, filter: String? = nil, scope: ListScope? = nil) {
        // The org chart on top stays there, read again over what was read (a change made elsewhere shows in it).
        let chartOnTop = orgChartWireframe?.isOnTop == true ? orgChartWireframe : nil
        session.prepareOrgChart(of: arranged.repository, replacing: repository, reader: makeSearcher())
        repository = arranged.repository
        detailWireframe = nil
        companiesWireframe = nil
        frequencyWireframe = nil
        columnChooser = nil
        let presenter = ListPresenter(interactor: ListInteractor(repository: arranged.repository, scheduler: makeSearcher()),
                                      arrangement: arranged.arrangement, wireframe: self, exportWriter: FileExportWriter(), scope: scope,
                                      history: history, session: session, clipboard: TmuxClipboard(screen: root.screen))
        let view = ListView(presenter: presenter)
        listView = view
        presenter.attach(view: view)
        self.presenter = presenter
        if isMainList { root.setRoot(view) } else { root.push(view) }
        if filter != nil { presenter.applyFilter(filter) }
        chartOnTop?.reload(repository: arranged.repository, shown: arranged.arrangement,
                           reading: session.orgChartReading?(arranged.repository),
                           people: session.orgChartCache(for: arranged.repository, reader: makeSearcher()))
    }

    /// The `_id` of the person whose screen is on top of this list (opened
    /// from it, nothing over it), when they are read: a change made
    /// elsewhere is read again, and the screen opened again on them.
    var detailOnTop: String? {
        guard let detailWireframe, detailWireframe.isOnTop, let id = detailWireframe.shownRecordID, !id.isEmpty else { return nil }
        return id
    }

    /// Whether the org chart is the screen on top of this list: a change
    /// made elsewhere is read again at once, and shows in it.
    var isOrgChartOnTop: Bool { orgChartWireframe?.isOnTop == true && root.depth == 2 }

    /// Goes back to a remembered place, then the command line's order and
    /// filter (an explicit `--sort` wins over the remembered order).
    func start(at place: Result<RememberedPlace?, PlaceStore.ReadProblem>?, sort: SortOrder?, filter: String?) {
        guard let presenter else { return }
        var restoredPerson = false
        switch place {
        case .success(let place?):
            presenter.restore(place, sortOverride: sort)
            restoredPerson = place.selectedPosition != nil || place.selectedID != nil
        case .failure: presenter.stateNotice = "state file unreadable; ignored"
        case .success(nil), nil: break
        }
        // A new order starts at its top, unless a remembered person is to be found again.
        if let sort {
            if case .success(let place?) = place { commandLineSort = (sort, place.sortOrder) } else { commandLineSort = (sort, .byLastName) }
            presenter.applySortOrder(sort, selectingFirst: !restoredPerson)
        }
        if let filter { presenter.applyFilter(filter) }
    }

    /// Where the user is now (the offline copy's live list goes on from it).
    var place: RememberedPlace? { presenter?.place }

    /// `--sort`, and the order remembered before it: an option is for its
    /// run only, so while the list keeps it, the next launch gets the
    /// order from before (an order chosen with `s`/`S` is remembered).
    private var commandLineSort: (given: SortOrder, before: SortOrder)?

    /// Where the user is now, to remember for the next launch.
    var placeToRemember: RememberedPlace? {
        guard var place = presenter?.place else { return nil }
        if let commandLineSort, presenter?.sortOrder == commandLineSort.given { place.sortOrder = commandLineSort.before }
        return place
    }

    /// The search the list is narrowed by, or is being narrowed by (its
    /// answer not in yet: a list just shown again, going live, applying
    /// it), or was asked to be when that search failed: what a list shown
    /// in its place takes up.
    var filter: String? { presenter?.filter ?? presenter?.pendingFilter ?? presenter?.failedFilter }

    /// `r` from a screen over the list: the list reconnects (and says how it went).
    func reconnect() {
        presenter?.reconnect()
    }

    /// The connection was tried again on its own: the list says how it went.
    func reconnectedOnItsOwn(_ attempt: ReconnectAttempt) {
        presenter?.reconnectedOnItsOwn(attempt)
    }

    public func readAgain(saying said: String) -> Bool {
        onReadAgain?(said) ?? false
    }

    /// The list shows the live directory in place of its offline copy.
    func wentLive(marksNotFound: Int) {
        presenter?.wentLive(marksNotFound: marksNotFound)
    }

    public func navigate(to route: ListRoute) {
        guard let repository else { return }
        switch route {
        case .detail(let shown, let position): showDetail(of: repository, shown: shown, at: position)
        case .edit(let shown, let position, let inEditor):
            edit(shown: shown, position: position, inEditor: inEditor, in: repository)
        case .delete(let people):
            delete(people)
        case .undo:
            undo()
        case .add(let shown, let position):
            add(shown: shown, position: position, in: repository)
        case .skippedRecords:
            root.push(SkippedRecordsView(
                sourceName: repository.sourceName, records: repository.skippedRecords,
                total: repository.skippedRecords.count + repository.personCount,
                onBack: { [weak root] in root?.pop() },
                onQuit: { [weak root] in root?.finish(status: .success) }))
        case .companies(let shown, let filter, let selectedCompany) where isMainList:
            let companies = CompaniesScreenWireframe(
                root: root, makeSearcher: makeSearcher, history: history, session: session, editingAccess: editingAccess, sort: shown.sort,
                onFilterChosen: { [weak self] filter in self?.takeFilter(filter) },
                onClose: { [weak self] in self?.companiesWireframe = nil })
            companiesWireframe = companies
            companies.present(ArrangedDirectory(repository: repository, arrangement: shown), filter: filter,
                              selectedCompany: selectedCompany)
        case .counts(let shown, let filter, let field):
            let counts = FrequencyScreenWireframe(
                root: root, makeSearcher: makeSearcher, history: history, session: session, editingAccess: editingAccess, shown: shown,
                onFilterChosen: { [weak self] filter in self?.takeFilter(filter) },
                onClose: { [weak self] in self?.frequencyWireframe = nil })
            frequencyWireframe = counts
            counts.present(ArrangedDirectory(repository: repository, arrangement: shown), filter: filter, field: field)
        case .orgChart(let shown, let person): showOrgChart(of: repository, shown: shown, at: person)
        case .companies, .back:
            guard !isMainList else { return }
            root.pop()
            if case .back(let filter) = route { onLeave?(filter) } else { onLeave?(presenter?.filter) }
        case .columns(let choice, let sorted):
            guard let listView else { return }
            let chooser = ColumnChooserPresenter(choice: choice, sorted: sorted, output: self,
                                                 fieldsInUse: repository.fieldsInUse)
            let view = ColumnChooserView(presenter: chooser, background: listView) { [weak listView] in listView?.placedColumns }
            chooser.attach(view: view)
            columnChooser = chooser
            root.push(view)
        case .sortMenu(let descending):
            showSortMenu(descending: descending)
        case .commandLine:
            showCommandLine()
        case .quit:
            root.finish(status: .success)
        }
    }

    public func columnsChanged(_ choice: ColumnChoice) {
        presenter?.setColumns(choice)
    }

    public func sortChosen(_ column: ListColumn) {
        presenter?.sort(by: column)
    }

    public func columnChooserClosed() {
        columnChooser = nil
        root.pop()
    }

    /// The overview over this list counts what the list now shows.
    public func filterDidChange(shown: PeopleArrangement, filter: String?) {
        companiesWireframe?.update(shown: shown, filter: filter)
        frequencyWireframe?.update(shown: shown, filter: filter)
    }

    /// The overview (or a company's list) chose a filter for this list.
    private func takeFilter(_ filter: String?) {
        guard let presenter else { return }
        // A company's list may have marked people: they show here too.
        guard filter != presenter.filter else { return presenter.marksMayHaveChanged() }
        presenter.applyFilter(filter)
    }

    public var editingRefusal: String? { editingAccess.editing == nil ? editingAccess.readOnlyReason : nil }

    /// Says `text` in the list's status line.
    func say(_ text: String) {
        presenter?.say(text)
    }

    /// The person at `position` of `shown`, over the list.
    private func showDetail(of repository: any PeopleRepository, shown: PeopleArrangement, at position: Int) {
        let detail = DetailScreenWireframe(root: root, onClose: { [weak self] lastShown in self?.detailDidClose(at: lastShown) },
                                           editing: editing(in: repository),
                                           onOrgChart: { [weak self] recordID in
                                               self?.showOrgChart(of: repository, shown: shown, at: nil, record: recordID)
                                           })
        detailWireframe = detail
        detail.present(repository: repository, shown: shown, position: position, reader: makeSearcher(),
                       orgChart: session.orgChartCache(for: repository, reader: makeSearcher()))
    }

    /// Another program changed the table the open org chart shows: it reads it again.
    func orgChartSourceChanged() {
        orgChartWireframe?.sourceChanged()
    }

    /// `E` / `v` on a person's screen over `repository`'s list, however it was
    /// opened (from the list, the chart, a manager's or report's line).
    private func editing(in repository: any PeopleRepository) -> DetailScreenWireframe.Editing {
        { [weak self] shown, position, inEditor, field in
            self?.edit(shown: shown, position: position, inEditor: inEditor, in: repository, focusing: field)
        }
    }

    /// `T`: the org chart of everyone, over the list.
    private func showOrgChart(of repository: any PeopleRepository, shown: PeopleArrangement, at person: PersonID?,
                              record: String? = nil) {
        let chart = OrgChartScreenWireframe(root: root, repository: repository, shown: shown, reader: makeSearcher(),
                                            people: session.orgChartCache(for: repository, reader: makeSearcher()),
                                            editing: editing(in: repository),
                                            onClose: { [weak self] in self?.orgChartWireframe = nil })
        orgChartWireframe = chart
        chart.present(reading: session.orgChartReading?(repository), at: person, record: record)
    }

    private func detailDidClose(at position: Int) {
        detailWireframe = nil
        root.pop()
        presenter?.reveal(position: position)
    }
}
