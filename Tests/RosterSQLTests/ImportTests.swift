import TestServers
import Foundation
import RosterCore
import RosterStore
import RosterSQL
import TestSupport
import Testing
import TestTraits

/// A fresh database of either kind, with the few calls the tests need.
private final class TestDatabase {
    let dialect: PeopleTable.Dialect
    private var postgres: PostgresConnection?
    private var sqlite: SQLiteConnection?
    private var sqlitePath: String?

    init(_ dialect: PeopleTable.Dialect) throws {
        self.dialect = dialect
        switch dialect {
        case .postgres:
            let server = try TestPostgres.server()
            postgres = try PostgresConnection(server.conninfo(database: server.makeDatabase()))
        case .sqlite:
            let path = NSTemporaryDirectory() + "roster-import-\(UUID().uuidString).db"
            sqlitePath = path
            sqlite = try SQLiteConnection(path: path, access: .readWrite)
        }
    }

    deinit {
        sqlite = nil
        if let sqlitePath { try? FileManager.default.removeItem(atPath: sqlitePath) }
    }

    /// `$n` or `?n`: the n-th bound parameter.
    func parameter(_ number: Int) -> String { dialect == .postgres ? "$\(number)" : "?\(number)" }

    func query(_ sql: String, _ parameters: [SQLValue] = []) throws -> [SQLRow] {
        if let postgres { return try postgres.execute(sql, parameters) }
        return try sqlite?.query(sql, parameters) ?? []
    }

    @discardableResult
    func importPeople(_ store: PeopleStore, table name: String = "people") throws -> ImportReport {
        let importer = try PeopleImporter(table: PeopleTable(name: name, dialect: dialect))
        if let postgres { return try importer.importPeople(store, into: postgres) }
        guard let sqlite else { throw DatabaseError(.failed, "no database") }
        return try importer.importPeople(store, into: sqlite)
    }
}

private func bundledDirectory() async throws -> LoadedDirectory {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/people.json").standardizedFileURL.path
    return try await PeopleLoader().load(path: path, sourceName: "people.json")
}

@Suite(.blockingWork) struct ImportTests {
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func theBundledDirectoryArrivesWithExactCompanyTotals(dialect: PeopleTable.Dialect) async throws {
        let directory = try await bundledDirectory()
        let database = try TestDatabase(dialect)
        let report = try database.importPeople(directory.store)
        #expect(report == ImportReport(written: 400, duplicates: 0, tablePeople: 400, companies: 33, peopleWithoutCompany: 5))
        #expect(try database.query("SELECT count(*) FROM people").first?.int(0) == 400)
        let table = try PeopleTable(dialect: dialect)
        let rows = try database.query("SELECT \(table.summaryColumns.joined(separator: ", ")) FROM \(table.summaryTable) ORDER BY company_key")
        let summary = rows.compactMap(CompanyTotals.init(summaryRow:))
        let store = directory.store
        let expected = CompanySummary.all(in: store, grouped: GroupedPeople(store: store)).map { company in
            let key = store.companies[company.companyID].key
            return CompanyTotals(companyKey: key.isEmpty ? ImportRows.noCompanyKey : key,
                                 spelling: key.isEmpty ? "" : company.title, headcount: Int64(company.headcount),
                                 active: Int64(company.active), balances: Int64(company.balances), totalCents: company.totalCents,
                                 ages: Int64(company.ages), ageSum: Int64(company.ageSum))
        }
        #expect(summary.count == rows.count)
        #expect(summary == expected)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func importingTheSameFileAgainChangesNothing(dialect: PeopleTable.Dialect) async throws {
        let directory = try await bundledDirectory()
        let database = try TestDatabase(dialect)
        let columns = PeopleTable.columns.map(\.name).joined(separator: ", ")
        try database.importPeople(directory.store)
        let before = try database.query("SELECT \(columns) FROM people ORDER BY person_key")
        let summaryBefore = try database.query("SELECT * FROM people_companies ORDER BY company_key")
        let again = try database.importPeople(directory.store)
        #expect(again.tablePeople == 400)
        #expect(try database.query("SELECT \(columns) FROM people ORDER BY person_key") == before)
        #expect(try database.query("SELECT * FROM people_companies ORDER BY company_key") == summaryBefore)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func theFoldedSearchColumnFindsJoseAsTheFileSourceDoes(dialect: PeopleTable.Dialect) async throws {
        let directory = try await bundledDirectory()
        let database = try TestDatabase(dialect)
        try database.importPeople(directory.store)
        let store = directory.store
        for typed in ["jose", "JOSÉ", "garza", "'); drop table people; --"] {
            let query = SearchQuery(typed)
            let folded = String(decoding: TextFolding.foldedBytes(typed), as: UTF8.self)
            let sql = dialect == .postgres
                ? "SELECT person_key FROM people WHERE search_text LIKE $1 ESCAPE '\\' ORDER BY person_key"
                : "SELECT person_key FROM people WHERE rowid IN (SELECT rowid FROM people_search WHERE people_search MATCH ?1) ORDER BY person_key"
            let pattern = dialect == .postgres ? SQLText.containsPattern(folded) : SQLText.ftsPhrase(folded)
            let found = try database.query(sql, [.text(pattern)]).compactMap { $0.text(0) }
            let everyone = GroupedPeople(store: store)
            let expected = try #require(PeopleSearch.filter(everyone, store: store, query: query)).grouped.order
                .map { store[Int($0)].id }.sorted()
            #expect(found == expected, "\(typed)")
        }
        #expect(try database.query("SELECT count(*) FROM people").first?.int(0) == 400)
        #expect(try database.query("SELECT count(*) FROM people WHERE first_name = \(database.parameter(1))", [.text("José")])
            .first?.int(0) ?? 0 > 0)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func keysetWindowsOverTheBrowseIndexFollowTheListOrder(dialect: PeopleTable.Dialect) async throws {
        let directory = try await bundledDirectory()
        let database = try TestDatabase(dialect)
        try database.importPeople(directory.store)
        let store = directory.store
        let listOrder = GroupedPeople(store: store).order.map { store[Int($0)].id }
        let keys = PeopleTable.browseOrder.joined(separator: ", ")
        let window = 25
        let first = try database.query("SELECT person_key FROM people ORDER BY \(keys) LIMIT \(window)").compactMap { $0.text(0) }
        #expect(first == Array(listOrder[0..<window]))
        // The row before the middle window is the cursor ("last seen").
        let cursorID = listOrder[199]
        let cursor = try #require(try database.query("SELECT \(keys) FROM people WHERE person_key = \(database.parameter(1))",
                                                     [.text(cursorID)]).first)
        let placeholders = (1...5).map(database.parameter).joined(separator: ", ")
        let middle = try database.query("SELECT person_key FROM people WHERE (\(keys)) > (\(placeholders)) ORDER BY \(keys) LIMIT \(window)",
                                        cursor.values).compactMap { $0.text(0) }
        #expect(middle == Array(listOrder[200..<(200 + window)]))
        // The browse index serves that query's range and order (no sort): on
        // 400 rows a planner may still prefer a scan, so scans are put aside.
        let windowQuery = "SELECT person_key FROM people WHERE (\(keys)) > (\(placeholders)) ORDER BY \(keys) LIMIT \(window)"
        let plan: String
        if dialect == .postgres {
            _ = try database.query("SET enable_seqscan = off")
            _ = try database.query("SET enable_sort = off")
            plan = try database.query("EXPLAIN " + windowQuery, cursor.values).compactMap { $0.text(0) }.joined(separator: "\n")
        } else {
            plan = try database.query("EXPLAIN QUERY PLAN " + windowQuery, cursor.values).compactMap { $0.text(3) }.joined(separator: "\n")
        }
        #expect(plan.contains("people_browse"), "\(plan)")
        #expect(!plan.contains("Sort") && !plan.contains("TEMP B-TREE"), "\(plan)")
        // And the whole table, window by window, is the list.
        var everyone: [String] = []
        var last: [SQLValue]?
        while true {
            let rows = try last.map { try database.query("SELECT \(keys) FROM people WHERE (\(keys)) > (\(placeholders)) ORDER BY \(keys) LIMIT 64", $0) }
                ?? database.query("SELECT \(keys) FROM people ORDER BY \(keys) LIMIT 64")
            guard let final = rows.last else { break }
            everyone += rows.compactMap { $0.text(4) }
            last = final.values
        }
        #expect(everyone == listOrder)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func oddTableNamesPeopleWithoutIDAndRepeatedIDs(dialect: PeopleTable.Dialect) async throws {
        let records = [
            Fixtures.record(first: "Ann", last: "Lee", index: 1),
            Fixtures.record(first: "Ann", last: "Lee-Smith", index: 1),  // the same _id again: this one wins
            #"{"name": {"first": "Bo", "last": "Tan"}, "company": "Zeta"}"#,
            #"{"name": {"first": "Bo", "last": "Tan"}, "company": "Zeta"}"#,  // no _id, identical: a second person
            #"{"name": {"first": "Cy", "last": "Orr"}}"#,
        ]
        let directory = try Fixtures.directory(json: Fixtures.array(records))
        let database = try TestDatabase(dialect)
        let name = #"people"; DROP TABLE people; --"#
        let quoted = SQLText.identifier(name)
        let report = try database.importPeople(directory.store, table: name)
        #expect(report == ImportReport(written: 4, duplicates: 1, tablePeople: 4, companies: 2, peopleWithoutCompany: 1))
        // Again: the same people, each unchanged (the later of two with one _id compared).
        #expect(try database.importPeople(directory.store, table: name)
            == ImportReport(written: 4, duplicates: 1, tablePeople: 4, companies: 2, peopleWithoutCompany: 1, changes: ImportChanges(added: 0, updated: 0, unchanged: 4)))
        let keys = try database.query("SELECT person_key, last_name FROM \(quoted) ORDER BY person_key").map { [$0.text(0) ?? "", $0.text(1) ?? ""] }
        #expect(keys.count == 4)
        #expect(keys.contains(["id1", "Lee-Smith"]))
        #expect(keys.filter { $0[0].hasPrefix(ImportRows.noIDPrefix) }.count == 3)
        #expect(keys.contains { $0[0].hasSuffix(" #2") })
        let noCompany = try database.query("SELECT spelling, headcount FROM \(SQLText.identifier(name + "_companies")) WHERE company_key = \(database.parameter(1))",
                                           [.bytes(ImportRows.noCompanyKey)])
        #expect(noCompany.first == SQLRow([.text(""), .int(1)]))
    }

    /// A first import loads, then builds the indexes (and SQLite's FTS5
    /// index) over the rows; later imports keep them up to date instead.
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func indexesBuiltAfterTheFirstLoadAreThereAndKeptByLaterImports(dialect: PeopleTable.Dialect) async throws {
        let directory = try await bundledDirectory()
        let database = try TestDatabase(dialect)
        try database.importPeople(Fixtures.directory(json: "[]").store)  // a table with nobody: indexes dropped, then rebuilt
        try database.importPeople(directory.store)
        let names = dialect == .postgres
            ? "SELECT indexname FROM pg_indexes WHERE tablename = 'people' ORDER BY 1"
            : "SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'people' AND sql IS NOT NULL ORDER BY 1"
        let expected = try PeopleTable(dialect: dialect).secondaryIndexes.count + (dialect == .postgres ? 1 : 0)  // + the primary key's
        let built = try database.query(names).compactMap { $0.text(0) }
        #expect(built.count == expected, "\(built)")
        let matches = dialect == .postgres
            ? "SELECT count(*) FROM people WHERE search_text LIKE '%garza%'"
            : "SELECT count(*) FROM people_search WHERE people_search MATCH '\"garza\"'"
        let found = try #require(database.query(matches).first?.int(0))
        #expect(found > 0)
        try database.importPeople(directory.store)
        #expect(try database.query(names).compactMap { $0.text(0) } == built)
        #expect(try database.query(matches).first?.int(0) == found)
        if dialect == .sqlite {
            #expect(try database.query("INSERT INTO people_search (people_search, rank) VALUES ('integrity-check', 1)").isEmpty)
        }
    }

    /// A first import of people with distinct ids goes straight into the
    /// table, in browse order: the rows' numbers follow the list, and the
    /// list read in order reads the table front to back.
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aFirstImportWritesRowsInBrowseOrder(dialect: PeopleTable.Dialect) async throws {
        let directory = try await bundledDirectory()
        #expect(ImportRows.keysAreUnique(in: directory.store))
        let database = try TestDatabase(dialect)
        let report = try database.importPeople(directory.store)
        #expect(report == ImportReport(written: 400, duplicates: 0, tablePeople: 400, companies: 33, peopleWithoutCompany: 5))
        let rowID = dialect == .postgres ? "row_id" : "rowid"
        let byRow = try database.query("SELECT position FROM people ORDER BY \(rowID)").compactMap { $0.int(0) }.map(Int.init)
        let browse = GroupedPeople(store: directory.store).order.map(Int.init)
        #expect(byRow == browse)
        #expect(byRow != Array(0..<400), "not file order")
        if dialect == .postgres {
            // The primary key, made after the load, is there.
            let keys = try database.query("SELECT count(*) FROM pg_constraint WHERE conrelid = 'people'::regclass AND contype = 'p'")
            #expect(keys.first?.int(0) == 1)
        }
        // A second import keeps everyone's number.
        let before = try database.query("SELECT person_key, \(rowID) FROM people ORDER BY person_key")
        _ = try database.importPeople(directory.store)
        #expect(try database.query("SELECT person_key, \(rowID) FROM people ORDER BY person_key") == before)
    }

    @Test("keys are surely unique only when every _id is there, different, and not spelled like a made-up key")
    func uniqueKeys() throws {
        func store(_ ids: [String?]) throws -> PeopleStore {
            try Fixtures.directory(json: Fixtures.array(ids.enumerated().map { index, id in
                id.map { #"{"_id": "\#($0)", "name": {"first": "P\#(index)"}}"# } ?? #"{"name": {"first": "P\#(index)"}}"#
            })).store
        }
        #expect(ImportRows.keysAreUnique(in: try store(["a", "b", "c"])))
        #expect(!ImportRows.keysAreUnique(in: try store(["a", "b", "a"])))
        #expect(!ImportRows.keysAreUnique(in: try store(["a", nil])))
        #expect(!ImportRows.keysAreUnique(in: try store(["a", ImportRows.noIDPrefix + "x"])))
        // Canonically equal (é, e + ◌́): alike, whatever their bytes.
        #expect(!ImportRows.keysAreUnique(in: try store(["caf\u{E9}", "cafe\u{301}"])))
    }
}
