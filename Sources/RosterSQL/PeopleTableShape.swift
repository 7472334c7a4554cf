/// Whether the tables a user points Roster at are the ones `roster import`
/// makes: checked once when a database is opened, so that a missing table,
/// or a `people` table some other program made, is said in one line
/// naming the table and what to do, rather than as a failed query later.
extension PeopleTable {
    /// What is wrong, from the worst down; the first found is reported.
    public enum ShapeProblem: Sendable, Equatable {
        case missingTable
        /// Columns a Roster people table has and this one lacks.
        case missingColumns([String])
        /// `column is text, not bigint`, for each column of another type.
        case otherTypes([String])
        case missingSummary
        case summaryMissingColumns([String])
        /// SQLite only: the full-text table search uses.
        case missingSearchTable
        /// A summary row whose figures cannot be right (`SummaryFigures`):
        /// what is wrong, in words.
        case implausibleSummary(String)
    }

    /// Checks the people table, its summary (and in SQLite its search
    /// table) in PostgreSQL; throws a one-line error naming `target`.
    public func verify(_ connection: PostgresConnection, target: String) throws(DatabaseError) {
        func columns(of quotedName: String) throws(DatabaseError) -> [String: String]? {
            let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [.text(quotedName)])
            guard exists.first?.values.first == .bool(true) else { return nil }
            let rows = try connection.execute("""
                SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute \
                WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
                """, [.text(quotedName)])
            return Self.columnTypes(rows)
        }
        let problem = shapeProblem(table: try columns(of: table), summary: try columns(of: summaryTable), hasSearchTable: true)
        if let problem { throw error(problem, target: target) }
    }

    /// The same check in SQLite.
    public func verify(_ connection: SQLiteConnection, target: String) throws(DatabaseError) {
        func columns(of rawName: String) throws(DatabaseError) -> [String: String]? {
            let exists = try connection.query("SELECT count(*) FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?",
                                              [.text(rawName)])
            guard exists.first?.int(0) ?? 0 > 0 else { return nil }
            return Self.columnTypes(try connection.query("SELECT name, type FROM pragma_table_info(?)", [.text(rawName)]))
        }
        let people = try columns(of: name)
        let summary = try columns(of: name + "_companies")
        let hasSearch = try connection.query("SELECT count(*) FROM sqlite_schema WHERE name = ?", [.text(name + "_search")])
            .first?.int(0) ?? 0 > 0
        if let problem = shapeProblem(table: people, summary: summary, hasSearchTable: hasSearch) {
            throw error(problem, target: target)
        }
    }

    /// Name → type (lower case, first word: `text`, `bigint`) of each row.
    private static func columnTypes(_ rows: [SQLRow]) -> [String: String] {
        var types: [String: String] = [:]
        for row in rows {
            guard let name = row.text(0) else { continue }
            types[name] = (row.text(1) ?? "").lowercased().split(separator: " ").first.map(String.init) ?? ""
        }
        return types
    }

    /// The first problem with tables whose columns are `table` and
    /// `summary` (nil: the table is missing).
    func shapeProblem(table: [String: String]?, summary: [String: String]?, hasSearchTable: Bool) -> ShapeProblem? {
        guard let table else { return .missingTable }
        let missing = Self.columns.map(\.name).filter { table[$0] == nil }
        if !missing.isEmpty { return .missingColumns(missing) }
        let otherTypes = Self.columns.compactMap { column -> String? in
            let declared = dialect == .postgres ? column.postgresType : column.sqliteType
            let expected = declared.lowercased().split(separator: " ").first.map(String.init) ?? ""
            guard let actual = table[column.name], actual != expected else { return nil }
            return "\(column.name) is \(actual.isEmpty ? "untyped" : actual), not \(expected)"
        }
        if !otherTypes.isEmpty { return .otherTypes(otherTypes) }
        guard let summary else { return .missingSummary }
        let summaryMissing = summaryColumns.filter { summary[$0] == nil }
        if !summaryMissing.isEmpty { return .summaryMissingColumns(summaryMissing) }
        if dialect == .sqlite, !hasSearchTable { return .missingSearchTable }
        return nil
    }

    /// The `code` of the errors `verify` throws: their message is whole.
    public static let shapeCode = "roster-shape"

    /// One line: the target, the table, what is wrong, what to do.
    public func error(_ problem: ShapeProblem, target: String) -> DatabaseError {
        // Quoted (for the shell) only when the name needs it.
        let plain = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
        let tableOption = name == "people" ? "" : " --table " + (plain ? name : SQLText.identifier(name))
        let importHint = "roster import FILE --into \(target)\(tableOption)"
        let summaryName = name + "_companies"
        let message: String
        switch problem {
        case .missingTable:
            return DatabaseError(.missingTable, "\(target): there is no table \(name); make it with: \(importHint)", code: Self.shapeCode)
        case .missingColumns(let columns):
            message = "table \(name) is not a Roster people table (it has no column \(columns.prefix(4).joined(separator: ", "))"
                + (columns.count > 4 ? " and \(columns.count - 4) more" : "") + "); choose another with --table, or fill a new one with: \(importHint)"
        case .otherTypes(let columns):
            message = "table \(name) is not a Roster people table (\(columns.prefix(3).joined(separator: ", "))"
                + (columns.count > 3 ? " and \(columns.count - 3) more" : "") + "); choose another with --table, or fill a new one with: \(importHint)"
        case .missingSummary:
            return DatabaseError(.missingTable, "\(target): table \(name) has no company summary (table \(summaryName) is missing); "
                                 + "import again to make it: \(importHint)", code: Self.shapeCode)
        case .summaryMissingColumns(let columns):
            message = "table \(summaryName) is not the company summary Roster makes (it has no column "
                + "\(columns.joined(separator: ", "))); drop it and import again: \(importHint)"
        case .missingSearchTable:
            message = "table \(name) has no search table (\(name)_search is missing); import again to make it: \(importHint)"
        case .implausibleSummary(let what):
            message = "the company summary (table \(summaryName)) holds figures that cannot be right (\(what)); "
                + "import again to rebuild it: \(importHint)"
        }
        return DatabaseError(.failed, "\(target): \(message)", code: Self.shapeCode)
    }
}
