import RosterCore
import RosterTUI

/// Builds the org chart (`T`) on top of the list, and a person's screen on
/// top of the chart.
///
/// The chart is of everyone, whatever the list's filter. A person opened
/// from it walks the list's people with ↑/↓ when the list shows them, else
/// everyone in the list's order.
@MainActor
final class OrgChartScreenWireframe: OrgChartWireframe {
    private unowned let root: RootWireframe
    private var repository: any PeopleRepository
    private var shown: PeopleArrangement
    private let reader: BackgroundReading
    /// Where each person opened stands (their screen's manager and team).
    private var people: OrgChartCache?
    private let onClose: () -> Void
    /// `E` / `v` on a person's screen opened from the chart.
    private let editing: DetailScreenWireframe.Editing
    private var presenter: OrgChartPresenter?
    private var view: OrgChartView?
    private var detail: DetailScreenWireframe?

    init(root: RootWireframe, repository: any PeopleRepository, shown: PeopleArrangement, reader: BackgroundReading,
         people: OrgChartCache?, editing: @escaping DetailScreenWireframe.Editing, onClose: @escaping () -> Void) {
        self.editing = editing
        self.people = people
        self.root = root
        self.repository = repository
        self.shown = shown
        self.reader = reader
        self.onClose = onClose
    }

    /// The chart at `person`, or at the person whose record's `_id` is `record`.
    func present(reading: (any OrgChartReading)?, at person: PersonID?, record: String? = nil) {
        let interactor = OrgChartInteractor(repository: repository, shown: shown, reading: reading, reader: reader)
        let presenter = OrgChartPresenter(interactor: interactor, wireframe: self, startingAt: person?.rawValue, record: record)
        let view = OrgChartView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        self.view = view
        root.push(view)
    }

    /// Whether the chart is the screen on top (a change read again then
    /// shows in it at once; over a person's screen it waits, as the list does).
    var isOnTop: Bool { view.map { root.topView === $0 } ?? false }

    /// The source was read again (another program changed it) and the list
    /// under the chart shown afresh: the chart is read again from `reading`,
    /// over `repository`, in `shown`'s order, and shown over the list again,
    /// where it was (the presenter keeps the selection and what was open).
    func reload(repository: any PeopleRepository, shown: PeopleArrangement, reading: (any OrgChartReading)?, people: OrgChartCache?) {
        guard let presenter, let view else { return }
        (self.repository, self.shown, self.people) = (repository, shown, people)
        presenter.reload(from: OrgChartInteractor(repository: repository, shown: shown, reading: reading, reader: reader))
        root.push(view)
    }

    /// Another program changed the source: the chart is read again.
    func sourceChanged() {
        presenter?.reload()
    }

    func navigate(to route: OrgChartRoute) {
        switch route {
        case .person(let person):
            openPerson(PersonID(person))
        case .back:
            root.pop()
            presenter = nil
            view = nil
            onClose()
        case .quit:
            root.finish(status: .success)
        }
    }

    /// The person's screen, in the list's people when they are among them.
    private func openPerson(_ id: PersonID) {
        DetailScreenWireframe.open(id, over: root, repository: repository, shownFirst: shown, reader: reader,
                                   orgChart: people, editing: editing, onOrgChart: { [weak self] recordID in self?.comeBack(to: recordID) }) { [weak self] detail in
            self?.detail = detail
        }
    }

    /// `T` on a person's screen opened from the chart: back on the chart
    /// (the screens over it closed), at that person.
    private func comeBack(to recordID: String) {
        guard let view else { return }
        while root.depth > 1, root.topView !== view { root.pop() }
        detail = nil
        presenter?.select(recordID: recordID)
    }
}
