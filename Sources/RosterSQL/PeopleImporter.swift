import Foundation
import RosterCore
import RosterStore

/// What an import did.
public struct ImportReport: Sendable, Equatable {
    /// People of the file written (added, or replacing the row with their key).
    public var written: Int
    /// Records of the file that a later record with the same `_id` replaced.
    public var duplicates: Int
    /// People in the table afterwards, and their companies (from the summary).
    public var tablePeople: Int
    public var companies: Int

    public init(written: Int, duplicates: Int, tablePeople: Int, companies: Int) {
        self.written = written
        self.duplicates = duplicates
        self.tablePeople = tablePeople
        self.companies = companies
    }
}

/// Where an import has got to, for a progress bar.
public enum ImportPhase: Sendable, Equatable {
    case writing(done: Int, total: Int)
    /// Moving the staged rows into the table (and its indexes).
    case merging
    /// Building the indexes over the rows loaded into an empty table.
    case indexing
    /// Recomputing the summary table.
    case summarizing
}

/// Loads a directory into a `PeopleTable`, creating what is missing, in one
/// transaction: a failure leaves the table as it was.
///
/// Into an empty table (the first import), the rows are loaded before
/// the secondary indexes exist, which are then built over the loaded rows
/// (and SQLite's FTS5 index rebuilt in one pass): many times faster than
/// growing a dozen indexes row by row. Into a table that has people, the
/// indexes stay and are kept up to date by the merge.
///
/// Rows first go to a temporary staging table (PostgreSQL by `COPY`,
/// SQLite by one prepared `INSERT`), then one statement merges them by
/// `person_key`, so importing the same file again replaces each person by
/// itself: the table ends the same however often it runs.
///
/// The summary table is recomputed from the whole table at the end of every
/// import (one `GROUP BY`), rather than kept by triggers: triggers would tax
/// every row of a ten-million-row load, and recomputing also repairs a
/// summary that other writers let drift. A company keeps the spelling of
/// the latest import that had it. (Tables changed by other means can be
/// summarised again by a later `roster refresh`, which would run the same.)
public struct PeopleImporter {
    public let table: PeopleTable
    /// Called on the importing thread as work advances.
    public var progress: (ImportPhase) -> Void

    public init(table: PeopleTable, progress: @escaping (ImportPhase) -> Void = { _ in }) {
        self.table = table
        self.progress = progress
    }

    private static let staging = "roster_import_staging"
    /// How many rows between two progress reports.
    private static let progressStep = 4096

    /// Imports `store` into PostgreSQL.
    public func importPeople(_ store: PeopleStore, into connection: PostgresConnection) throws(DatabaseError) -> ImportReport {
        precondition(table.dialect == .postgres, "a PostgreSQL import needs a PostgreSQL table")
        let staging = "pg_temp." + Self.staging
        return try connection.transaction { () throws(DatabaseError) -> ImportReport in
            for statement in table.tableStatements { try connection.execute(statement) }
            // One import at a time per table: the summary is computed from it.
            try connection.execute("LOCK TABLE \(table.table) IN SHARE ROW EXCLUSIVE MODE")
            let loadingEmpty = try isEmpty(connection.execute(emptinessQuery))
            for index in table.secondaryIndexes { try connection.execute(loadingEmpty ? index.drop : index.create) }
            // Only the imported columns: `LIKE` would copy row_id's NOT NULL.
            try connection.execute("CREATE TEMP TABLE \(Self.staging) ON COMMIT DROP AS SELECT \(table.columnList) FROM \(table.table) WITH NO DATA")
            let written = try connection.copy("COPY \(staging) (\(table.columnList)) FROM STDIN", rows: rows(of: store))
            progress(.merging)
            let duplicates = try connection.execute("SELECT count(*) - count(DISTINCT person_key) FROM \(staging)").first?.int(0) ?? 0
            try connection.execute(table.mergeStatement(from: staging))
            if loadingEmpty {
                progress(.indexing)
                // Index builds sort in this much memory before spilling to disk (default 64 MB).
                try connection.execute("SET LOCAL maintenance_work_mem = '512MB'")
                for index in table.secondaryIndexes { try connection.execute(index.create) }
            }
            progress(.summarizing)
            let totals = try summarize(totals: connection.execute(table.totalsQuery),
                                       existing: connection.execute("SELECT company_key, spelling FROM \(table.summaryTable)"),
                                       store: store)
            try connection.execute("DELETE FROM \(table.summaryTable)")
            try connection.copy("COPY \(table.summaryTable) (\(table.summaryColumns.joined(separator: ", "))) FROM STDIN",
                                rows: totals.map(\.values))
            // Fresh statistics, so that the planner sees the new rows at once.
            try connection.execute("ANALYZE \(table.table)")
            return report(written: written, duplicates: Int(duplicates), totals: totals)
        }
    }

    /// Imports `store` into SQLite.
    public func importPeople(_ store: PeopleStore, into connection: SQLiteConnection) throws(DatabaseError) -> ImportReport {
        precondition(table.dialect == .sqlite, "an SQLite import needs an SQLite table")
        let staging = "temp." + Self.staging
        // A page cache big enough for the indexes being built (the default
        // is 2 MB); this connection's alone, gone when it closes. The
        // journal mode and `synchronous` stay as they are: in one
        // transaction the rollback journal holds only the pages that
        // existed before (next to none in a new file) and the syncs happen
        // at commit, a few in all; WAL would write every page twice.
        try connection.execute("PRAGMA cache_size = -\(Self.sqliteCacheKiB)")
        return try connection.transaction { () throws(DatabaseError) -> ImportReport in
            for statement in table.tableStatements { try connection.execute(statement) }
            let loadingEmpty = try isEmpty(connection.query(emptinessQuery))
            for index in table.secondaryIndexes { try connection.execute(loadingEmpty ? index.drop : index.create) }
            try connection.execute("DROP TABLE IF EXISTS \(staging)")
            try connection.execute("CREATE TEMP TABLE \(Self.staging) AS SELECT * FROM \(table.table) WHERE 0")
            let placeholders = Array(repeating: "?", count: PeopleTable.columns.count).joined(separator: ", ")
            let insert = try connection.prepare("INSERT INTO \(staging) (\(table.columnList)) VALUES (\(placeholders))")
            var written = 0
            for row in rows(of: store) {
                try insert.run(row)
                written += 1
            }
            progress(.merging)
            let duplicates = try connection.query("SELECT count(*) - count(DISTINCT person_key) FROM \(staging)").first?.int(0) ?? 0
            try connection.execute(table.mergeStatement(from: staging))
            try connection.execute("DROP TABLE \(staging)")
            if loadingEmpty {
                progress(.indexing)
                for index in table.secondaryIndexes { try connection.execute(index.create) }
                // The triggers were not there for the load: fill the FTS5 index from the table at once.
                try connection.execute("INSERT INTO \(table.searchTable) (\(table.searchTable)) VALUES ('rebuild')")
            }
            progress(.summarizing)
            let totals = try summarize(totals: connection.query(table.totalsQuery),
                                       existing: connection.query("SELECT company_key, spelling FROM \(table.summaryTable)"),
                                       store: store)
            try connection.execute("DELETE FROM \(table.summaryTable)")
            let summaryPlaceholders = Array(repeating: "?", count: table.summaryColumns.count).joined(separator: ", ")
            let insertTotals = try connection.prepare(
                "INSERT INTO \(table.summaryTable) (\(table.summaryColumns.joined(separator: ", "))) VALUES (\(summaryPlaceholders))")
            for company in totals { try insertTotals.run(company.values) }
            try connection.execute("ANALYZE \(table.table)")
            return report(written: written, duplicates: Int(duplicates), totals: totals)
        }
    }

    /// SQLite's page cache during an import, in KiB.
    private static let sqliteCacheKiB = 256 * 1024

    /// One row (a 1) when the people table has nobody.
    private var emptinessQuery: String { "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM \(table.table))" }

    private func isEmpty(_ rows: [SQLRow]) -> Bool { !rows.isEmpty }

    /// The store's rows, reporting progress as they are taken.
    private func rows(of store: PeopleStore) -> some Sequence<[SQLValue]> {
        let progress = self.progress
        let total = store.count
        progress(.writing(done: 0, total: total))
        return ImportRows(store: store).enumerated().lazy.map { offset, row in
            if (offset + 1) % Self.progressStep == 0 || offset + 1 == total { progress(.writing(done: offset + 1, total: total)) }
            return row
        }
    }

    /// The summary rows from the table's totals: each company spelled as
    /// this import spells it, else as the summary did, else as some row does.
    private func summarize(totals: [SQLRow], existing: [SQLRow], store: PeopleStore) throws(DatabaseError) -> [CompanyTotals] {
        var spellings: [[UInt8]: String] = [:]
        for row in existing {
            if let key = row.bytes(0), let spelling = row.text(1) { spellings[key] = spelling }
        }
        for company in store.companies {
            spellings[company.key.isEmpty ? ImportRows.noCompanyKey : company.key] = company.name
        }
        return try totals.map { row throws(DatabaseError) -> CompanyTotals in
            let key = row.bytes(0) ?? []
            let spelling = spellings[key] ?? (key == ImportRows.noCompanyKey ? "" : (row.text(1) ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
            guard let company = CompanyTotals(totalsRow: row, spelling: spelling) else {
                throw DatabaseError(.failed, "the company totals of \(table.name) could not be read")
            }
            return company
        }
    }

    private func report(written: Int, duplicates: Int, totals: [CompanyTotals]) -> ImportReport {
        ImportReport(written: written - duplicates, duplicates: duplicates,
                     tablePeople: Int(totals.reduce(0) { $0 + $1.headcount }), companies: totals.count)
    }
}
