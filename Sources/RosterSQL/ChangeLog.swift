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
                operation text NOT NULL, version bigint, token text NOT NULL, at timestamptz NOT NULL DEFAULT now())
                """
        case .sqlite:
            return """
                CREATE TABLE IF NOT EXISTS \(table.changeLog) (seq INTEGER PRIMARY KEY AUTOINCREMENT, person_key TEXT, \
                operation TEXT NOT NULL, version INTEGER, token TEXT NOT NULL, at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)
                """
        }
    }

    /// Makes the log of a table an import made before there was one.
    static func make(for table: PeopleTable, _ connection: some EditingConnection) throws(DatabaseError) {
        let exists: [SQLRow]
        switch table.dialect {
        case .postgres: exists = try connection.rows("SELECT count(*) FROM pg_class WHERE oid = to_regclass($1)", [.text(table.changeLog)])
        case .sqlite: exists = try connection.rows("SELECT count(*) FROM sqlite_master WHERE name = ?1", [.text(table.name + "_changes")])
        }
        guard exists.first?.int(0) == 0 else { return }
        _ = try connection.rows(createStatement(for: table), [])
    }

    /// Records, inside the save's transaction, what it did to each person.
    static func record(_ operation: RecordOperation, version: Int64?, in table: PeopleTable,
                       _ connection: some EditingConnection) throws(DatabaseError) {
        let changed: (ids: [String], name: String)
        switch operation {
        case .update(let id, _): changed = ([id], "update")
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

    /// The highest number in the log (0 for none), nil where the table has no log.
    static func latest(of table: PeopleTable, _ session: some PeopleDatabaseSession) -> Int64? {
        (try? session.rows("SELECT coalesce(max(seq), 0) FROM \(table.changeLog)", []))?.first?.int(0)
    }

    /// The log's rows after `seq`, in order: their numbers and tokens.
    static func entries(of table: PeopleTable, after seq: Int64,
                        _ session: some PeopleDatabaseSession) throws(DatabaseError) -> [(seq: Int64, token: String)] {
        let mark = table.dialect == .postgres ? "$1" : "?1"
        return try session.rows("SELECT seq, token FROM \(table.changeLog) WHERE seq > \(mark) ORDER BY seq", [.int(seq)])
            .compactMap { row in row.int(0).map { ($0, row.text(1) ?? "") } }
    }
}
