import RosterCore
import RosterTUI

/// Owns the stack of screens: which one is on top, draws it, hands it keys.
@MainActor
public final class RootWireframe {
    public let screen: Screen
    private var stack: [ScreenView] = []
    /// Set when the app should end, with its exit status.
    public private(set) var exitStatus: ExitStatus?

    public init(screen: Screen) {
        self.screen = screen
    }

    public var topView: ScreenView? { stack.last }
    public var depth: Int { stack.count }

    /// Replaces every screen with `view`.
    public func setRoot(_ view: ScreenView) {
        stack = [view]
    }

    public func push(_ view: ScreenView) {
        stack.append(view)
    }

    public func pop() {
        if stack.count > 1 { stack.removeLast() }
    }

    public func finish(status: ExitStatus) {
        if exitStatus == nil { exitStatus = status }
    }

    /// Keys every screen shares come first; the rest go to the top screen.
    public func handle(_ key: Key) {
        if key == .control("c") {
            finish(status: .interrupted)
            return
        }
        if screen.size.isTooSmall {
            if key == .character("q") { finish(status: .success) }
            return
        }
        if topView?.handle(key, screenSize: screen.size) == false { onUnhandledKey?(key) }
    }

    /// A key the top screen does not use (`r` over the overview or the
    /// counts reconnects, as the title says).
    public var onUnhandledKey: ((Key) -> Void)?

    /// Draws the top screen, or the too-small notice, and shows the frame.
    public func draw() {
        if screen.size.isTooSmall {
            drawTooSmall(on: screen)
        } else {
            topView?.draw(on: screen)
        }
        screen.present()
    }
}
