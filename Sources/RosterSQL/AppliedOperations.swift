/// The edits a table has applied, by their operation id (`<table>_applied`):
/// an edit made offline and sent again (its reply was lost, or Roster was
/// killed before it crossed it off) is recognised, never applied twice. The
/// id is claimed in the edit's own transaction: both land, or neither.
enum AppliedOperations {
    static func createStatement(for table: PeopleTable) -> String {
        switch table.dialect {
        case .postgres:
            return "CREATE TABLE IF NOT EXISTS \(table.appliedOperations) (operation text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())"
        case .sqlite:
            return "CREATE TABLE IF NOT EXISTS \(table.appliedOperations) (operation TEXT PRIMARY KEY, at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
        }
    }

    /// Makes the table before the first edit sent with an id.
    static func make(for table: PeopleTable, _ connection: some EditingConnection) throws(DatabaseError) {
        let exists: [SQLRow]
        switch table.dialect {
        case .postgres:
            exists = try connection.rows("SELECT count(*) FROM pg_class WHERE oid = to_regclass($1)", [.text(table.appliedOperations)])
        case .sqlite:
            exists = try connection.rows("SELECT count(*) FROM sqlite_master WHERE name = ?1", [.text(table.name + "_applied")])
        }
        guard exists.first?.int(0) == 0 else { return }
        _ = try connection.rows(createStatement(for: table), [])
    }

    /// Claims `operation` inside the edit's transaction: false when it was
    /// applied before (the edit is then not made again).
    static func claim(_ operation: String, in table: PeopleTable, _ connection: some EditingConnection) throws(DatabaseError) -> Bool {
        let mark = table.dialect == .postgres ? "$1" : "?1"
        let claimed = try connection.rows("""
            INSERT INTO \(table.appliedOperations) (operation) VALUES (\(mark)) ON CONFLICT (operation) DO NOTHING RETURNING operation
            """, [.text(operation)])
        return !claimed.isEmpty
    }
}
