import Foundation
import RosterCore
import RosterStore

/// What an import did.
public struct ImportReport: Sendable, Equatable {
    /// People of the file written (added, or replacing the row with their key).
    public var written: Int
    /// Records of the file that a later record with the same `_id` replaced.
    public var duplicates: Int
    /// People in the table afterwards, their companies (from the summary;
    /// the people with no company are in none) and those with none.
    public var tablePeople: Int
    public var companies: Int
    public var peopleWithoutCompany: Int
    /// Of `written`: people the table did not have, people it had with
    /// other values, and people it already had exactly so.
    public var changes: ImportChanges
    /// PostgreSQL only: the people whose text held U+0000, which its text
    /// cannot store; each such character was written as U+FFFD (their
    /// "Name (_id X)", the first few).
    public var nulReplaced: Int = 0
    public var nulExamples: [String] = []
    /// Whether the table, made by an import from before edits, got its
    /// `version` column now.
    public var addedVersions = false

    public init(written: Int, duplicates: Int, tablePeople: Int, companies: Int, peopleWithoutCompany: Int = 0,
                changes: ImportChanges? = nil) {
        self.written = written
        self.duplicates = duplicates
        self.tablePeople = tablePeople
        self.companies = companies
        self.peopleWithoutCompany = peopleWithoutCompany
        self.changes = changes ?? ImportChanges(added: written, updated: 0, unchanged: 0)
    }
}

/// What an import did to the people it wrote.
public struct ImportChanges: Sendable, Equatable {
    public var added: Int
    public var updated: Int
    public var unchanged: Int

    public init(added: Int, updated: Int, unchanged: Int) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// Where an import has got to, for a progress bar.
public enum ImportPhase: Sendable, Equatable {
    /// Another import into the same database holds its lock.
    case waiting
    case writing(done: Int, total: Int)
    /// Moving `rows` staged rows into the table (and its indexes): one
    /// statement, so no steps within it.
    case merging(rows: Int)
    /// Building the indexes over the rows loaded into an empty table, one
    /// at a time.
    case indexing(done: Int, total: Int)
    /// Recomputing the summary table.
    case summarizing
    /// Making it all permanent.
    case committing
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

    /// The advisory lock every Roster import into a PostgreSQL database
    /// takes first (any table: the first one also creates the `pg_trgm`
    /// extension, which two at once would both try): "Roster" in ASCII.
    static let advisoryLock: Int64 = 0x526F_7374_6572

    /// Imports `store` into PostgreSQL; `managers`, per person of the
    /// store, the reference to their manager as the file gave it.
    public func importPeople(_ store: PeopleStore, managers: [String?]? = nil, into connection: PostgresConnection) throws(DatabaseError) -> ImportReport {
        precondition(table.dialect == .postgres, "a PostgreSQL import needs a PostgreSQL table")
        let staging = "pg_temp." + Self.staging
        return try connection.transaction { () throws(DatabaseError) -> ImportReport in
            try waitForOtherImports(on: connection)
            let addedVersions = try makeTables(connection)
            // One import at a time per table: the summary is computed from it.
            try connection.execute("LOCK TABLE \(table.table) IN SHARE ROW EXCLUSIVE MODE")
            let loadingEmpty = try isEmpty(connection.execute(emptinessQuery))
            for index in table.secondaryIndexes { try connection.execute(loadingEmpty ? index.drop : index.create) }
            let nul = NulTally()
            let written: Int, duplicates: Int64, changes: ImportChanges?
            var primaryKey: String?
            if loadingEmpty, ImportRows.keysAreUnique(in: store) {
                // Straight in, in browse order (see `browseOrder(of:)`), with
                // the primary key made after, as the other indexes are (kept
                // up row by row it cost the load 9 s of 23 at 1M people);
                // the keys are known to differ, so making it cannot fail.
                primaryKey = try connection.execute(
                    "SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'", [.text(table.table)]
                ).first?.text(0)
                if let primaryKey { try connection.execute("ALTER TABLE \(table.table) DROP CONSTRAINT \(SQLText.identifier(primaryKey))") }
                written = try connection.copy("COPY \(table.table) (\(table.importColumnList)) FROM STDIN",
                                              rows: rows(of: store, managers: managers, order: Self.browseOrder(of: store), nul: nul))
                (duplicates, changes) = (0, nil)
            } else {
                // Only the imported columns: `LIKE` would copy row_id's NOT NULL.
                try connection.execute("CREATE TEMP TABLE \(Self.staging) ON COMMIT DROP AS SELECT \(table.importColumnList) FROM \(table.table) WITH NO DATA")
                written = try connection.copy("COPY \(staging) (\(table.importColumnList)) FROM STDIN", rows: rows(of: store, managers: managers, nul: nul))
                progress(.merging(rows: written))
                duplicates = try connection.execute("SELECT count(*) - count(DISTINCT person_key) FROM \(staging)").first?.int(0) ?? 0
                changes = loadingEmpty ? nil : try ImportChanges(connection.execute(table.changesQuery(from: staging)))
                try connection.execute(table.mergeStatement(from: staging))
            }
            if loadingEmpty {
                // Index builds sort in this much memory before spilling to disk (default 64 MB).
                try connection.execute("SET LOCAL maintenance_work_mem = '512MB'")
                if let primaryKey {
                    try connection.execute("ALTER TABLE \(table.table) ADD CONSTRAINT \(SQLText.identifier(primaryKey)) PRIMARY KEY (person_key)")
                }
                try buildIndexes { sql throws(DatabaseError) in try connection.execute(sql) }
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
            try ChangeLog.recordImport(in: table, connection)
            progress(.committing)
            var result = report(written: written, duplicates: Int(duplicates), totals: totals, changes: changes)
            (result.nulReplaced, result.nulExamples) = (nul.positions.count, Self.examples(nul.positions, of: store))
            result.addedVersions = addedVersions
            return result
        }
    }

    /// Makes what is missing of the tables, and brings up to date what an
    /// earlier Roster made (a log without transaction ids, a table without
    /// versions); true when the table got its `version` column now.
    private func makeTables(_ connection: some EditingConnection) throws(DatabaseError) -> Bool {
        for statement in table.tableStatements { _ = try connection.rows(statement, []) }
        try ChangeLog.make(for: table, connection)
        _ = try table.addManagerColumn(connection)
        return try PeopleEditor(table: table).addVersionColumn(connection)
    }

    /// A second import waits here for the first to commit or roll back.
    private func waitForOtherImports(on connection: PostgresConnection) throws(DatabaseError) {
        let taken = try connection.execute("SELECT pg_try_advisory_xact_lock(\(Self.advisoryLock))").first?.values.first
        if taken != .bool(true) {
            progress(.waiting)
            try connection.execute("SELECT pg_advisory_xact_lock(\(Self.advisoryLock))")
        }
    }

    /// The first few people at `positions`, by name and `_id`, for a message.
    private static func examples(_ positions: [Int], of store: PeopleStore) -> [String] {
        positions.prefix(5).map { position in
            let person = store[position]
            return "\(person.fullName.isEmpty ? "(no name)" : person.fullName) (_id \(person.id.isEmpty ? "none" : person.id))"
        }
    }

    /// Imports `store` (and its people's `managers`) into SQLite.
    public func importPeople(_ store: PeopleStore, managers: [String?]? = nil, into connection: SQLiteConnection) throws(DatabaseError) -> ImportReport {
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
            let addedVersions = try makeTables(connection)
            let loadingEmpty = try isEmpty(connection.query(emptinessQuery))
            for index in table.secondaryIndexes { try connection.execute(loadingEmpty ? index.drop : index.create) }
            let placeholders = Array(repeating: "?", count: PeopleTable.importedColumns.count).joined(separator: ", ")
            var written = 0
            let duplicates: Int64, changes: ImportChanges?
            if loadingEmpty, ImportRows.keysAreUnique(in: store) {
                // Straight in, in browse order (see `browseOrder(of:)`).
                let insert = try connection.prepare("INSERT INTO \(table.table) (\(table.importColumnList)) VALUES (\(placeholders))")
                for row in rows(of: store, managers: managers, order: Self.browseOrder(of: store)) {
                    try insert.run(row)
                    written += 1
                }
                (duplicates, changes) = (0, nil)
            } else {
                try connection.execute("DROP TABLE IF EXISTS \(staging)")
                try connection.execute("CREATE TEMP TABLE \(Self.staging) AS SELECT * FROM \(table.table) WHERE 0")
                let insert = try connection.prepare("INSERT INTO \(staging) (\(table.importColumnList)) VALUES (\(placeholders))")
                for row in rows(of: store, managers: managers) {
                    try insert.run(row)
                    written += 1
                }
                progress(.merging(rows: written))
                duplicates = try connection.query("SELECT count(*) - count(DISTINCT person_key) FROM \(staging)").first?.int(0) ?? 0
                changes = loadingEmpty ? nil : try ImportChanges(connection.query(table.changesQuery(from: staging)))
                try connection.execute(table.mergeStatement(from: staging))
                try connection.execute("DROP TABLE \(staging)")
            }
            if loadingEmpty {
                try buildIndexes { sql throws(DatabaseError) in try connection.execute(sql) }
                // The triggers were not there for the load: fill the FTS5 index from the table at once.
                try connection.execute("INSERT INTO \(table.searchTable) (\(table.searchTable)) VALUES ('rebuild')")
            }
            let totals = try writeSummary(of: store, into: connection)
            try connection.execute("ANALYZE \(table.table)")
            try ChangeLog.recordImport(in: table, connection)
            progress(.committing)
            var result = report(written: written, duplicates: Int(duplicates), totals: totals, changes: changes)
            result.addedVersions = addedVersions
            return result
        }
    }

    /// The summary table written afresh from the table's rows (spellings
    /// kept from the one before); returns its figures.
    private func writeSummary(of store: PeopleStore, into connection: SQLiteConnection) throws(DatabaseError) -> [CompanyTotals] {
        progress(.summarizing)
        let totals = try summarize(totals: connection.query(table.totalsQuery),
                                   existing: connection.query("SELECT company_key, spelling FROM \(table.summaryTable)"),
                                   store: store)
        try connection.execute("DELETE FROM \(table.summaryTable)")
        let summaryPlaceholders = Array(repeating: "?", count: table.summaryColumns.count).joined(separator: ", ")
        let insertTotals = try connection.prepare(
            "INSERT INTO \(table.summaryTable) (\(table.summaryColumns.joined(separator: ", "))) VALUES (\(summaryPlaceholders))")
        for company in totals { try insertTotals.run(company.values) }
        return totals
    }

    /// Creates the secondary indexes one by one, saying how many are done.
    private func buildIndexes(_ execute: (String) throws(DatabaseError) -> Void) throws(DatabaseError) {
        let indexes = table.secondaryIndexes
        for (done, index) in indexes.enumerated() {
            progress(.indexing(done: done, total: indexes.count))
            try execute(index.create)
        }
        progress(.indexing(done: indexes.count, total: indexes.count))
    }

    /// SQLite's page cache during an import, in KiB.
    private static let sqliteCacheKiB = 256 * 1024

    /// One row (a 1) when the people table has nobody.
    private var emptinessQuery: String { "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM \(table.table))" }

    private func isEmpty(_ rows: [SQLRow]) -> Bool { !rows.isEmpty }

    /// The store's rows, reporting progress as they are taken (and, for
    /// PostgreSQL, noting who has a U+0000 in their text), in file order or
    /// in `order`.
    private func rows(of store: PeopleStore, managers: [String?]?, order: ContiguousArray<UInt32>? = nil, nul: NulTally? = nil) -> some Sequence<[SQLValue]> {
        let progress = self.progress
        let total = store.count
        progress(.writing(done: 0, total: total))
        return ImportRows(store: store, order: order, managers: managers).enumerated().lazy.map { offset, row in
            if (offset + 1) % Self.progressStep == 0 || offset + 1 == total { progress(.writing(done: offset + 1, total: total)) }
            if let nul, row.contains(where: { if case .text(let text) = $0 { text.utf8.contains(0) } else { false } }) {
                nul.positions.append(order.map { Int($0[offset]) } ?? offset)
            }
            return row
        }
    }

    /// Everyone in the list's first order (company, last name, first name,
    /// file position), as the browse index orders them: rows written so
    /// lie together on disk, and reading the list in order (`--list`, a
    /// screenful) reads the table front to back, not a page per row. Ties
    /// keep file order, so identical records without an `_id` are numbered
    /// (`#2`…) as in file order.
    private static func browseOrder(of store: PeopleStore) -> ContiguousArray<UInt32> {
        GroupedPeople(store: store, sort: .byLastName, byCompany: true).order
    }

    /// The positions of the people whose text holds U+0000.
    private final class NulTally {
        var positions: [Int] = []
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

    private func report(written: Int, duplicates: Int, totals: [CompanyTotals], changes: ImportChanges?) -> ImportReport {
        let withoutCompany = totals.first { $0.companyKey == ImportRows.noCompanyKey }
        return ImportReport(written: written - duplicates, duplicates: duplicates, tablePeople: Int(totals.reduce(0) { $0 + $1.headcount }),
                            companies: totals.count - (withoutCompany == nil ? 0 : 1),
                            peopleWithoutCompany: Int(withoutCompany?.headcount ?? 0), changes: changes)
    }
}
