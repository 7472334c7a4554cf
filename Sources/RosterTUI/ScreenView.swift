/// A full screen the root wireframe can show: draws itself, takes keys.
@MainActor
public protocol ScreenView: AnyObject {
    func draw(on screen: Screen)
    /// Handles `key`; returns false when the key means nothing here.
    @discardableResult
    func handle(_ key: Key, screenSize: ScreenSize) -> Bool
    /// Whether `key` may be handled now, or must wait for work in flight
    /// (a search after Enter, a new order, the directory still loading)
    /// so that it acts on that work's result, as the user saw it coming.
    func timing(of key: Key) -> KeyTiming
    /// Whether a prompt is open that takes `.typed` text as one edit.
    var acceptsTypedText: Bool { get }
    /// Whether the screen holds typing not saved yet (a changed form):
    /// `q` on the too-small notice then does not quit.
    var holdsUnsavedWork: Bool { get }
    /// Whether the screen shows something moving (a save's progress bar):
    /// the event loop then draws it ten times a second.
    var isMoving: Bool { get }
    /// What to do instead, said after a key the screen has no use for
    /// (`x: no such key · ? help`): the key to its help, or the way out
    /// of a prompt; nil for nothing to add.
    var unusedKeyHint: String? { get }
    /// A key was pressed, on this screen or on one over it: a message the
    /// screen shows until the next key ends now (before the key is handled).
    func keyPressed()
}

/// When a typed key is handled (see `ScreenView.timing(of:)`).
public enum KeyTiming: Sendable, Equatable {
    /// In the order typed: now, unless earlier keys are still waiting.
    case inOrder
    /// After the work in flight lands (and after the keys typed before it).
    case waits
    /// At once, ahead of any waiting keys: a way out (q while loading).
    case jumpsTheQueue
}

extension ScreenView {
    public func timing(of key: Key) -> KeyTiming { .inOrder }
    /// Whether a prompt is open that takes `.typed` text as one edit; when
    /// not, the root hands such text over as keys, one at a time.
    public var acceptsTypedText: Bool { false }
    public var holdsUnsavedWork: Bool { false }
    public var isMoving: Bool { false }
    public var unusedKeyHint: String? { "? help" }
    public func keyPressed() {}
}
