import Dispatch
import RosterCore

/// Tells when someone else changed a table the screens show.
public protocol TableChangeWatch: AnyObject, Sendable {
    /// `changed` runs (on the watch's own queue) after each change by someone else.
    func start(changed: @escaping @Sendable () -> Void)
    /// The table is about to be read again: what changed before is in that read.
    func countFromNow()
    func stop()
    /// `handler` is told (on the watch's own queue) when the watch's own
    /// connection to the server is lost (false) and when it is back (true):
    /// a sign for the screens' connection, which may have gone with it and
    /// may be tried again at once.
    func whenConnectionChanges(_ handler: @escaping @Sendable (_ isUp: Bool) -> Void)
}

extension TableChangeWatch {
    /// A file's watch has no connection to lose.
    public func whenConnectionChanges(_ handler: @escaping @Sendable (_ isUp: Bool) -> Void) {}
}

/// Tells when another connection changed an SQLite database (another
/// Roster's save, `roster update`, the `sqlite3` shell): SQLite has no
/// notifications, so the watch asks `PRAGMA data_version` twice a second,
/// on a queue of its own (a cheap read of the file's change counter).
/// It asks the connection this process saves through (`SQLiteWriter`),
/// whose version moves for every commit but its own: so our saves are
/// never taken for someone else's, nor someone else's, a moment after
/// ours, for ours. Never the browse connections: their reads go on meanwhile.
/// A file another program put at the path (a restore, `mv new.db
/// people.db`) is a change too: the connection is opened on it, and the
/// re-read that follows reads it (`SQLiteFileSession`).
public final class SQLiteChangeWatch: TableChangeWatch, @unchecked Sendable {
    private let writer: SQLiteWriter
    private let queue = DispatchQueue(label: "roster.sqlite-change-watch")
    private var timer: DispatchSourceTimer?
    /// The version changes are counted from (touched only on `queue`).
    private var counted: SQLiteWriter.Version?

    /// A watch on what others commit to the database `writer` saves to.
    init(writer: SQLiteWriter) {
        self.writer = writer
    }

    /// Asks every half second; `changed` runs on the watch's queue when
    /// the database moved on since the last count.
    public func start(changed: @escaping @Sendable () -> Void) {
        start(every: .milliseconds(500), changed: changed)
    }

    public func start(every interval: DispatchTimeInterval, changed: @escaping @Sendable () -> Void) {
        queue.sync { counted = writer.othersVersion() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in
            guard let self, let now = self.writer.othersVersion(), now != self.counted else { return }
            self.counted = now
            changed()
        }
        timer.resume()
        self.timer = timer
    }

    /// Changes are counted from now: the database is about to be read
    /// again (whatever changed before is in that read).
    public func countFromNow() {
        queue.sync { counted = writer.othersVersion() ?? counted }
    }

    public func stop() {
        timer?.cancel()
        timer = nil
    }

    deinit {
        timer?.cancel()
    }
}

extension SQLPeopleRepository {
    /// A watch on the table for others' changes: SQLite's data version, or
    /// PostgreSQL's notifications on a connection beside the browse lane's.
    public func changeWatch() -> (any TableChangeWatch)? {
        switch table.dialect {
        case .sqlite: return writer.map(SQLiteChangeWatch.init(writer:))
        case .postgres:
            // The listener connects on its own queue once started.
            return secondConnectionParameters().map { PostgresChangeListener(parameters: $0, table: table, since: changeLogPosition) }
        }
    }
}
