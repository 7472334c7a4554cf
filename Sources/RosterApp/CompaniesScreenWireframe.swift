import RosterCore
import RosterTUI

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
    private let makeSearcher: () -> ListSearchScheduling
    private let history: PromptHistory
    private let session: ListSession
    /// The people list's order: a company's list opens in it.
    private let sort: SortOrder
    /// Hands a filter to the people list (which then calls `update`).
    private let onFilterChosen: (String?) -> Void
    private let onClose: () -> Void
    private let editingAccess: SourceEditingAccess
    private var repository: (any PeopleRepository)?
    /// The people list's filter, as last told.
    private var filter: String?
    private var presenter: CompaniesPresenter?
    private weak var view: CompaniesView?
    private var companyList: ListScreenWireframe?
    /// Whose people `companyList` shows.
    private var companyListID: Int?

    init(root: RootWireframe, makeSearcher: @escaping () -> ListSearchScheduling, history: PromptHistory, session: ListSession,
         editingAccess: SourceEditingAccess,
         sort: SortOrder, onFilterChosen: @escaping (String?) -> Void, onClose: @escaping () -> Void) {
        self.root = root
        self.editingAccess = editingAccess
        self.session = session
        self.makeSearcher = makeSearcher
        self.history = history
        self.sort = sort
        self.onFilterChosen = onFilterChosen
        self.onClose = onClose
    }

    /// `arranged.arrangement` is what the people list shows.
    func present(_ arranged: ArrangedDirectory, filter: String?, selectedCompany: Int?) {
        repository = arranged.repository
        self.filter = filter
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: arranged.repository, reader: makeSearcher()),
                                           shown: arranged.arrangement, filter: filter, selectedCompany: selectedCompany, wireframe: self)
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        self.view = view
        root.push(view)
    }

    /// The people list's filter changed: the overview counts again.
    func update(shown: PeopleArrangement, filter: String?) {
        self.filter = filter
        presenter?.update(shown: shown, filter: filter)
    }

    func navigate(to route: CompaniesRoute) {
        switch route {
        case .people(let companyID):
            guard let repository else { return }
            let people = repository.arrange(sort: sort, byCompany: true, company: companyID)
            companyListID = companyID
            companyList = ListScreenWireframe.pushed(
                ArrangedDirectory(repository: repository, arrangement: people), filter: filter,
                scope: people.sections.first.map { ListScope(title: $0.title, parent: "overview") },
                root: root, makeSearcher: makeSearcher, history: history, session: session, editingAccess: editingAccess,
                onLeave: { [weak self] filter in self?.companyListDidClose(filter: filter) })
        case .clearFilter:
            onFilterChosen(nil)
        case .commandLine:
            guard let view else { return }
            root.pushCommandLine(over: view, history: history, output: self)
        case .help:
            view?.openHelp()
        case .back:
            root.pop()
            onClose()
        case .quit:
            root.finish(status: .success)
        }
    }

    /// The company's own list, at the person with `recordID` (a save from
    /// it read the source again), saying `note`.
    func openPeople(of companyID: Int, selecting recordID: String, saying note: String) {
        navigate(to: .people(companyID: companyID))
        guard let presenter = companyList?.listPresenter else { return }
        var place = presenter.place
        place.selectedID = recordID
        place.selectedPosition = nil
        presenter.restore(place)
        presenter.say(note)
    }

    /// The company's own list at `row` (the next person after a delete from
    /// it: the previous at its end), once it shows its search, saying `note`.
    func openPeople(of companyID: Int, at row: Int, saying note: String) {
        navigate(to: .people(companyID: companyID))
        guard let presenter = companyList?.listPresenter else { return }
        presenter.whenSettled { presenter in presenter.select(position: min(row, max(0, presenter.peopleCount - 1))) }
        presenter.say(note)
    }

    /// The company whose list is open (by name: a directory read again
    /// numbers its companies anew), and the row selected in it.
    var openCompanyList: CompanyListPlace? {
        guard let companyListID, let presenter = companyList?.listPresenter, let repository,
              companyListID < repository.companies.count else { return nil }
        return CompanyListPlace(company: repository.companies[companyListID].name, row: presenter.selection)
    }

    /// A company's list closed with `filter`: the people list takes it up
    /// (and the overview follows it, through `update`).
    private func companyListDidClose(filter: String?) {
        companyList = nil
        companyListID = nil
        onFilterChosen(filter)
    }
}

/// Where a company's list was: its company's name and the row selected.
struct CompanyListPlace: Sendable {
    let company: String
    let row: Int
}

/// The command line (`:`) over the overview: its commands run there.
extension CompaniesScreenWireframe: CommandLineOutput {
    func commandEntered(_ command: ListCommand) {
        root.pop()
        presenter?.run(command)
    }

    func commandLineClosed() {
        root.pop()
    }
}
