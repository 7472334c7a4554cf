import RosterCore
import RosterTUI

/// Builds the detail module on top of the list and returns from it.
@MainActor
final class DetailScreenWireframe: DetailWireframe {
    private unowned let root: RootWireframe
    private var presenter: DetailPresenter?
    /// Called with the display position the detail ended on.
    private let onClose: (Int) -> Void
    /// `E` / `v`: the list opens an editor of the person at this position.
    private let onEdit: (Int, Bool, String?) -> Void

    init(root: RootWireframe, onClose: @escaping (Int) -> Void, onEdit: @escaping (Int, Bool, String?) -> Void = { _, _, _ in }) {
        self.root = root
        self.onClose = onClose
        self.onEdit = onEdit
    }

    /// `reader` reads the person off the main actor.
    func present(repository: any PeopleRepository, shown: PeopleArrangement, position: Int, reader: BackgroundReading,
                 orgChart: OrgChartCache? = nil) {
        let interactor = DetailInteractor(repository: repository, arrangement: shown, reader: reader, orgChart: orgChart)
        let presenter = DetailPresenter(interactor: interactor,
                                        position: position, wireframe: self, clipboard: TmuxClipboard(screen: root.screen))
        let view = DetailView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
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
            onEdit(position, inEditor, field)
        case .quit:
            root.finish(status: .success)
        }
    }
}
