import Foundation
@testable import RosterSQL
import RosterCore
import RosterStore
import Testing
import TestTraits
import TestSupport

/// What a user of the binary sees from a database: `--list` byte for byte
/// as from the file, and a server that goes away mid-browse.
@Suite(.blockingWork) struct SQLBrowsingTests {
    /// What `--list` writes for `repository`, sorted and filtered as asked.
    func listed(_ repository: any PeopleRepository, sort: RosterCore.SortOrder = .byLastName, filter: String? = nil) async throws -> [UInt8] {
        var arrangement = repository.arrange(sort: sort, byCompany: true, company: nil)
        if let filter { arrangement = try await repository.search(SearchQuery(filter), in: arrangement, within: nil) }
        let path = NSTemporaryDirectory() + "roster-list-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(await PlainListWriter(isTerminal: false).write(arrangement, of: repository, to: descriptor))
        close(descriptor)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func theListOfTheDatabaseIsTheListOfTheFileByteForByte(dialect: PeopleTable.Dialect) async throws {
        let json = try String(contentsOfFile: bundledPath(), encoding: .utf8)
        let database = try SQLRepositoryFixture.repository(json: json, dialect: dialect)
        // An SQLite file is local: `r` has nothing to reconnect there.
        #expect(database.isLocal == (dialect == .sqlite))
        let file = try Fixtures.repository(json: json).repository
        for (sort, filter) in [(RosterCore.SortOrder.byLastName, nil), (RosterCore.SortOrder(.balance, descending: true), nil),
                               (.byLastName, "an -age>30"), (RosterCore.SortOrder(.firstName), "city:concho")] as [(RosterCore.SortOrder, String?)] {
            let expected = try await listed(file, sort: sort, filter: filter)
            #expect(expected.count > 100)
            #expect(try await listed(database, sort: sort, filter: filter) == expected, "\(sort.label) \(filter ?? "")")
        }
    }

    @Test func aRowWhoseCompanyTheSummaryDoesNotKnowHasNoCompanyNeverAMadeUpOne() async throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .sqlite)
        // Edited outside Roster: a company the summary never heard of.
        try SQLiteConnection(path: imported.target, access: .readWrite)
            .execute("UPDATE people SET company_key = X'ff00' WHERE person_key = 'id2'")
        let repository = try imported.open()
        let flat = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        #expect(flat.sections.map(\.companyID) == [nil], "the flat list's section is no company's")
        let rows = try await repository.rows(in: flat, positions: 0..<3)
        #expect(rows.map(\.position) == [0, 1, 2])
        let moved = try #require(rows.first { $0.recordID == "id2" })
        #expect(moved.companyID == nil, "\(moved)")
        #expect(rows.filter { $0.recordID != "id2" }.allSatisfy { row in
            row.companyID.map { repository.companies[$0].name } == row.company
        }, "the others' companies are theirs")
    }

    func bundledPath() -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/people.json").path
    }

    @Test func aServerThatDropsTheConnectionLeavesTheCachedRowsAndSaysSoUntilRReconnects() async throws {
        let imported = try SQLRepositoryFixture.importing(json: SQLRepositoryTests.generatedJSON, into: .postgres)
        let repository = try imported.open()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let shown = try await repository.rows(in: everyone, positions: 0..<20)
        #expect(shown.count == 20)
        #expect(!repository.titleName.contains("lost"))
        // The server ends every other session of the database (as a restart would).
        let admin = try PostgresConnection(imported.target)
        try admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        #expect(try await repository.rows(in: everyone, positions: 0..<20) == shown, "what was fetched is still shown")
        func isLost(_ error: RepositoryError?) -> Bool { error?.kind == .connectionLost && error?.reason == "connection lost, r reconnects" }
        #expect(isLost(await #expect(throws: RepositoryError.self, "rows not fetched fail: never stand-ins that look like people") {
            try await repository.rows(in: everyone, positions: 300..<320)
        }))
        #expect(isLost(await #expect(throws: RepositoryError.self, "M marks nobody it could not read") {
            try await repository.personIDs(in: everyone, positions: 300..<320)
        }))
        #expect(isLost(await #expect(throws: RepositoryError.self, "a person's screen gets an error, never a blank person") {
            try await repository.people(in: everyone, positions: 300..<301)
        }))
        #expect(repository.readFailure == "connection lost, r reconnects")
        #expect(repository.failure == "connection lost, r reconnects")
        #expect(repository.titleName.hasPrefix("connection lost, r reconnects — postgres://"), "\(repository.titleName)")
        #expect(repository.sourceName.hasPrefix("postgres://"), "the name stays the target: export names and messages use it")
        // Never the library's words in the title: they are one key away (the `?` help).
        #expect(!repository.titleName.contains("PostgreSQL"))
        #expect(repository.problemDetail?.contains("PostgreSQL") == true, "\(String(describing: repository.problemDetail))")
        #expect(!repository.isLocal)
        #expect(isLost(await #expect(throws: RepositoryError.self, "a person's screen says it too") { try await repository.person(shown[0].id) }))
        let searchFailure = await #expect(throws: RepositoryError.self) {
            _ = try await repository.search(SearchQuery("zz"), in: everyone, within: nil)
        }
        #expect(isLost(searchFailure), "a search says it in the same words, never the library's")
        #expect(try await repository.companySummaries(in: everyone).count == repository.companies.count, "the summary was read at opening")
        await #expect(throws: RepositoryError.self, "a search's counts need the server: they fail, never nobody") {
            try await repository.valueSummaries(of: .city, in: everyone)
        }

        // r: both connections again, the rows fetched, the title back to normal.
        try repository.reconnect()
        #expect(repository.sourceName == PostgresConnection.describe(imported.target), "\(repository.sourceName)")
        #expect(repository.failure == nil)
        let fetched = try await repository.rows(in: everyone, positions: 300..<320)
        #expect(fetched.map(\.position) == Array(300..<320))
        #expect(fetched.allSatisfy { !$0.lastName.isEmpty }, "fetched again")
        #expect(try await repository.rows(in: everyone, positions: 0..<20) == shown)
        let searched = try await repository.search(SearchQuery(shown[0].lastName), in: everyone, within: nil)
        #expect(searched.count > 0, "the search connection works too")
        #expect(repository.failure == nil)
    }

    @Test func aLostConnectionComesBackOnItsOwnOnceTheServerTakesItAgain() async throws {
        let imported = try SQLRepositoryFixture.importing(json: SQLRepositoryTests.generatedJSON, into: .postgres)
        let repository = try imported.open()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        #expect(try await repository.rows(in: everyone, positions: 0..<20).count == 20)
        let admin = try PostgresConnection(imported.target)
        try admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        await #expect(throws: RepositoryError.self) { try await repository.rows(in: everyone, positions: 300..<320) }
        #expect(repository.isConnectionLost)

        let watcher = ConnectionWatcher(connection: repository, delays: [.milliseconds(20)], poll: .milliseconds(10))
        let reports = Locked<[ReconnectAttempt]>([])
        watcher.start { attempt in reports.withLock { $0.append(attempt) } }
        defer { watcher.stop() }
        let deadline = ContinuousClock.now + .seconds(120)
        while !reports.withLock({ $0.contains(.reconnected) }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(reports.withLock { $0 } == [.lost, .reconnected], "the title told at once, then tried")
        #expect(!repository.isConnectionLost)
        let fetched = try await repository.rows(in: everyone, positions: 300..<320)
        #expect(fetched.allSatisfy { !$0.lastName.isEmpty } && fetched.count == 20)
    }
}
