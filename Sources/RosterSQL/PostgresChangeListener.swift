import CLibpq
import Dispatch
import Foundation
import RosterCore

/// Tells when another Roster (or `roster update`) saved to a PostgreSQL
/// table: every save writes the table's change log and notifies one
/// channel in its own transaction (so the notification comes at commit,
/// once per save, never per row). This listens on a connection of its own,
/// whose socket Dispatch polls: no thread waits on it, and the table is
/// never polled. A notification only wakes it: it then reads the log for
/// what it has not seen (`ChangeLog.changes`: by transaction, so a save
/// that took its number before another's and committed after is still
/// read), so saves of this process's own (its token) are told apart, and
/// none is seen twice.
///
/// When its connection is lost (the server restarted, the backend was
/// ended), or cannot be made at first, it connects again every second,
/// listens, and reads the log from where it was: what was saved meanwhile
/// is caught up with, once. It connects on its queue, never under the
/// browse lane: a server that stops answering while it connects holds up
/// only the listener (and for at most its connect timeout and
/// `PostgresConnection.setUpWithin`), never the screen's reads.
public final class PostgresChangeListener: TableChangeWatch, @unchecked Sendable {
    // Unchecked: every stored property below is touched only on `queue`.
    private let parameters: PostgresConnection.Parameters
    private var connection: PostgresConnection?
    private let table: PeopleTable
    /// Whose log rows are this process's own (the tests play another process).
    private let ownToken: String
    private let queue = DispatchQueue(label: "roster.postgres-listener")
    private var source: DispatchSourceRead?
    private var retry: DispatchSourceTimer?
    private var changed: (@Sendable () -> Void)?
    private var connectionChanged: (@Sendable (Bool) -> Void)?
    /// How far the log has been read: nil where the table has no log
    /// (then every notification from another process counts).
    private var seen: ChangeLog.Position?
    private var isStopped = false

    /// Listens with a connection of its own made from `parameters` (the
    /// browsing connection's: the same server, user and password), for
    /// saves to `table` after the log's place `since` (what the table's
    /// read already showed). Connects once started.
    init(parameters: PostgresConnection.Parameters, table: PeopleTable, since: ChangeLog.Position?, ownToken: String = ChangeLog.token) {
        self.parameters = parameters
        self.table = table
        self.ownToken = ownToken
        seen = since
    }

    /// Listens beside `browsing`, as `init(parameters:…)`.
    convenience init(beside browsing: PostgresConnection, table: PeopleTable, since: ChangeLog.Position?,
                     ownToken: String = ChangeLog.token) throws(DatabaseError) {
        self.init(parameters: try browsing.parameters(), table: table, since: since, ownToken: ownToken)
    }

    public func start(changed: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            self.changed = changed
            guard connect() else { return lost() }
            watch()
            catchUp()  // what was saved between the table's read and the LISTEN
        }
    }

    /// Makes the listening connection and listens on it; false if either
    /// failed (the server away, or not answering within its deadlines).
    private func connect() -> Bool {
        guard let made = try? PostgresConnection(duplicating: parameters),
              (try? made.settingUp({ made throws(DatabaseError) -> Void in
                  try made.execute("SET application_name = '\(Self.applicationName)'")
                  try made.execute("LISTEN \(SQLText.identifier(ChangeLog.channel))")
                  // A log made since the table was read (or none was there).
                  if seen == nil { seen = ChangeLog.position(of: table, made) }
              })) != nil else { return false }
        connection = made
        return true
    }

    /// The table is about to be read again: what the log holds now is in that read.
    public func countFromNow() {
        queue.async { [self] in
            if let connection, let now = ChangeLog.position(of: table, connection) { seen = now }
        }
    }

    public func whenConnectionChanges(_ handler: @escaping @Sendable (_ isUp: Bool) -> Void) {
        queue.async { [self] in connectionChanged = handler }
    }

    public func stop() {
        queue.async { [self] in
            isStopped = true
            source?.cancel()
            retry?.cancel()
        }
    }

    /// What the listening connection is called in `pg_stat_activity`.
    static let applicationName = "roster listener"

    private func watch() {
        guard let connection else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: connection.socket, queue: queue)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            guard let payloads = connection.takeNotifications() else { return self.lost() }
            let forTable = payloads.filter { $0.split(separator: "\t", maxSplits: 1).first.map(String.init) == self.table.name }
            guard !forTable.isEmpty else { return }
            if self.seen == nil {
                // No log to read: the notifications alone tell.
                if forTable.contains(where: { !$0.hasSuffix("\t" + self.ownToken) }) { self.changed?() }
            } else {
                self.catchUp()
            }
        }
        source.resume()
        self.source = source
    }

    /// Reads what the log holds that was not seen; tells of changes by others.
    private func catchUp(afterReconnecting: Bool = false) {
        guard let connection, let from = seen, let read = try? ChangeLog.changes(of: table, after: from, connection) else {
            if afterReconnecting { changed?() }  // no log to tell what was missed: read it all again
            return
        }
        seen = read.position
        if read.entries.contains(where: { $0.token != ownToken }) { changed?() }
    }

    /// The connection went: try again every second until it comes back.
    private func lost() {
        source?.cancel()
        source = nil
        guard !isStopped, retry == nil else { return }
        connectionChanged?(false)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in
            guard let self, !self.isStopped else { return }
            let hadLog = self.seen != nil
            guard self.connect() else { return }
            self.retry?.cancel()
            self.retry = nil
            self.connectionChanged?(true)
            self.watch()
            // Without a log to say what was missed, everything is read again.
            if hadLog { self.catchUp(afterReconnecting: true) } else { self.changed?() }
        }
        timer.resume()
        retry = timer
    }

    deinit {
        source?.cancel()
        retry?.cancel()
    }
}
