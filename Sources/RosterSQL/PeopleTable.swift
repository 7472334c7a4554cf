import RosterCore

/// The tables `roster import` makes and fills, and the SQL repositories
/// read: the people, their search index and the per-company summary.
///
/// Every name is derived from the one the user gave (`--table NAME`,
/// default `people`) and reaches SQL only through `SQLText.identifier`.
///
/// The people table holds every field of a person as the file had it, plus
/// the keys the app computes while loading a file, stored once at import so
/// that the server sorts and matches exactly as the file source does:
///
/// - `company_key`, `last_key`, `first_key`: the folded bytes
///   (`TextFolding`) as binary (`bytea`, `BLOB`), which both servers order
///   byte by byte, whatever the database's collation. People without a
///   company get `company_key` = 0xFF, a byte no UTF-8 text holds, so they
///   sort last, as "No company" does.
/// - `position`: the record's place in the file it was last imported from;
///   people with the same name in the same company keep file order.
/// - The browse index (company_key, last_key, first_key, position,
///   person_key) gives the list's order for keyset paging.
/// - `search_text`: the folded company, last name, first name, "first
///   last", email, phone and address, one per line; what `/` matches.
///   Trigram-indexed: `pg_trgm` GIN for `LIKE`, SQLite FTS5 `trigram`.
/// - `person_key`, the primary key: the record's `_id`, or for a record
///   without one `(no _id) ` and a digest of its content (see `ImportRows`).
public struct PeopleTable: Sendable, Equatable {
    public enum Dialect: Sendable, Equatable {
        case postgres
        case sqlite
    }

    /// The table's name as the user gave it (unquoted).
    public let name: String
    public let dialect: Dialect

    /// PostgreSQL cuts identifiers at 63 bytes; the longest derived name
    /// adds 15 (`_search_delete`), so longer names could collide.
    public static let longestName = 48

    public init(name: String = "people", dialect: Dialect) throws(DatabaseError) {
        guard !name.isEmpty else { throw DatabaseError(.failed, "the table name is empty") }
        guard name.utf8.count <= Self.longestName else {
            throw DatabaseError(.failed, "the table name is longer than \(Self.longestName) bytes")
        }
        guard !name.utf8.contains(0) else { throw DatabaseError(.failed, "the table name holds a NUL character") }
        self.name = name
        self.dialect = dialect
    }

    /// The people table, quoted.
    public var table: String { SQLText.identifier(name) }
    /// The summary table: one row per company.
    public var summaryTable: String { SQLText.identifier(name + "_companies") }
    /// SQLite only: the FTS5 table over `search_text`.
    public var searchTable: String { SQLText.identifier(name + "_search") }
    /// The change log (`ChangeLog`).
    public var changeLog: String { SQLText.identifier(name + "_changes") }
    /// The edits sent with an operation id that landed (`AppliedOperations`).
    public var appliedOperations: String { SQLText.identifier(name + "_applied") }
    public var browseIndex: String { SQLText.identifier(name + "_browse") }

    /// The browse order's columns, in index order.
    public static let browseOrder = ["company_key", "last_key", "first_key", "position", "person_key"]

    /// One column: its name and its type in each dialect, and the person's
    /// text field it holds as the record has it, if any.
    public struct Column: Sendable, Equatable {
        public let name: String
        let postgresType: String
        let sqliteType: String
        var field: TextField?

        init(name: String, postgresType: String, sqliteType: String, field: TextField? = nil) {
            (self.name, self.postgresType, self.sqliteType, self.field) = (name, postgresType, sqliteType, field)
        }

        /// A text column holding `field` as the record spells it.
        static func text(_ field: TextField) -> Column {
            Column(name: field.columnName, postgresType: "text NOT NULL", sqliteType: "TEXT NOT NULL", field: field)
        }
    }

    /// The column holding `field` as the record has it: the one place the
    /// SQL back end names a person's text fields (search, order, counts).
    static func column(of field: TextField) -> String {
        guard let column = columns.first(where: { $0.field == field }) else {
            preconditionFailure("no column holds \(field)")
        }
        return column.name
    }

    /// The people table's columns, in the order `ImportRows` gives values:
    /// the keys, then the record's values in JSON's order (each text field
    /// in a column of `TextField.columnName`, the figures beside the text
    /// they follow), then what Roster derives from them.
    public static let columns: [Column] = [
        Column(name: "person_key", postgresType: "text NOT NULL PRIMARY KEY", sqliteType: "TEXT NOT NULL PRIMARY KEY"),
        Column(name: "position", postgresType: "bigint NOT NULL", sqliteType: "INTEGER NOT NULL"),
    ] + RecordValue.jsonOrder.flatMap { value -> [Column] in
        switch value {
        case .text(.balance):
            [.text(.balance), Column(name: "balance_cents", postgresType: "bigint", sqliteType: "INTEGER")]
        case .text(let field): [.text(field)]
        case .index: [Column(name: "record_index", postgresType: "bigint", sqliteType: "INTEGER")]
        case .isActive: [Column(name: "is_active", postgresType: "boolean", sqliteType: "INTEGER")]
        case .age: [Column(name: "age", postgresType: "integer", sqliteType: "INTEGER")]
        case .name: [.text(.firstName), .text(.lastName)]
        }
    } + [
        // Which fields the record had (`Person.presentTextFields`), so that
        // an export from the database writes what the file had.
        Column(name: "present_fields", postgresType: "integer NOT NULL", sqliteType: "INTEGER NOT NULL"),
        Column(name: "company_key", postgresType: "bytea NOT NULL", sqliteType: "BLOB NOT NULL"),
        Column(name: "last_key", postgresType: "bytea NOT NULL", sqliteType: "BLOB NOT NULL"),
        Column(name: "first_key", postgresType: "bytea NOT NULL", sqliteType: "BLOB NOT NULL"),
        Column(name: "search_text", postgresType: "text NOT NULL", sqliteType: "TEXT NOT NULL"),
    ]

    /// The summary's columns, in the order `CompanyTotals` gives values.
    /// `total_cents` is exact: `numeric` in PostgreSQL, decimal text in
    /// SQLite (whose integers stop at 64 bits, which two balances can pass).
    public var summaryColumns: [String] { ["company_key", "spelling", "headcount", "active", "balances", "total_cents", "ages", "age_sum"] }

    /// Each row's version: 0 as imported, one more at each edit, and at
    /// each import that changes the row (one that finds it as it was leaves
    /// it at its version); an edit based on another version
    /// is a conflict (`PeopleEditor`). Not among `columns`: a table an
    /// import made before edits lacks it, and is still browsed; editing or
    /// importing adds it.
    static let versionColumn = (postgres: "version bigint NOT NULL DEFAULT 0", sqlite: "version INTEGER NOT NULL DEFAULT 0")

    /// Statements that make whatever is missing (all `IF NOT EXISTS`).
    public var createStatements: [String] { tableStatements + secondaryIndexes.map(\.create) }

    /// The tables (people, summary, SQLite's FTS5 table) with only what
    /// a row's insert needs: the primary key.
    public var tableStatements: [String] {
        let columnList = Self.columns.map { column in
            "\(column.name) \(dialect == .postgres ? column.postgresType : column.sqliteType)"
        }.joined(separator: ", ")
        switch dialect {
        case .postgres:
            return [
                // pg_trgm is a trusted extension: a database owner may create it.
                "CREATE EXTENSION IF NOT EXISTS pg_trgm",
                "CREATE TABLE IF NOT EXISTS \(table) (\(columnList), \(managerColumnDeclaration), \(Self.versionColumn.postgres))",
                // A person's number for the app (`PersonID`): kept when an
                // import replaces the row; added to a table made before it.
                "ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS row_id bigint GENERATED BY DEFAULT AS IDENTITY",
                """
                CREATE TABLE IF NOT EXISTS \(summaryTable) (company_key bytea NOT NULL PRIMARY KEY, spelling text NOT NULL, \
                headcount bigint NOT NULL, active bigint NOT NULL, balances bigint NOT NULL, total_cents numeric NOT NULL, \
                ages bigint NOT NULL, age_sum bigint NOT NULL)
                """,
                ChangeLog.createStatement(for: self),
            ]
        case .sqlite:
            return [
                "CREATE TABLE IF NOT EXISTS \(table) (\(columnList), \(managerColumnDeclaration), \(Self.versionColumn.sqlite))",
                // External content: the FTS5 index holds only the trigrams.
                "CREATE VIRTUAL TABLE IF NOT EXISTS \(searchTable) USING fts5(search_text, content=\(table), tokenize='trigram')",
                """
                CREATE TABLE IF NOT EXISTS \(summaryTable) (company_key BLOB NOT NULL PRIMARY KEY, spelling TEXT NOT NULL, \
                headcount INTEGER NOT NULL, active INTEGER NOT NULL, balances INTEGER NOT NULL, total_cents TEXT NOT NULL, \
                ages INTEGER NOT NULL, age_sum INTEGER NOT NULL)
                """,
                ChangeLog.createStatement(for: self),
            ]
        }
    }

    /// Something kept in step with every row written (an index, or one of
    /// SQLite's triggers that keep the FTS5 table), which an import into an
    /// empty table drops and makes again after the load: building an index
    /// over loaded rows is far faster than growing it row by row.
    public struct SecondaryIndex: Sendable, Equatable {
        public let create: String
        public let drop: String
    }

    /// Every index and trigger beyond the tables, in creation order.
    public var secondaryIndexes: [SecondaryIndex] {
        func index(_ suffix: String, _ definition: String, unique: Bool = false) -> SecondaryIndex {
            let name = SQLText.identifier(name + suffix)
            return SecondaryIndex(create: "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(name) ON \(table) \(definition)",
                                  drop: "DROP INDEX IF EXISTS \(name)")
        }
        let browse = index("_browse", "(\(Self.browseOrder.joined(separator: ", ")))")
        switch dialect {
        case .postgres:
            return [
                index("_row_id", "(row_id)", unique: true),
                browse,
                managerIndex,
                index("_search", "USING gin (search_text gin_trgm_ops)"),
                index("_digits", "USING gin ((\(Dialect.postgres.phoneDigits("phone"))) gin_trgm_ops)"),
            ] + orderIndexes
        case .sqlite:
            // An external-content FTS5 table kept in step by triggers, the
            // pattern SQLite's documentation gives: any writer keeps it right.
            let search = searchTable
            func trigger(_ suffix: String, _ body: String) -> SecondaryIndex {
                let name = SQLText.identifier(name + suffix)
                return SecondaryIndex(create: "CREATE TRIGGER IF NOT EXISTS \(name) \(body)", drop: "DROP TRIGGER IF EXISTS \(name)")
            }
            return [browse, managerIndex] + orderIndexes + [
                trigger("_search_insert", """
                AFTER INSERT ON \(table) BEGIN \
                INSERT INTO \(search) (rowid, search_text) VALUES (new.rowid, new.search_text); END
                """),
                trigger("_search_delete", """
                AFTER DELETE ON \(table) BEGIN \
                INSERT INTO \(search) (\(search), rowid, search_text) VALUES ('delete', old.rowid, old.search_text); END
                """),
                trigger("_search_update", """
                AFTER UPDATE ON \(table) BEGIN \
                INSERT INTO \(search) (\(search), rowid, search_text) VALUES ('delete', old.rowid, old.search_text); \
                INSERT INTO \(search) (rowid, search_text) VALUES (new.rowid, new.search_text); END
                """),
            ]
        }
    }

    /// One index per order the list can show (`SQLOrder`), grouped by
    /// company and flat, so that every window is a keyset seek on an index.
    /// The browse index already serves the list's default order grouped.
    var orderIndexes: [SecondaryIndex] {
        SQLOrder.indexed.flatMap { order in
            [(true, "_by_"), (false, "_all_")].compactMap { grouped, infix -> SecondaryIndex? in
                if grouped, order == SQLOrder(.byLastName, dialect: dialect) { return nil }
                let columns = (grouped ? ["company_key"] : []) + order.prefix.map { "(\($0))" } + ["position"]
                let index = SQLText.identifier(name + infix + order.indexSuffix)
                return SecondaryIndex(create: "CREATE INDEX IF NOT EXISTS \(index) ON \(table) (\(columns.joined(separator: ", ")))",
                                      drop: "DROP INDEX IF EXISTS \(index)")
            }
        }
    }

    /// All columns, comma-separated, in `columns` order.
    var columnList: String { Self.columns.map(\.name).joined(separator: ", ") }

    /// Moves the staged rows into the table: a person already there (same
    /// `person_key`) is replaced, and of two staged rows with one key the
    /// later in the file wins. A row whose values are all as the table has
    /// them is left alone, its version with it: an edit (or a script's
    /// `--if-version`) based on it still holds.
    func mergeStatement(from staging: String) -> String {
        // A replaced row is a changed row: its version moves on, so that an
        // edit based on what it was is a conflict. One that only moved in
        // the file takes its new position and keeps its version.
        let same = sameValues(table, "excluded")
        let updates = (Self.importedColumns.dropFirst().map { "\($0.name) = excluded.\($0.name)" }
            + ["version = CASE WHEN \(same) THEN \(table).version ELSE \(table).version + 1 END"])
            .joined(separator: ", ")
        let changed = "NOT (\(same) AND \(table).position = excluded.position)"
        switch dialect {
        case .postgres:
            return """
            INSERT INTO \(table) (\(importColumnList)) SELECT DISTINCT ON (person_key) \(importColumnList) FROM \(staging) \
            ORDER BY person_key, position DESC ON CONFLICT (person_key) DO UPDATE SET \(updates) WHERE \(changed)
            """
        case .sqlite:
            // Rows go in file order, so a later duplicate updates an earlier
            // one; `WHERE true` settles SQLite's parse of ON CONFLICT.
            return """
            INSERT INTO \(table) (\(importColumnList)) SELECT \(importColumnList) FROM \(staging) WHERE true ORDER BY position \
            ON CONFLICT (person_key) DO UPDATE SET \(updates) WHERE \(changed)
            """
        }
    }

    /// True where the rows `left` and `right` hold the same person: every
    /// column equal, missing values alike, where each stands in its file
    /// aside. What an import counts as unchanged, and leaves so.
    func sameValues(_ left: String, _ right: String) -> String {
        let same = dialect == .postgres ? "IS NOT DISTINCT FROM" : "IS"
        return "(" + Self.importedColumns.dropFirst().filter { $0.name != "position" }
            .map { "\(left).\($0.name) \(same) \(right).\($0.name)" }.joined(separator: " AND ") + ")"
    }

    /// Per-company figures over the whole table. The balance sum is taken
    /// in two halves (high and low 32 bits) so that neither SQLite's 64-bit
    /// `sum` nor anything else can overflow; `CompanyTotals` joins them.
    var totalsQuery: String { totalsQuery(where: "1 = 1") }

    /// The same figures for the people meeting `condition` (a search's).
    func totalsQuery(where condition: String) -> String {
        """
        SELECT company_key, min(company), count(*), count(*) FILTER (WHERE is_active), count(balance_cents), \
        coalesce(sum(balance_cents >> 32), 0), coalesce(sum(balance_cents & 4294967295), 0), count(age), coalesce(sum(age), 0) \
        FROM \(table) WHERE \(condition) GROUP BY company_key
        """
    }
}
