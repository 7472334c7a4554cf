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

    func presentList(_ arranged: ArrangedDirectory) {
        self.arranged = arranged
        let presenter = ListPresenter(directory: arranged.directory, grouped: arranged.grouped, wireframe: self, searcher: searcher,
                                      exportWriter: FileExportWriter(), history: history)
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        if isMainList { root.setRoot(view) } else { root.push(view) }
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
            let companies = CompaniesScreenWireframe(root: root, searcher: searcher, history: history)
            companiesWireframe = companies
            companies.present(ArrangedDirectory(directory: arranged.directory, grouped: presenter?.displayed ?? arranged.grouped))
        case .companies, .back:
            if !isMainList { root.pop() }
        case .quit:
            root.finish(status: 0)
        }
    }

    private func detailDidClose(at position: Int) {
        root.pop()
        presenter?.select(position: position)
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
@MainActor
final class CompaniesScreenWireframe: CompaniesWireframe {
    private unowned let root: RootWireframe
    private let searcher: ListSearchScheduling
    private let history: PromptHistory
    private var arranged: ArrangedDirectory?
    private var presenter: CompaniesPresenter?
    private var companyList: ListScreenWireframe?

    init(root: RootWireframe, searcher: ListSearchScheduling, history: PromptHistory) {
        self.root = root
        self.searcher = searcher
        self.history = history
    }

    func present(_ arranged: ArrangedDirectory) {
        self.arranged = arranged
        let presenter = CompaniesPresenter(directory: arranged.directory, grouped: arranged.grouped, wireframe: self)
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        root.push(view)
    }

    func navigate(to route: CompaniesRoute) {
        switch route {
        case .people(let companyID):
            guard let arranged, let section = arranged.grouped.sections.first(where: { $0.companyID == companyID }) else { return }
            let people = GroupedPeople(order: ContiguousArray(arranged.grouped.order[section.range]),
                                       sections: [CompanySection(title: section.title, companyID: companyID,
                                                                 range: 0..<section.count, total: section.total)])
            let list = ListScreenWireframe(root: root, detailWireframe: DetailScreenWireframe(root: root), searcher: searcher,
                                           history: history, isMainList: false)
            companyList = list
            list.presentList(ArrangedDirectory(directory: arranged.directory, grouped: people))
        case .back:
            root.pop()
        case .quit:
            root.finish(status: 0)
        }
    }
}
