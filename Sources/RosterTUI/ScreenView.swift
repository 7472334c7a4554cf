/// A full screen the root wireframe can show: draws itself, takes keys.
@MainActor
public protocol ScreenView: AnyObject {
    func draw(on screen: Screen)
    /// Handles `key`; returns false when the key means nothing here.
    @discardableResult
    func handle(_ key: Key, screenSize: ScreenSize) -> Bool
}
