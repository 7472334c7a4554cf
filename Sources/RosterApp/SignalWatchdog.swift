import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ends Roster within a second of Ctrl-C, SIGTERM or any other signal
/// that ends it, even while the main thread is stuck in a C library (a
/// server that stopped answering mid-query, a database file locked by
/// another process).
///
/// The signal handler (`SignalPipe`) wakes the event loop, which ends the
/// app the usual way and says so here (`acknowledge`). When it has not
/// within `grace`, the main thread is stuck: this thread puts the terminal
/// back as `TerminalRescue` does (the reset sequence and the saved modes,
/// no ncurses call) and ends the process with the shell's status, 128+N.
/// Once answered, the way out has `shutdownGrace`, and a second signal
/// ends it at once.
enum SignalWatchdog {
    /// How long the event loop has to answer a signal.
    static let grace: Duration = .milliseconds(700)

    nonisolated(unsafe) private static let signalled: UnsafeMutablePointer<sem_t> = makeSemaphore()
    nonisolated(unsafe) private static let acknowledged: UnsafeMutablePointer<sem_t> = makeSemaphore()
    /// The last signal, written by the handler before it posts `signalled`.
    nonisolated(unsafe) private static var lastSignal: Int32 = 0
    nonisolated(unsafe) private static var isInstalled = false

    private static func makeSemaphore() -> UnsafeMutablePointer<sem_t> {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }

    /// Starts the watching thread (once; before any signal handler can call `signalArrived`).
    static func install() {
        guard !isInstalled else { return }
        _ = signalled
        _ = acknowledged
        isInstalled = true
        let thread = Thread { watch() }
        thread.name = "roster.signal-watchdog"
        thread.start()
    }

    /// From the signal handler: only async-signal-safe calls.
    static func signalArrived(_ number: Int32) {
        guard isInstalled else { return }
        lastSignal = number
        sem_post(signalled)
    }

    /// The event loop saw the signal and is ending the app.
    static func acknowledge() {
        guard isInstalled else { return }
        sem_post(acknowledged)
    }

    private static func watch() {
        while sem_wait(signalled) != 0 {}  // EINTR: wait again
        // Answered: the app is on its way out (the terminal restored, the
        // place saved), unless that too is stuck or a second signal comes.
        if wait(for: acknowledged, upTo: grace) { _ = wait(for: signalled, upTo: shutdownGrace) }
        TerminalRescue.restoreTerminal()
        // A line Roster left on the terminal on its way out ("finishing the
        // offline copy…") goes with it.
        if isatty(STDERR_FILENO) == 1 { _ = "\r\u{1B}[K".withCString { write(STDERR_FILENO, $0, strlen($0)) } }
        Platform.removeUnfinishedWrites()
        _exit(128 + lastSignal)
    }

    /// How long the way out may take once the loop has answered.
    static let shutdownGrace: Duration = .seconds(2)

    /// True when `semaphore` was posted within `limit`.
    private static func wait(for semaphore: UnsafeMutablePointer<sem_t>, upTo limit: Duration) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let (seconds, attoseconds) = limit.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while true {
            if sem_timedwait(semaphore, &deadline) == 0 { return true }
            if errno != EINTR { return false }
        }
    }
}
