import Foundation
import RosterCore
import RosterStore

/// A table's change log (`<table>_changes`): one row per person each save
/// changed, written in the save's own transaction, numbered by the server
/// (`seq`), with the saving process's token. Notifications only wake
/// other Rosters up; the log is what they read, from the last number they
/// saw: so a change made while one was not listening (its connection
/// lost, or not made yet) is caught up with, once, in the server's order.
public enum ChangeLog {
    /// The channel every save notifies (PostgreSQL), once per transaction.
    public static let channel = "roster_changes"
    /// This process, as its log rows and notifications name it.
    public static let token = UUID().uuidString

    /// What a save in this process notifies: the table, then the process.
    static func payload(table: String) -> String { table + "\t" + token }

    static func createStatement(for table: PeopleTable) -> String {
        switch table.dialect {
        case .postgres:
            return """
                CREATE TABLE IF NOT EXISTS \(table.changeLog) (seq bigserial PRIMARY KEY, person_key text, \
                operation text NOT NULL, version bigint, token text NOT NULL, at timestamptz NOT NULL DEFAULT now(), \
                \(transactionColumn) xid8 DEFAULT pg_current_xact_id())
                """
        case .sqlite:
            return """
                CREATE TABLE IF NOT EXISTS \(table.changeLog) (seq INTEGER PRIMARY KEY AUTOINCREMENT, person_key TEXT, \
                operation TEXT NOT NULL, version INTEGER, token TEXT NOT NULL, at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)
                """
        }
    }

    /// PostgreSQL: the transaction that wrote each row. `seq` is taken at
    /// the insert, not at the commit: a save numbered 3 can commit after
    /// one numbered 4, so "after 4" is no place to read on from. Which
    /// transactions a reader had seen is exact (`Position.snapshot`).
    static let transactionColumn = "transaction_id"

    /// Makes the log of a table an import made before there was one, and
    /// brings a PostgreSQL log from before `transactionColumn` up to date
    /// (rows logged before it have none, and are older than any reader).
    /// Asks first: an `ALTER` would hold up every reader of the log.
    static func make(for table: PeopleTable, _ connection: some EditingConnection) throws(DatabaseError) {
        switch table.dialect {
        case .sqlite:
            let exists = try connection.rows("SELECT count(*) FROM sqlite_master WHERE name = ?1", [.text(table.name + "_changes")])
            if exists.first?.int(0) == 0 { _ = try connection.rows(createStatement(for: table), []) }
        case .postgres:
            let index = SQLText.identifier(table.name + "_changes_xact")
            let state = try connection.rows("""
                SELECT (to_regclass($1) IS NOT NULL)::int, \(hasTransactions("$1"))::int, (to_regclass($2) IS NOT NULL)::int
                """, [.text(table.changeLog), .text(index)]).first
            if state?.int(0) == 0 { _ = try connection.rows(createStatement(for: table), []) }
            do throws(DatabaseError) {
                if state?.int(1) == 0 {
                    _ = try connection.rows("ALTER TABLE \(table.changeLog) ADD COLUMN IF NOT EXISTS \(transactionColumn) xid8", [])
                    _ = try connection.rows("ALTER TABLE \(table.changeLog) ALTER COLUMN \(transactionColumn) SET DEFAULT pg_current_xact_id()", [])
                }
                if state?.int(2) == 0 {
                    _ = try connection.rows("CREATE INDEX IF NOT EXISTS \(index) ON \(table.changeLog) (\(transactionColumn))", [])
                }
            } catch where error.code == insufficientPrivilege {
                // A user who may write the log but not change it: it is read by number until its owner saves or imports.
            }
        }
    }

    /// PostgreSQL's SQLSTATE for a statement the user may not run (here: not the table's owner).
    static let insufficientPrivilege = "42501"

    /// SQL true when the log named by the text `parameter` has `transactionColumn`.
    private static func hasTransactions(_ parameter: String) -> String {
        """
        EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass(\(parameter)) \
        AND attname = '\(transactionColumn)' AND NOT attisdropped)
        """
    }

    /// Records, inside the save's transaction, what it did to each person.
    static func record(_ operation: RecordOperation, version: Int64?, in table: PeopleTable,
                       _ connection: some EditingConnection) throws(DatabaseError) {
        let changed: (ids: [String], name: String)
        switch operation {
        case .update(let id, _), .setManager(let id, _): changed = ([id], "update")
        case .add(let id, _): changed = ([id], "add")
        case .delete(let ids): changed = (ids, "delete")
        case .restore(let records): changed = (records.map(\.id), "add")
        }
        let marks = table.dialect == .postgres ? ["$1", "$2", "$3", "$4"] : ["?1", "?2", "?3", "?4"]
        for id in changed.ids {
            _ = try connection.rows("INSERT INTO \(table.changeLog) (person_key, operation, version, token) VALUES (\(marks.joined(separator: ", ")))",
                                    [.text(id), .text(changed.name), .int(changed.name == "delete" ? nil : version), .text(token)])
        }
    }

    /// Records, inside an import's transaction, that it ran: one row (not
    /// one per person), and one notification. Other Rosters read the table again.
    static func recordImport(in table: PeopleTable, _ connection: some EditingConnection) throws(DatabaseError) {
        let marks = table.dialect == .postgres ? ("$1", "$2") : ("?1", "?2")
        _ = try connection.rows("INSERT INTO \(table.changeLog) (operation, token) VALUES ('import', \(marks.0))", [.text(token)])
        if table.dialect == .postgres {
            _ = try connection.rows("SELECT pg_notify(\(marks.0), \(marks.1))", [.text(channel), .text(payload(table: table.name))])
        }
    }

    /// How far a reader of the log has read: the highest number it saw,
    /// and (PostgreSQL) the snapshot it read in. Every row written by a
    /// transaction that snapshot did not see is new to it, whatever its
    /// number: none is passed over because a lower number committed late.
    struct Position: Sendable, Equatable {
        let seq: Int64
        /// `pg_current_snapshot()` as text; nil for SQLite (one writer at
        /// a time: numbers follow commits) and for a log from before
        /// `transactionColumn` (read by number, until a save brings it up to date).
        let snapshot: String?
    }

    /// Where the log stands now; nil where the table has no log.
    static func position(of table: PeopleTable, _ session: some PeopleDatabaseSession) -> Position? {
        let sql = switch table.dialect {
        case .postgres:
            "SELECT coalesce(max(seq), 0), CASE WHEN \(hasTransactions("$1")) THEN pg_current_snapshot()::text END FROM \(table.changeLog)"
        case .sqlite: "SELECT coalesce(max(seq), 0), NULL FROM \(table.changeLog)"
        }
        let parameters: [SQLValue] = table.dialect == .postgres ? [.text(table.changeLog)] : []
        guard let row = (try? session.rows(sql, parameters))?.first, let seq = row.int(0) else { return nil }
        return Position(seq: seq, snapshot: row.text(1))
    }

    /// One row of the log: its number, and the token of the process that wrote it.
    struct Entry: Equatable {
        let seq: Int64
        let token: String
    }

    /// The log's rows written since `position` (in order of their
    /// numbers), and where that leaves the reader.
    static func changes(of table: PeopleTable, after position: Position, _ session: some PeopleDatabaseSession)
        throws(DatabaseError) -> (entries: [Entry], position: Position) {
        guard table.dialect == .postgres else {
            let entries = try session.rows("SELECT seq, token FROM \(table.changeLog) WHERE seq > ?1 ORDER BY seq", [.int(position.seq)])
                .compactMap { row in row.int(0).map { Entry(seq: $0, token: row.text(1) ?? "") } }
            return (entries, Position(seq: entries.last?.seq ?? position.seq, snapshot: nil))
        }
        // One statement, so that the snapshot it returns is the one it read in.
        let (unseen, parameters): (String, [SQLValue]) = if let snapshot = position.snapshot {
            ("l.\(transactionColumn) >= pg_snapshot_xmin($2::pg_snapshot) AND NOT pg_visible_in_snapshot(l.\(transactionColumn), $2::pg_snapshot)",
             [.text(table.changeLog), .text(snapshot)])
        } else {
            ("l.seq > $2", [.text(table.changeLog), .int(position.seq)])
        }
        let rows = try session.rows("""
            SELECT CASE WHEN \(hasTransactions("$1")) THEN pg_current_snapshot()::text END, l.seq, l.token \
            FROM (SELECT 1) AS reading LEFT JOIN \(table.changeLog) AS l ON \(unseen) ORDER BY l.seq
            """, parameters)
        let entries = rows.compactMap { row in row.int(1).map { Entry(seq: $0, token: row.text(2) ?? "") } }
        let seq = max(position.seq, entries.map(\.seq).max() ?? 0)
        return (entries, Position(seq: seq, snapshot: rows.first?.text(0)))
    }
}
