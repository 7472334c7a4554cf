/// A repository over a connection that can break (a database server): it
/// says when the connection is lost, and connects again when asked (`r` in
/// the list, or the app's `ConnectionWatcher` on its own, with backoff).
///
/// A source read whole (a file) is not one: there is nothing to reconnect.
public protocol Reconnecting: AnyObject, Sendable {
    /// Whether the server went away: what is shown is cached rows only.
    var isConnectionLost: Bool { get }

    /// What the server or library said last, word for word (no password):
    /// one key away (`?`), never in the title. Nil when nothing failed.
    var problemDetail: String? { get }

    /// A file on this machine (SQLite): there is no server to reach again.
    var isLocal: Bool { get }

    /// Opens the connection(s) again and clears the problem the title
    /// showed; throws why not, the rows cached so far kept either way.
    /// Blocks while it connects: never call it where a key waits.
    func reconnect() throws(ReconnectFailure)

    /// Whether the title shows a passing problem (a lock another program
    /// holds, a statement that ran out of time), which ends on its own.
    var hasPassingProblem: Bool { get }

    /// Reads one row to see whether the passing problem is over; when it
    /// is, clears it (the title is back to normal) and returns true.
    /// Blocks up to the statement timeout: never call it where a key waits.
    func checkPassingProblem() -> Bool

    /// Reads one row over each connection to see whether they work now:
    /// true only when every read just succeeded. A read that fails because
    /// the connection is gone marks it lost (the title says so, and the
    /// watcher reconnects). Blocks up to the statement timeout: never call
    /// it where a key waits.
    func checkConnection() -> Bool
}

extension Reconnecting {
    public var problemDetail: String? { nil }
    public var isLocal: Bool { false }
    public var hasPassingProblem: Bool { false }
    public func checkPassingProblem() -> Bool { false }
    public func checkConnection() -> Bool { !isConnectionLost }
}

/// A source that is its own connection says so.
extension PeopleRepository where Self: Reconnecting {
    public var connection: (any Reconnecting)? { self }
}

/// A wrapper that is a connection itself (the offline copy) says so too.
extension DelegatingRepository where Self: Reconnecting {
    public var connection: (any Reconnecting)? { self }
}

/// Why reconnecting did not work: the target (without secrets), the
/// reason in a few words a user acts on, and what the library said.
public struct ReconnectFailure: Error, Equatable, Sendable {
    public let target: String
    public let reason: String
    public let detail: String?

    public init(target: String, reason: String, detail: String? = nil) {
        self.target = target
        self.reason = reason
        self.detail = detail
    }

    /// The status bar's line: the reason first and whole (the title names
    /// the target; `?` shows the detail).
    public var message: String { "still offline: \(reason)" }
}

/// `r` on any screen: connects `repository` again if it has a connection
/// to a server, through `reader` (off the main actor: connecting blocks),
/// and says how that went in a few words for the status bar
/// ("reconnected; read again", "still offline: …", "nothing to reconnect:
/// a local file"); `reconnected` tells the screen to read what it shows
/// again, which it always does after a connection that works.
///
/// A connection not known to be lost is read first: only a read that just
/// worked makes it "fine" (a server restarted since the last statement
/// would otherwise pass for one), and one that fails is connected again.
@MainActor
public enum Reconnection {
    /// What the status bar says while it connects.
    public static let inProgress = "reconnecting…"
    /// Said once a lost connection is back (and what the screen shows is read again).
    public nonisolated static let reconnected = "reconnected; read again"
    /// Said when a read over the connection just worked (and what the screen shows is read again).
    public nonisolated static let wasFine = "the connection was fine; read again"

    /// Whether `message` says the connection is back or fine ("reconnected;
    /// 2 offline edits sent", "reconnected: live again", `wasFine`): no
    /// longer true once it is lost again.
    public nonisolated static func saysConnected(_ message: String) -> Bool {
        message.hasPrefix("reconnected") || message.hasPrefix(wasFine)
    }

    public static func attempt(_ repository: any PeopleRepository, using reader: BackgroundReading,
                               then said: @escaping @MainActor @Sendable (_ message: String, _ reconnected: Bool) -> Void) {
        guard let connection = repository.connection else { return said(ConnectionStatus.nothingToReconnect, false) }
        // A database file has no server, but what failed to be read (a
        // lock held by another program) is read again.
        guard !connection.isLocal else { return said(ConnectionStatus.readAgain, true) }
        reader.perform({ () -> (String, Bool) in
            if !connection.isConnectionLost, connection.checkConnection() { return (wasFine, true) }
            do throws(ReconnectFailure) {
                try connection.reconnect()
                return (reconnected, true)
            } catch {
                return (error.message, false)
            }
        }) { said($0.0, $0.1) }
    }
}

/// How a try to reconnect on its own ended, for the list to say.
public enum ReconnectAttempt: Equatable, Sendable {
    /// The connection was found lost (by whatever read it last): the
    /// title says so now, even on a screen that reads nothing.
    case lost
    case reconnected
    /// A passing problem (a lock, a timeout) is over: nothing was lost,
    /// and what could not be read is read now.
    case recovered
    /// It failed; the next try comes after `nextTry`.
    case failed(ReconnectFailure, nextTry: Duration)
}

/// How long to wait before each try to reconnect on its own: 1 s after the
/// connection was lost, then 2, and every 4 s from then on: quick for a
/// restart, gentle for an outage (a try is one connection attempt, nothing
/// for a server to notice), and a server back after a long outage is seen
/// within 4 s (sooner when the change listener, which tries every second,
/// says it answers: `ConnectionWatcher.tryNow`). A connection that is back
/// starts the waits over.
public struct ReconnectBackoff: Sendable {
    public static let standard: [Duration] = [1, 2, 4].map { .seconds($0) }

    private let delays: [Duration]
    private var tries = 0

    public init(delays: [Duration] = standard) {
        precondition(!delays.isEmpty, "a backoff needs at least one delay")
        self.delays = delays
    }

    /// The wait before the next try (the last delay repeats).
    public var nextDelay: Duration { delays[min(tries, delays.count - 1)] }

    /// A try was made: the next wait is the following delay.
    public mutating func tried() { tries += 1 }

    /// The connection is back: the next loss starts with the first delay.
    public mutating func reset() { tries = 0 }
}
