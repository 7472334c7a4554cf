import Foundation
import Synchronization

/// Connects a lost database connection again on its own, with backoff
/// (`ReconnectBackoff`: 1 s, 2, then every 4 s), as `r` does on request;
/// `tryNow` cuts a wait short (the change listener heard the server again).
///
/// A thread of its own looks at the connection once a second. While the
/// title shows a passing problem (a lock, a timeout), it reads a row every
/// `poll` to see whether it is over, and reports `.recovered` when it is
/// (an idle screen would otherwise say "database busy" long after). When
/// it is lost, the watcher waits the next delay, tries, and reports how it went
/// (the app hands that to the list, on the main actor). A reconnect blocks while libpq
/// connects, so it runs on this thread: never on the main thread, where
/// keys wait, nor on Swift's cooperative pool, where searches run.
public final class ConnectionWatcher: Sendable {
    private let connection: any Reconnecting
    private let delays: [Duration]
    private let poll: Duration
    private let stopped = Atomic<Bool>(false)
    /// Signalled to end the wait in progress early (`tryNow`, `stop`).
    private let wake = DispatchSemaphore(value: 0)

    public init(connection: any Reconnecting, delays: [Duration] = ReconnectBackoff.standard, poll: Duration = .seconds(1)) {
        self.connection = connection
        self.delays = delays
        self.poll = poll
    }

    /// Starts watching; `report` is called from the watcher's thread after each try.
    public func start(report: @escaping @Sendable (ReconnectAttempt) -> Void) {
        let thread = Thread { [self] in watch(report: report) }
        thread.name = "roster-reconnect"
        thread.start()
    }

    /// Ends the watch after the current try (a wait ends at once).
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        wake.signal()
    }

    /// Ends the current wait: a lost connection is tried at once, a fine
    /// one looked at. For a sign that the server answers again (the change
    /// listener connected again), so that the screen heals within a second
    /// of it rather than at the next backoff step.
    public func tryNow() {
        wake.signal()
    }

    private func watch(report: @Sendable (ReconnectAttempt) -> Void) {
        var backoff = ReconnectBackoff(delays: delays)
        var wasLost = false
        while !stopped.load(ordering: .relaxed) {
            guard connection.isConnectionLost else {
                wasLost = false
                backoff.reset()
                sleep(poll)
                if !stopped.load(ordering: .relaxed), connection.hasPassingProblem, connection.checkPassingProblem() {
                    report(.recovered)
                }
                continue
            }
            if !wasLost {
                wasLost = true
                report(.lost)
            }
            sleep(backoff.nextDelay)
            backoff.tried()
            // `r` may have brought it back meanwhile, or the app ended.
            guard !stopped.load(ordering: .relaxed), connection.isConnectionLost else { continue }
            do throws(ReconnectFailure) {
                try connection.reconnect()
                report(.reconnected)
            } catch {
                report(.failed(error, nextTry: backoff.nextDelay))
            }
        }
    }

    /// Waits `duration`, or less when woken (`tryNow`, `stop`).
    private func sleep(_ duration: Duration) {
        _ = wake.wait(timeout: .now() + DispatchTimeInterval(duration))
    }
}
