import TestServers
import Foundation
import RosterCore
@testable import RosterSQL
import RosterStore
import TestSupport
import Testing
import TestTraits

/// The people table's `manager` column: filled by an import, added to a
/// table made before it, read back into the org chart.
@Suite(.blockingWork) struct ManagerColumnTests {
    /// Ada leads; Grace reports to her by id, Linus by email, Alan by name;
    /// Edsger names someone who is not here.
    static let json = """
    [{"_id": "a", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org", "company": "ACME"},
     {"_id": "g", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@example.org", "company": "ACME"},
     {"_id": "l", "name": {"first": "Linus", "last": "Torvalds"}, "email": "linus@example.org", "company": "ACME"},
     {"_id": "t", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@example.org", "company": "ACME"},
     {"_id": "e", "name": {"first": "Edsger", "last": "Dijkstra"}, "email": "ed@example.org", "company": "ACME"}]
    """
    static let managers: [String?] = [nil, "a", "grace@example.org", "Ada Lovelace", "nobody@example.org"]

    private func importing(_ dialect: PeopleTable.Dialect, managers: [String?]? = managers) throws -> SQLRepositoryFixture.Imported {
        try Self.importing(dialect, json: Self.json, managers: managers)
    }

    /// `json`'s people imported into a new table of `dialect`, with these
    /// manager references (one a person, in the file's order).
    static func importing(_ dialect: PeopleTable.Dialect, json: String, managers: [String?]?) throws -> SQLRepositoryFixture.Imported {
        let store = try Fixtures.directory(json: json).store
        let importer = PeopleImporter(table: try PeopleTable(dialect: dialect))
        switch dialect {
        case .postgres:
            let server = try TestPostgres.server()
            let conninfo = server.conninfo(database: try server.makeDatabase())
            _ = try importer.importPeople(store, managers: managers, into: PostgresConnection(conninfo))
            return SQLRepositoryFixture.Imported(dialect: dialect, target: conninfo, table: "people")
        case .sqlite:
            let path = NSTemporaryDirectory() + "roster-managers-\(UUID().uuidString).db"
            _ = try importer.importPeople(store, managers: managers, into: SQLiteConnection(path: path, access: .readWrite))
            return SQLRepositoryFixture.Imported(dialect: dialect, target: path, table: "people")
        }
    }

    private func query(_ imported: SQLRepositoryFixture.Imported, _ sql: String, _ parameters: [SQLValue] = []) throws(DatabaseError) -> [SQLRow] {
        switch imported.dialect {
        case .postgres: return try PostgresConnection(imported.target).execute(sql, parameters)
        case .sqlite: return try SQLiteConnection(path: imported.target, access: .readWrite).query(sql, parameters)
        }
    }

    private func chart(of imported: SQLRepositoryFixture.Imported) throws -> OrgChartLoad {
        SQLOrgChartReading(repository: try imported.open()).readChart(orderKeys: nil)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func anImportKeepsEachManagerReferenceAsTheFileGaveIt(dialect: PeopleTable.Dialect) throws {
        let imported = try importing(dialect)
        let rows = try query(imported, "SELECT person_key, manager FROM people ORDER BY person_key")
        let kept = Dictionary(uniqueKeysWithValues: rows.map { ($0.text(0) ?? "", $0.text(1)) })
        #expect(kept == ["a": nil, "g": "a", "l": "grace@example.org", "t": "Ada Lovelace", "e": "nobody@example.org"])
    }

    @Test func importingAgainWithAnotherManagerCountsThePersonUpdated() throws {
        let imported = try importing(.sqlite)
        let store = try Fixtures.directory(json: Self.json).store
        var moved = Self.managers
        moved[3] = "g"
        let report = try PeopleImporter(table: try PeopleTable(dialect: .sqlite))
            .importPeople(store, managers: moved, into: SQLiteConnection(path: imported.target, access: .readWrite))
        #expect(report.changes == ImportChanges(added: 0, updated: 1, unchanged: 4))
        #expect(try query(imported, "SELECT manager FROM people WHERE person_key = 't'").first?.text(0) == "g")
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func theChartOfATableResolvesIdsEmailsAndNames(dialect: PeopleTable.Dialect) throws {
        let imported = try importing(dialect)
        guard case .loaded(let chart) = try chart(of: imported) else {
            Issue.record("no chart")
            return
        }
        let people = chart.people
        let number = { (name: String) in (0..<chart.tree.count).first { people.name(of: $0) == name } ?? -1 }
        let ada = number("Ada Lovelace")
        #expect(chart.tree.managers[number("Grace Hopper")] == Int32(ada))
        #expect(chart.tree.managers[number("Linus Torvalds")] == Int32(number("Grace Hopper")))
        #expect(chart.tree.managers[number("Alan Turing")] == Int32(ada))
        #expect(chart.tree.rootReason(of: number("Edsger Dijkstra")) == .missingManager)
        #expect(chart.tree.organisationSize(of: ada) == 3)
        #expect(people.email(of: ada) == "ada@example.org")
        #expect(people.person(recordID: "g") == number("Grace Hopper"))
    }

    /// The chart numbers people its own way; the list knows them by `PersonID`.
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func theChartsNumbersMapToTheRepositorysPersonIDs(dialect: PeopleTable.Dialect) async throws {
        let imported = try importing(dialect)
        let repository = try imported.open()
        guard case .loaded(let chart) = SQLOrgChartReading(repository: repository).readChart(orderKeys: nil) else {
            Issue.record("no chart")
            return
        }
        for person in 0..<chart.tree.count {
            let id = chart.people.personID(of: person)
            #expect(chart.people.person(withID: id) == person)
            #expect(try await repository.person(PersonID(id)).fullName == chart.people.name(of: person))
        }
        #expect(chart.people.person(withID: -5) == nil)
    }

    /// Read in runs of two rows (a million are read 50,000 at a time), through
    /// the library's own text and through whole rows alike.
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func runsOfRowsReadEveryoneOnce(dialect: PeopleTable.Dialect) throws {
        let imported = try importing(dialect)
        let table = try PeopleTable(dialect: dialect)
        let byRows = try SQLManagerReferences.read(table, run: 2) { sql, parameters, body throws(DatabaseError) in
            for row in try query(imported, sql, parameters) { row.withColumnText(body) }
        }
        let texts: SQLManagerReferences
        switch dialect {
        case .sqlite:
            let connection = try SQLiteConnection(path: imported.target, access: .readOnly)
            texts = try SQLManagerReferences.read(table, run: 2) { sql, parameters, body throws(DatabaseError) in
                try connection.forEachTextRow(sql, parameters, body)
            }
        case .postgres:
            let connection = try PostgresConnection(imported.target)
            texts = try SQLManagerReferences.read(table, run: 2) { sql, parameters, body throws(DatabaseError) in
                try connection.forEachTextRow(sql, parameters, body)
            }
        }
        for references in [byRows, texts] {
            #expect(references.count == 5 && references.anyManager)
            // Rows come in the table's order, the list's (by last name).
            let managers = Dictionary(uniqueKeysWithValues: (0..<5).map { person in
                var manager: String?
                references.withManagerReference(of: person) { manager = String(decoding: $0, as: UTF8.self) }
                return (references.name(of: person), manager)
            })
            #expect(managers == ["Ada Lovelace": nil, "Grace Hopper": "a", "Linus Torvalds": "grace@example.org",
                                 "Alan Turing": "Ada Lovelace", "Edsger Dijkstra": "nobody@example.org"])
            #expect(references.rowIDs == references.rowIDs.sorted() && Set(references.rowIDs).count == 5)
        }
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func anExportCarriesEachRowsManager(dialect: PeopleTable.Dialect) async throws {
        let repository = try importing(dialect).open()
        guard case .loaded(let managers) = SQLOrgChartReading(repository: repository).readManagerReferences() else {
            Issue.record("no managers")
            return
        }
        let everyone = repository.arrange(sort: SortOrder(.lastName, descending: true), byCompany: false, company: nil)
        // Each person with their own row's id, read in one statement.
        let identified = try await repository.identifiedPeople(in: everyone, positions: 0..<everyone.count)
        #expect(identified.map(\.id) == (try await repository.personIDs(in: everyone, positions: 0..<everyone.count)))
        #expect(identified.map(\.person.lastName) == ["Turing", "Torvalds", "Lovelace", "Hopper", "Dijkstra"])
        var output = OutputBuffer(descriptor: -1)
        #expect(await DirectoryExporter(format: .csv).write(everyone, of: repository, managers: managers, to: &output) == 0)
        let rows = String(decoding: output.bytes, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(rows.first?.hasSuffix(",manager") == true)
        #expect(rows.dropFirst().prefix(5).map { $0.components(separatedBy: ",").last ?? "" }
                == ["Ada Lovelace", "grace@example.org", "", "a", "nobody@example.org"])
    }

    @Test func aTableWithoutManagersSaysSo() throws {
        let imported = try importing(.sqlite, managers: nil)
        guard case .noManagers(let message) = try chart(of: imported) else {
            Issue.record("a chart of nobody's managers")
            return
        }
        #expect(message.contains("has a \"manager\" field"))
    }

    /// A table an earlier Roster made has no manager column: browsed, its
    /// chart says so; the first edit adds the column, once.
    @Test func aTableFromBeforeGainsTheColumnWhenWritten() throws {
        let imported = try importing(.sqlite)
        let connection = try SQLiteConnection(path: imported.target, access: .readWrite)
        try connection.execute("DROP INDEX people_manager")
        try connection.execute("ALTER TABLE people DROP COLUMN manager")
        guard case .noManagers(let message) = try chart(of: imported) else {
            Issue.record("a chart without a manager column")
            return
        }
        #expect(message.contains("no manager column"))
        let table = try PeopleTable(dialect: .sqlite)
        _ = try PeopleEditor(table: table).apply(.update(id: "a", changes: [FieldChange(field: .text(.phone), value: .text("1"))]),
                                                 ifVersion: nil, on: connection)
        let columns = try connection.query("SELECT count(*) FROM pragma_table_info('people') WHERE name = 'manager'", [])
        #expect(columns.first?.int(0) == 1)
        let indexes = try connection.query("SELECT count(*) FROM sqlite_schema WHERE name = 'people_manager'", [])
        #expect(indexes.first?.int(0) == 1)
        _ = try PeopleEditor(table: table).apply(.update(id: "a", changes: [FieldChange(field: .text(.phone), value: .text("2"))]),
                                                 ifVersion: nil, on: connection)
        guard case .noManagers = try chart(of: imported) else {
            Issue.record("managers out of an empty column")
            return
        }
    }
}
