import RosterCore
import RosterTUI

/// Builds the detail module on top of the list and returns from it.
@MainActor
final class DetailScreenWireframe: DetailWireframe {
    /// `E` / `v`: the list opens an editor of the person at a position of
    /// what a person's screen walks (in the user's editor; at a field).
    typealias Editing = (PeopleArrangement, Int, Bool, String?) -> Void

    private unowned let root: RootWireframe
    private var presenter: DetailPresenter?
    /// Called with the display position the detail ended on.
    private let onClose: (Int) -> Void
    /// `E` / `v`, on this screen and on a manager's or report's opened over it.
    private let editing: Editing
    /// `T`: the org chart at the person whose record's `_id` this is.
    private let onOrgChart: (String) -> Void
    /// What the screen was opened on, for a manager's or a report's screen (Enter) over it.
    private var opened: (repository: any PeopleRepository, shown: PeopleArrangement, reader: BackgroundReading, orgChart: OrgChartCache?)?
    /// The manager's or report's screen opened over this one.
    private var other: DetailScreenWireframe?

    init(root: RootWireframe, onClose: @escaping (Int) -> Void, editing: @escaping Editing, onOrgChart: @escaping (String) -> Void) {
        self.root = root
        self.onClose = onClose
        self.editing = editing
        self.onOrgChart = onOrgChart
    }

    /// The screen this wireframe pushed, while it is the top one.
    private weak var view: DetailView?
    var isOnTop: Bool { view.map { root.topView === $0 } ?? false }
    /// The `_id` of the person shown, once read.
    var shownRecordID: String? { presenter?.shownRecordID }

    func say(_ text: String) { presenter?.say(text) }

    /// `reader` reads the person off the main actor.
    func present(repository: any PeopleRepository, shown: PeopleArrangement, position: Int, reader: BackgroundReading,
                 orgChart: OrgChartCache? = nil) {
        opened = (repository, shown, reader, orgChart)
        let interactor = DetailInteractor(repository: repository, arrangement: shown, reader: reader, orgChart: orgChart)
        let presenter = DetailPresenter(interactor: interactor,
                                        position: position, wireframe: self, clipboard: TmuxClipboard(screen: root.screen))
        let view = DetailView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        self.view = view
        root.push(view)
    }

    func navigate(to route: DetailRoute) {
        switch route {
        case .back(let position):
            presenter = nil
            onClose(position)
        case .edit(let position, let inEditor, let field):
            // Over the person's screen: Esc comes back to it; a save shows
            // the list, read again, at the person.
            if let shown = opened?.shown { editing(shown, position, inEditor, field) }
        case .person(let person):
            openPerson(PersonID(person))
        case .orgChart(let recordID):
            onOrgChart(recordID)
        case .quit:
            root.finish(status: .success)
        }
    }

    /// A manager's or a report's screen over this one (Esc comes back here).
    private func openPerson(_ id: PersonID) {
        guard let opened else { return }
        Self.open(id, over: root, repository: opened.repository, shownFirst: opened.shown, reader: opened.reader,
                  orgChart: opened.orgChart, editing: editing, onOrgChart: onOrgChart) { [weak self] other in self?.other = other }
    }

    /// The screen of person `id` over the screen on top: ↑/↓ walk
    /// `shown` when they are among it, else everyone in the same order.
    /// `hold` keeps the screen's wireframe while it shows (nil once Esc
    /// closed it); `onOrgChart` is what `T` on it does.
    static func open(_ id: PersonID, over root: RootWireframe, repository: any PeopleRepository, shownFirst shown: PeopleArrangement,
                     reader: BackgroundReading, orgChart: OrgChartCache?, editing: @escaping Editing,
                     onOrgChart: @escaping (String) -> Void, hold: @escaping (DetailScreenWireframe?) -> Void) {
        repository.reads(through: reader).read({ () async -> (PeopleArrangement, Int)? in
            if let position = try? await repository.position(of: id, in: shown) { return (shown, position) }
            let everyone = repository.arrange(sort: shown.sort, byCompany: shown.byCompany, company: nil)
            guard let position = try? await repository.position(of: id, in: everyone) else { return nil }
            return (everyone, position)
        }, then: { [weak root] found in
            guard let root, let (arrangement, position) = found else { return }
            let detail = DetailScreenWireframe(root: root, onClose: { [weak root] _ in
                hold(nil)
                root?.pop()
            }, editing: editing, onOrgChart: onOrgChart)
            hold(detail)
            detail.present(repository: repository, shown: arrangement, position: position, reader: reader, orgChart: orgChart)
        })
    }
}
