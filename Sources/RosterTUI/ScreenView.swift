/// A full screen the root wireframe can show: draws itself, takes keys.
@MainActor
public protocol ScreenView: AnyObject {
    func draw(on screen: Screen)
    /// Handles `key`; returns false when the key means nothing here.
    @discardableResult
    func handle(_ key: Key, screenSize: ScreenSize) -> Bool
    /// Whether a prompt is open that takes `.typed` text as one edit.
    var acceptsTypedText: Bool { get }
}

public extension ScreenView {
    /// Whether a prompt is open that takes `.typed` text as one edit; when
    /// not, the root hands such text over as keys, one at a time.
    var acceptsTypedText: Bool { false }
}
