// Every protocol of the person editor (`E`).

/// Presenter → view.
@MainActor
public protocol EditorViewInterface: AnyObject {
    func show(_ model: EditorViewModel)
}

/// View → presenter.
@MainActor
public protocol EditorModuleInterface: AnyObject {
    /// A key's edit of the field being typed in.
    func edit(_ edit: LineEdit)
    /// Tab / ↓ (1), Shift-Tab / ↑ (-1).
    func moveField(by delta: Int)
    /// Enter: saves, once every field reads.
    func save()
    /// Esc: back, asking first when something was changed.
    func cancel()
    /// The answer to "throw the changes away?".
    func answer(_ yes: Bool)
    /// On the conflict screen: whose value the field takes (m, t, e).
    func choose(_ choice: PersonMerge.Choice)
}

public enum EditorRoute: Equatable, Sendable {
    /// Saved: the person with this `_id` is to be shown as they are now;
    /// `undo` takes the change back.
    case saved(recordID: String, undo: UndoableChange?)
    /// Back with nothing written; `stale` when a save was refused because
    /// the person changed (or went) underneath: the list reads them again.
    case cancelled(stale: Bool)
}

/// Presenter → wireframe.
@MainActor
public protocol EditorWireframe: AnyObject {
    func navigate(to route: EditorRoute)
}

/// The editor's use case: saving off the main actor.
@MainActor
public protocol EditorInteractorInput: AnyObject {
    /// Saves `changes` to the person `base` is; `deliver` gets nil when
    /// saved, or why not, on the main actor.
    func save(_ changes: [FieldChange], base: Person, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void)
    /// Adds a person of `changes` with the `_id` `recordID`.
    func add(_ changes: [FieldChange], recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void)
    /// Sets the person's manager to `reference` (empty: none), checked
    /// first (`ManagerEditing`); `deliver` as for `save`.
    func setManager(_ reference: String, of recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void)
    /// How far the save in flight has got (nil: the source never says).
    var saveProgress: SaveProgress? { get }
    /// Runs `work` on the main actor after `delay` (a save refused by a lock, tried again).
    func later(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void)
}

extension EditorInteractorInput {
    public var saveProgress: SaveProgress? { nil }

    public func setManager(_ reference: String, of recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        deliver(EditFailure(.readOnly, "this source keeps no managers"))
    }
}
