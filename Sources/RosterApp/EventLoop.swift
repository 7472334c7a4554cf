import RosterCore
import RosterTUI
#if canImport(Glibc)
import Glibc
#endif

/// The app's one loop, on the main thread: waits in `poll` for a key, a
/// signal or a message from background work, handles it, draws one frame.
@MainActor
final class EventLoop {
    private let screen: CursesScreen
    private let dependencies: AppDependencies
    private let wakePipe: WakePipe
    private let mailbox: Mailbox

    init(screen: CursesScreen, dependencies: AppDependencies, wakePipe: WakePipe, mailbox: Mailbox) {
        self.screen = screen
        self.dependencies = dependencies
        self.wakePipe = wakePipe
        self.mailbox = mailbox
    }

    /// Runs until a screen finishes the app; returns the exit status.
    func run() -> ExitStatus {
        let root = dependencies.root
        var isLoading = true
        dependencies.startLoading { [mailbox] result in mailbox.post(.loaded(result)) }
        root.draw()
        while root.exitStatus == nil {
            var descriptors = [
                pollfd(fd: screen.inputDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            // While loading, wake ten times a second to move the progress bar.
            let ready = poll(&descriptors, 2, isLoading ? 100 : -1)
            var needsDraw = isLoading
            if ready < 0, errno != EINTR { return .failure }
            // A resize interrupts poll (EINTR) and leaves KEY_RESIZE to read.
            while let key = screen.readKey() {
                needsDraw = true
                switch key {
                case .resize:
                    screen.repaintAll()
                case .control("z"):
                    screen.suspend()
                default:
                    root.handle(key)
                }
                if let status = root.exitStatus { return status }
            }
            for byte in wakePipe.drain() where byte != WakePipe.mailByte {
                return .signal(Int32(byte))  // SIGINT 130, SIGTERM 143, SIGHUP 129
            }
            for event in mailbox.takeAll() {
                switch event {
                case .loaded(let result):
                    isLoading = false
                    dependencies.directoryLoaded(result)
                case .run(let work):
                    work()
                }
                needsDraw = true
            }
            if needsDraw, root.exitStatus == nil { root.draw() }
        }
        return root.exitStatus ?? .success
    }
}
