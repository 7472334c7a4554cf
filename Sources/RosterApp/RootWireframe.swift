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
        if case .typed(let text) = key {
            handleTyped(text)
            return
        }
        if screen.size.isTooSmall {
            if key == .character("q") { finish(status: .success) }
            return
        }
        topView?.handle(key, screenSize: screen.size)
    }

    /// Characters read in one go: the rest goes to an open prompt as one
    /// edit (so `/abc` typed ahead searches once, for `abc`); until a
    /// prompt is open each character is a key.
    private func handleTyped(_ text: String) {
        var rest = Substring(text)
        while let first = rest.first, exitStatus == nil {
            if !screen.size.isTooSmall, let view = topView, view.acceptsTypedText {
                view.handle(rest.count == 1 ? .character(first) : .typed(String(rest)), screenSize: screen.size)
                return
            }
            handle(.character(first))
            rest = rest.dropFirst()
        }
    }

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
