import RosterCore
import RosterTUI

/// Owns the stack of screens: which one is on top, draws it, hands it keys.
@MainActor
public final class RootWireframe {
    public let screen: Screen
    private var stack: [ScreenView] = []
    /// Set when the app should end, with its exit status.
    public private(set) var exitStatus: ExitStatus?
    /// Keys typed while the top screen had work in flight (a search after
    /// Enter, a new order, the load), oldest first: each is handled, in
    /// order, once that work has landed, so `/jose⏎M` marks the people the
    /// search found however long it took. Never dropped.
    public private(set) var typedAhead: [Key] = []

    public init(screen: Screen) {
        self.screen = screen
    }

    public var topView: ScreenView? { stack.last }
    public var depth: Int { stack.count }
    /// Whether the screen on top shows something moving (see `ScreenView.isMoving`).
    public var isMoving: Bool { topView?.isMoving == true }

    /// Replaces every screen with `view`.
    public func setRoot(_ view: ScreenView) {
        stack = [view]
    }

    /// Forgets the keys typed ahead (the load failed: they were meant for
    /// a list that never came, and the error must be read first).
    public func discardTypedAhead() {
        typedAhead = []
    }

    public func push(_ view: ScreenView) {
        stack.append(view)
    }

    public func pop() {
        if stack.count > 1 { stack.removeLast() }
    }

    /// The command line (`:`) over `background`, its commands handed to
    /// `output`; `fileNames` completes a file name (`:export`).
    func pushCommandLine(over background: ScreenView, history: PromptHistory, output: CommandLineOutput,
                         fileNames: @escaping (String) -> [String] = { _ in [] }) {
        let commandLine = CommandLinePresenter(history: history, output: output, fileNames: fileNames)
        let view = CommandLineView(presenter: commandLine, background: background)
        commandLine.attach(view: view)
        push(view)
    }

    public func finish(status: ExitStatus) {
        if exitStatus == nil { exitStatus = status }
    }

    /// Keys every screen shares come first; the rest go to the top screen,
    /// now or, while it has work in flight, once that work has landed.
    public func handle(_ key: Key) {
        unusedKeyNotice = nil
        switch EveryScreenKeys.keyTable.action(for: key) {
        case .interrupt?:
            finish(status: .interrupted)
            return
        case .redraw?:
            screen.repaintAll()
            return
        case .suspend?, nil:
            break
        }
        if case .typed(let text) = key {
            handleTyped(text)
            return
        }
        if screen.size.isTooSmall {
            if key == .character("q"), topView?.holdsUnsavedWork != true { finish(status: .success) }
            return
        }
        switch topView?.timing(of: key) ?? .inOrder {
        case .jumpsTheQueue:
            dispatch(key)
        case .inOrder where typedAhead.isEmpty:
            dispatch(key)
        case .inOrder, .waits:
            typedAhead.append(key)
        }
    }

    /// Handles the keys typed ahead whose wait is over, in order, until
    /// one must wait again (a key typed ahead may start new work: `/x⏎`
    /// then `e`). The event loop calls it after background work lands.
    public func handleTypedAhead() {
        while let key = typedAhead.first, exitStatus == nil, !screen.size.isTooSmall {
            guard topView?.timing(of: key) != .waits else { return }
            typedAhead.removeFirst()
            dispatch(key)
        }
    }

    /// The top screen's key; one it has no use for goes to `onUnhandledKey`,
    /// and if that has none either, the bottom line says so.
    private func dispatch(_ key: Key) {
        // A message lasts until the next key, on the screens under the top one too.
        for view in stack { view.keyPressed() }
        guard topView?.handle(key, screenSize: screen.size) == false, onUnhandledKey?(key) != true else { return }
        unusedKeyNotice = UnusedKeyNotice(key: key, hint: topView?.unusedKeyHint)
    }

    /// A key the top screen does not use (`r` over a screen without it
    /// reconnects the list, as the title says): true when it was used.
    public var onUnhandledKey: ((Key) -> Bool)?

    /// Said on the bottom line after a key that did nothing, until the next key.
    public private(set) var unusedKeyNotice: UnusedKeyNotice?

    /// Characters read in one go: the rest goes to an open prompt as one
    /// edit (so `/abc` typed ahead searches once, for `abc`); until a
    /// prompt is open each character is a key.
    private func handleTyped(_ text: String) {
        var rest = Substring(text)
        while let first = rest.first, exitStatus == nil {
            // As one edit only when nothing waits before it and the prompt
            // may take it now; else a key at a time, in order.
            if !screen.size.isTooSmall, typedAhead.isEmpty, let view = topView, view.acceptsTypedText,
               view.timing(of: .character(first)) != .waits {
                dispatch(rest.count == 1 ? .character(first) : .typed(String(rest)))
                return
            }
            handle(.character(first))
            rest = rest.dropFirst()
        }
    }

    /// Draws the top screen, or the too-small notice, and shows the frame.
    public func draw() {
        if screen.size.isTooSmall {
            drawTooSmall(on: screen, unsaved: topView?.holdsUnsavedWork == true)
        } else {
            if let notice = unusedKeyNotice, let view = topView { notice.draw(over: view, on: screen) } else { topView?.draw(on: screen) }
        }
        screen.present()
    }
}
