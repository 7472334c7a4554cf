import RosterCore
import RosterTUI

/// Builds the list module and takes it where its presenter asks.
@MainActor
public final class ListScreenWireframe: ListWireframe {
    private unowned let root: RootWireframe
    private let detailWireframe: DetailScreenWireframe
    private let searcher: ListSearchScheduling
    /// The main list is the root screen; a company's list (from the
    /// overview) is pushed and goes back with Esc.
    private let isMainList: Bool
    /// The prompts' entries, shared by every list of the session.
    private let history: PromptHistory
    private var presenter: ListPresenter?
    private var arranged: ArrangedDirectory?
    private var companiesWireframe: CompaniesScreenWireframe?
    /// A company's list, on its way back to the overview: the filter it
    /// ended with, for the lists below to take up.
    var onLeave: ((String?) -> Void)?

    init(root: RootWireframe, detailWireframe: DetailScreenWireframe, searcher: ListSearchScheduling, history: PromptHistory,
         isMainList: Bool = true) {
        self.root = root
        self.history = history
        self.detailWireframe = detailWireframe
        self.searcher = searcher
        self.isMainList = isMainList
    }

    /// The list's presenter, once the directory is on screen.
    public var listPresenter: ListPresenter? { presenter }

    /// Shows `arranged` (already in `sortOrder`), narrowed by `filter`;
    /// `scopeTitle` names the company of a company's list.
    func presentList(_ arranged: ArrangedDirectory, sortOrder: SortOrder = .byLastName, filter: String? = nil,
                     scopeTitle: String? = nil) {
        self.arranged = arranged
        let presenter = ListPresenter(directory: arranged.directory, grouped: arranged.grouped, wireframe: self, searcher: searcher,
                                      exportWriter: FileExportWriter(), sortOrder: sortOrder, scopeTitle: scopeTitle,
                                      history: history)
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        if isMainList { root.setRoot(view) } else { root.push(view) }
        if filter != nil { presenter.applyFilter(filter) }
    }

    public func navigate(to route: ListRoute) {
        guard let arranged else { return }
        switch route {
        case .detail(let position):
            // The detail walks what the list shows: a search's matches, or everyone.
            let shown = presenter?.displayed ?? arranged.grouped
            detailWireframe.presentDetail(store: arranged.directory.store, grouped: shown, position: position) {
                [weak self] lastShown in self?.detailDidClose(at: lastShown)
            }
        case .skippedRecords:
            let directory = arranged.directory
            root.push(SkippedRecordsView(
                sourceName: directory.sourceName, records: directory.skipped,
                total: directory.skipped.count + directory.store.count,
                onBack: { [weak root] in root?.pop() },
                onQuit: { [weak root] in root?.finish(status: 0) }))
        case .companies where isMainList:
            guard let presenter else { return }
            let companies = CompaniesScreenWireframe(root: root, searcher: searcher, history: history, peopleList: presenter) {
                [weak self] in self?.companiesWireframe = nil
            }
            companiesWireframe = companies
            companies.present(ArrangedDirectory(directory: arranged.directory, grouped: presenter.displayed),
                              filter: presenter.filter, selectedCompany: presenter.selectedCompanyID)
        case .companies, .back:
            guard !isMainList else { return }
            root.pop()
            onLeave?(presenter?.filter)
        case .quit:
            root.finish(status: 0)
        }
    }

    /// The overview over this list counts what the list now shows.
    public func filterDidChange() {
        guard let presenter, let companiesWireframe, let arranged else { return }
        companiesWireframe.update(ArrangedDirectory(directory: arranged.directory, grouped: presenter.displayed), filter: presenter.filter)
    }

    private func detailDidClose(at position: Int) {
        root.pop()
        presenter?.reveal(position: position)
    }
}

/// Builds the detail module on top of the list and returns from it.
@MainActor
public final class DetailScreenWireframe: DetailWireframe {
    private unowned let root: RootWireframe
    private var presenter: DetailPresenter?
    private var onClose: ((Int) -> Void)?

    init(root: RootWireframe) {
        self.root = root
    }

    func presentDetail(store: PeopleStore, grouped: GroupedPeople, position: Int, onClose: @escaping (Int) -> Void) {
        let presenter = DetailPresenter(store: store, grouped: grouped, position: position, wireframe: self,
                                        clipboard: TerminalClipboard(screen: root.screen))
        let view = DetailView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        self.onClose = onClose
        root.push(view)
    }

    public func navigate(to route: DetailRoute) {
        switch route {
        case .back(let position):
            let onClose = self.onClose
            presenter = nil
            self.onClose = nil
            onClose?(position)
        case .quit:
            root.finish(status: 0)
        }
    }
}

/// Builds the company overview on top of the list, and a company's own
/// list on top of the overview.
///
/// The overview and a company's list show the people list's filter: the
/// overview counts only its matches, a company's list opens narrowed by it
/// (and can change or clear it), and whatever filter a company's list ends
/// with becomes the people list's, so that every screen agrees.
@MainActor
final class CompaniesScreenWireframe: CompaniesWireframe {
    private unowned let root: RootWireframe
    private let searcher: ListSearchScheduling
    /// The list the overview was opened from: its order and its filter.
    private weak var peopleList: ListPresenter?
    private let onClose: () -> Void
    private let history: PromptHistory
    private var arranged: ArrangedDirectory?
    private var presenter: CompaniesPresenter?
    private var companyList: ListScreenWireframe?

    init(root: RootWireframe, searcher: ListSearchScheduling, history: PromptHistory, peopleList: ListPresenter,
         onClose: @escaping () -> Void) {
        self.root = root
        self.searcher = searcher
        self.history = history
        self.peopleList = peopleList
        self.onClose = onClose
    }

    /// `arranged.grouped` is what the people list shows.
    func present(_ arranged: ArrangedDirectory, filter: String?, selectedCompany: Int?) {
        self.arranged = arranged
        let presenter = CompaniesPresenter(directory: arranged.directory, grouped: arranged.grouped, filter: filter,
                                           selectedCompany: selectedCompany, wireframe: self)
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        root.push(view)
    }

    /// The people list's filter changed: the overview counts again.
    func update(_ arranged: ArrangedDirectory, filter: String?) {
        self.arranged = arranged
        presenter?.update(grouped: arranged.grouped, filter: filter)
    }

    func navigate(to route: CompaniesRoute) {
        switch route {
        case .people(let companyID):
            guard let arranged else { return }
            let directory = arranged.directory
            let sort = peopleList?.sortOrder ?? .byLastName
            let people = GroupedPeople(company: companyID, store: directory.store, sort: sort)
            let list = ListScreenWireframe(root: root, detailWireframe: DetailScreenWireframe(root: root), searcher: searcher,
                                           history: history, isMainList: false)
            list.onLeave = { [weak self] filter in self?.companyListDidClose(filter: filter) }
            companyList = list
            list.presentList(ArrangedDirectory(directory: directory, grouped: people), sortOrder: sort,
                             filter: peopleList?.filter, scopeTitle: people.sections.first?.title)
        case .clearFilter:
            peopleList?.applyFilter(nil)
        case .back:
            root.pop()
            onClose()
        case .quit:
            root.finish(status: 0)
        }
    }

    /// A company's list closed with `filter`: the people list takes it up
    /// (and the overview follows it, through `update`).
    private func companyListDidClose(filter: String?) {
        companyList = nil
        guard let peopleList, filter != peopleList.filter else { return }
        peopleList.applyFilter(filter)
    }
}
