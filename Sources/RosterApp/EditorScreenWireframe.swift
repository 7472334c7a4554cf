import RosterCore
import RosterTUI

/// Builds the person editor over the list and returns from it.
@MainActor
final class EditorScreenWireframe: EditorWireframe {
    private unowned let root: RootWireframe
    private var presenter: EditorPresenter?
    /// Told how the editor ended, once it is off the screen.
    private let onClose: (EditorRoute) -> Void

    init(root: RootWireframe, onClose: @escaping (EditorRoute) -> Void) {
        self.root = root
        self.onClose = onClose
    }

    /// `reader` runs the save off the main actor. With `conflict`, the
    /// editor opens on the conflict screen: those changes were refused
    /// because someone left the person as its `theirs`.
    func present(person: Person, adding: Bool = false, editing: any PeopleEditing, reader: BackgroundReading,
                 conflict: (changes: [FieldChange], theirs: Person)? = nil, conflictNote: String? = nil, theirsNote: String? = nil,
                 focusing field: String? = nil, sourceName: String = "") {
        let presenter = EditorPresenter(person: person, adding: adding, interactor: EditorInteractor(editing: editing, reader: reader),
                                        wireframe: self, sourceName: sourceName, fieldsKept: editing.fieldsKept)
        if let conflict { presenter.showConflict(conflict.changes, with: conflict.theirs, note: conflictNote, theirsNote: theirsNote) }
        if let field { presenter.focus(label: field) }
        let view = EditorView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        root.push(view)
    }

    /// The person's manager, read once the form is up.
    func showManager(_ manager: ManagerField) {
        presenter?.showManager(manager)
    }

    func navigate(to route: EditorRoute) {
        presenter = nil
        root.pop()
        onClose(route)
    }
}
