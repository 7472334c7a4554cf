import RosterCore
import RosterTUI

/// The app's one loop, on the main thread: waits for a key, a signal or a
/// message from background work, handles it, draws one frame.
///
/// It reads keys from a `TerminalInput` and draws through the root
/// wireframe's `Screen`: the real terminal (`CursesScreen`, both at once),
/// or in tests a scripted one over a `MemoryScreen`.
@MainActor
final class EventLoop {
    private let terminal: TerminalInput
    private let dependencies: AppDependencies
    private let wakePipe: WakePipe
    private let mailbox: Mailbox
    /// Messages from background work handled so far (tests wait on it).
    private(set) var handledEvents = 0

    init(terminal: TerminalInput, dependencies: AppDependencies, wakePipe: WakePipe, mailbox: Mailbox) {
        self.terminal = terminal
        self.dependencies = dependencies
        self.wakePipe = wakePipe
        self.mailbox = mailbox
    }

    /// Runs until a screen finishes the app; returns the exit status.
    func run() -> ExitStatus {
        let root = dependencies.root
        var isLoading = true
        dependencies.post = { [mailbox] work in mailbox.post(.run(work)) }
        dependencies.startLoading { [mailbox] result in mailbox.post(.loaded(result)) }
        root.draw()
        while root.exitStatus == nil {
            // While loading or saving, wake ten times a second to move the progress bar.
            let isMoving = isLoading || root.isMoving
            guard terminal.waitForInput(orReadable: wakePipe.readEnd, timeout: isMoving ? .milliseconds(100) : nil) else {
                return .failure
            }
            var needsDraw = isMoving
            while let key = terminal.readKey() {
                needsDraw = true
                switch key {
                case .resize:
                    terminal.repaintAll()
                case _ where EveryScreenKeys.keyTable.action(for: key) == .suspend:
                    terminal.suspend()
                default:
                    root.handle(key)
                }
                if let status = root.exitStatus { return status }
            }
            for byte in wakePipe.drain() where byte != WakePipe.mailByte {
                SignalWatchdog.acknowledge()
                return .signal(Int32(byte))  // SIGINT 130, SIGTERM 143, SIGHUP 129
            }
            for event in mailbox.takeAll() {
                switch event {
                case .loaded(let result):
                    isLoading = false
                    dependencies.directoryLoaded(result)
                    if case .success(let arranged) = result {
                        dependencies.watchConnection(of: arranged.repository) { [mailbox] work in mailbox.post(.run(work)) }
                        dependencies.watchForChanges { [mailbox] work in mailbox.post(.run(work)) }
                    }
                case .run(let work):
                    work()
                }
                handledEvents += 1
                needsDraw = true
            }
            root.handleTypedAhead()
            dependencies.reloadIfDue()
            if let status = root.exitStatus { return status }
            if needsDraw, root.exitStatus == nil { root.draw() }
        }
        return root.exitStatus ?? .success
    }
}
