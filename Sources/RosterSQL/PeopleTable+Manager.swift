/// The people table's `manager` column: the reference to the person's
/// manager as the record gives it (an `_id`, an email, an LDAP DN or a full
/// name), NULL for none. `roster import` fills it from a file's `manager`
/// field; the org chart (`SQLOrgChartReading`) resolves it as a file's is.
///
/// Not among `columns`: a table an earlier Roster made lacks it and is
/// still browsed (its chart says nobody has a manager); an import or an
/// edit adds it (`addManagerColumn`). Only the reference is kept, not the
/// manager it resolves to: resolution depends on everyone (a name two
/// people share is ambiguous, an email changed elsewhere names someone
/// else), so a stored resolved key would go stale with edits of other rows.
extension PeopleTable {
    /// The column's name, which is also the field's name in files and commands.
    public static let managerColumnName = "manager"

    static let managerColumn = Column(name: managerColumnName, postgresType: "text", sqliteType: "TEXT")

    /// The columns an import writes: every column, then the manager.
    static var importedColumns: [Column] { columns + [managerColumn] }

    /// `importedColumns`, comma-separated.
    var importColumnList: String { Self.importedColumns.map(\.name).joined(separator: ", ") }

    /// The manager column's declaration in this dialect.
    var managerColumnDeclaration: String {
        "\(Self.managerColumnName) \(dialect == .postgres ? Self.managerColumn.postgresType : Self.managerColumn.sqliteType)"
    }

    /// The index the chart's and the person's screen's lookups of a
    /// manager's reports use (`WHERE manager = …`).
    var managerIndex: SecondaryIndex {
        let name = SQLText.identifier(name + "_manager")
        return SecondaryIndex(create: "CREATE INDEX IF NOT EXISTS \(name) ON \(table) (\(Self.managerColumnName))",
                              drop: "DROP INDEX IF EXISTS \(name)")
    }

    /// Adds the manager column (and its index) to a table made before it;
    /// true if it did. Idempotent: a table that has it is left alone.
    func addManagerColumn(_ connection: some EditingConnection) throws(DatabaseError) -> Bool {
        guard try !hasManagerColumn(connection.rows) else { return false }
        let ifNotExists = dialect == .postgres ? "IF NOT EXISTS " : ""
        _ = try connection.rows("ALTER TABLE \(table) ADD COLUMN \(ifNotExists)\(managerColumnDeclaration)", [])
        _ = try connection.rows(managerIndex.create, [])
        return true
    }

    /// Whether the people table has the manager column.
    func hasManagerColumn(_ query: (String, [SQLValue]) throws(DatabaseError) -> [SQLRow]) throws(DatabaseError) -> Bool {
        let rows: [SQLRow]
        switch dialect {
        case .postgres:
            rows = try query("""
                SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $2 AND NOT attisdropped
                """, [.text(table), .text(Self.managerColumnName)])
        case .sqlite:
            rows = try query("SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
                                       [.text(name), .text(Self.managerColumnName)])
        }
        return rows.first?.int(0) ?? 0 > 0
    }
}
