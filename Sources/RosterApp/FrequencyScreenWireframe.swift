import RosterCore
import RosterTUI

/// Builds the frequency view (`F`) on top of the list, and a value's own
/// list on top of the frequency view.
///
/// The counts are of the people list's people (its filter). A value's
/// list opens narrowed by that filter and the value's query term
/// (`acme eye="blue"`), so that it works alike for every source; a
/// company opens as the company overview opens it, by id. When a value's
/// list closes, the filter it ended with, less the value's term, becomes
/// the people list's (as a company's list hands its filter back).
@MainActor
final class FrequencyScreenWireframe: FrequencyWireframe {
    private unowned let root: RootWireframe
    private let makeSearcher: () -> ListSearchScheduling
    private let history: PromptHistory
    /// Marks and columns, shared by every list of the session.
    private let session: ListSession
    /// The people list's order and grouping: a value's list opens in it.
    private let sort: SortOrder
    private let byCompany: Bool
    /// The company the people list is limited to (a company's own list): a
    /// value's list keeps to it.
    private let company: Int?
    /// What the people list showed when no filter was in force: everyone
    /// (of its company), already arranged, for a value's list (a million people take half a
    /// second to arrange again).
    private let everyone: PeopleArrangement?
    /// Hands a filter to the people list (which then calls `update`).
    private let onFilterChosen: (String?) -> Void
    private let onClose: () -> Void
    private let editingAccess: SourceEditingAccess
    private var repository: (any PeopleRepository)?
    /// The people list's filter, as last told.
    private var filter: String?
    private var presenter: FrequencyPresenter?
    private weak var view: FrequencyView?
    private var valueList: ListScreenWireframe?

    init(root: RootWireframe, makeSearcher: @escaping () -> ListSearchScheduling, history: PromptHistory, session: ListSession,
         editingAccess: SourceEditingAccess,
         shown: PeopleArrangement,
         onFilterChosen: @escaping (String?) -> Void, onClose: @escaping () -> Void) {
        self.root = root
        self.editingAccess = editingAccess
        self.makeSearcher = makeSearcher
        self.history = history
        self.session = session
        sort = shown.sort
        byCompany = shown.byCompany
        company = shown.company
        everyone = shown.query == nil ? shown : nil
        self.onFilterChosen = onFilterChosen
        self.onClose = onClose
    }

    /// `arranged.arrangement` is what the people list shows.
    func present(_ arranged: ArrangedDirectory, filter: String?, field: SummaryField) {
        repository = arranged.repository
        self.filter = filter
        let interactor = SummaryInteractor(repository: arranged.repository, reader: makeSearcher(),
                                           orgChart: session.orgChartCache(for: arranged.repository, reader: makeSearcher()))
        let presenter = FrequencyPresenter(interactor: interactor,
                                           field: field, shown: arranged.arrangement, filter: filter, wireframe: self)
        let view = FrequencyView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        self.view = view
        root.push(view)
    }

    /// The people list's filter changed: count again.
    func update(shown: PeopleArrangement, filter: String?) {
        self.filter = filter
        presenter?.update(shown: shown, filter: filter)
    }

    func navigate(to route: FrequencyRoute) {
        switch route {
        case .company(let companyID):
            guard let repository else { return }
            let people = repository.arrange(sort: sort, byCompany: true, company: companyID)
            openList(ArrangedDirectory(repository: repository, arrangement: people), filter: filter,
                     title: people.sections.first?.title, term: nil)
        case .matching(let term, let title):
            guard let repository else { return }
            let everyone = everyone ?? repository.arrange(sort: sort, byCompany: byCompany, company: company)
            openList(ArrangedDirectory(repository: repository, arrangement: everyone),
                     filter: Self.adding(term, to: filter), title: title, term: term)
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

    private func openList(_ arranged: ArrangedDirectory, filter: String?, title: String?, term: String?) {
        valueList = ListScreenWireframe.pushed(
            arranged, filter: filter, scope: title.map { ListScope(title: $0, parent: "counts", filterIsScope: term != nil) }, root: root, makeSearcher: makeSearcher, history: history, session: session, editingAccess: editingAccess,
            onLeave: { [weak self] ended in self?.valueListDidClose(filter: Self.removing(term, from: ended)) })
    }

    private func valueListDidClose(filter: String?) {
        valueList = nil
        onFilterChosen(filter)
    }

    /// "acme" + `eye="blue"` → `acme eye="blue"`.
    static func adding(_ term: String, to filter: String?) -> String {
        guard let filter, !filter.trimmingCharacters(in: .whitespaces).isEmpty else { return term }
        return filter + " " + term
    }

    /// The filter a value's list ended with, less the value's term wherever
    /// it still stands (`state="Kansas" -age>40` → `-age>40`); nil when
    /// nothing else is left.
    static func removing(_ term: String?, from filter: String?) -> String? {
        guard let filter else { return nil }
        guard let term, let rest = QueryEditing.removingLast(term, from: filter) else { return filter }
        return rest.isEmpty ? nil : rest
    }
}

/// The command line (`:`) over the counts: its commands run there.
extension FrequencyScreenWireframe: CommandLineOutput {
    func commandEntered(_ command: ListCommand) {
        root.pop()
        presenter?.run(command)
    }

    func commandLineClosed() {
        root.pop()
    }
}
