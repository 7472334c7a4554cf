import Foundation
@testable import RosterSQL
import RosterCore
import Synchronization
import Testing
import TestTraits
import TestSupport

/// The statements the SQL repositories run, planned by the real servers on
/// 20,000 people: every window a seek on an index, a search that matches
/// nobody found by the trigram index (not by walking the browse index
/// through every row), and a slow search cancelled mid-statement.
@Suite(.blockingWork) struct SQLRepositoryPlanTests {
    static let json: String = {
        var random = SeededRandom(seed: 20_000)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        func word(_ length: Int) -> String { String((0..<length).map { _ in letters[Int(random.next() % 26)] }).capitalized }
        let companies = (0..<200).map { _ in word(7) }
        let records = (0..<20_000).map { index in
            Fixtures.record(first: word(6), last: word(8), company: companies[Int(random.next() % 200)], email: "p\(index)@example.test",
                            balance: "$\(random.next() % 900 + 100).00", index: index, extra: #""age": \#(20 + random.next() % 50)"#)
        }
        return Fixtures.array(records)
    }()

    static let imported: [PeopleTable.Dialect: Result<SQLRepositoryFixture.Imported, any Error>] = {
        var result: [PeopleTable.Dialect: Result<SQLRepositoryFixture.Imported, any Error>] = [:]
        for dialect in [PeopleTable.Dialect.postgres, .sqlite] {
            result[dialect] = Result { try SQLRepositoryFixture.importing(json: json, into: dialect) }
        }
        return result
    }()

    /// The plan of `statement` as one text.
    func plan(_ statement: (sql: String, values: [SQLValue]), _ imported: SQLRepositoryFixture.Imported) throws -> String {
        switch imported.dialect {
        case .postgres:
            return try PostgresConnection(imported.target).execute("EXPLAIN " + statement.sql, statement.values)
                .compactMap { $0.text(0) }.joined(separator: "\n")
        case .sqlite:
            let connection = try SQLiteConnection(path: imported.target, access: .readOnly)
            try SQLiteSearchFunctions.register(on: connection)
            return try connection.query("EXPLAIN QUERY PLAN " + statement.sql, statement.values).compactMap { $0.text(3) }
                .joined(separator: "\n")
        }
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func everyWindowOfEveryOrderSeeksAnIndex(dialect: PeopleTable.Dialect) async throws {
        let imported = try #require(Self.imported[dialect]).get()
        for key in RosterCore.SortOrder.Key.allCases {
            for descending in [false, true] {
                for byCompany in [true, false] {
                    // The plans are what this checks, not the time: under ThreadSanitizer
                    // the first window of an order no index serves (sorted by Swift
                    // functions SQLite calls) once outlasted the app's 10 s.
                    let repository = try imported.open(statementTimeout: .seconds(600))
                    let arrangement = repository.arrange(sort: RosterCore.SortOrder(key, descending: descending), byCompany: byCompany, company: nil)
                    // A first window, the next by keyset from its last row, a jump.
                    _ = try await repository.rows(in: arrangement, positions: 9_000..<9_010)
                    repository.browse.isRecording.store(true, ordering: .relaxed)
                    _ = try await repository.rows(in: arrangement, positions: 9_300..<9_310)
                    _ = try await repository.rows(in: arrangement, positions: 2_000..<2_010)
                    let statements = repository.browse.recorded.withLock { $0 }
                    let label = "\(key) descending \(descending) byCompany \(byCompany)"
                    #expect(!statements.isEmpty, "\(label)")
                    for statement in statements {
                        let text = try plan(statement, imported)
                        #expect(text.contains("Index") || text.contains("INDEX"), "\(label): \(text)")
                        #expect(!text.contains("Seq Scan") && !text.contains("SCAN people\n") && !text.hasSuffix("SCAN people"),
                                "\(label): \(text)")
                    }
                }
            }
        }
    }

    /// Screens arrange on the main actor (a company opened from the
    /// overview): even an order no index serves is sorted by the first
    /// window read, in the background, never by arranging.
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func arrangingRunsNoStatement(dialect: PeopleTable.Dialect) throws {
        let imported = try #require(Self.imported[dialect]).get()
        let repository = try imported.open()
        repository.browse.isRecording.store(true, ordering: .relaxed)
        for key in RosterCore.SortOrder.Key.allCases {
            _ = repository.arrange(sort: RosterCore.SortOrder(key), byCompany: false, company: nil)
            _ = repository.arrange(sort: RosterCore.SortOrder(key, descending: true), byCompany: true, company: 3)
        }
        #expect(repository.browse.recorded.withLock { $0.count } == 0)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aSearchThatMatchesNobodyUsesTheTrigramIndex(dialect: PeopleTable.Dialect) async throws {
        let imported = try #require(Self.imported[dialect]).get()
        let repository = try imported.open()
        repository.searching.isRecording.store(true, ordering: .relaxed)
        let found = try await repository.search(SearchQuery("qqzzxq"), in: repository.arrange(sort: .byLastName, byCompany: true, company: nil),
                                                within: nil)
        #expect(found.count == 0)
        let statement = try #require(repository.searching.recorded.withLock { $0.first })
        let text = try plan(statement, imported)
        #expect(text.contains("people_search"), "\(text)")
        #expect(!text.contains("people_browse"), "\(text)")
    }

    @Test func aSearchWaitingOnTheServerIsCancelledMidStatement() async throws {
        // A database of its own: the lock must not hold up other tests.
        let imported = try SQLRepositoryFixture.importing(json: SQLRepositoryTests.generatedJSON, into: .postgres)
        let repository = try imported.open()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        // Another session holds the table: the search's statement waits.
        let holder = try PostgresConnection(imported.target)
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE people IN ACCESS EXCLUSIVE MODE")
        let search = Task { try await repository.search(SearchQuery("abc"), in: everyone, within: nil) }
        let watcher = try PostgresConnection(imported.target)
        // A real wait, not a yield: the search's task needs a thread of the (small) cooperative pool to start at all.
        let deadline = ContinuousClock.now + .seconds(120)
        var waiting = false
        while !waiting, ContinuousClock.now < deadline {
            waiting = try watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")
                .first?.int(0) != 0
            if !waiting { try await Task.sleep(for: .milliseconds(10)) }
        }
        guard waiting else {
            // Seen twice on CI under a sanitizer (one poll took 34 s; once the search never started in 600 s):
            // tests that block threads can hold the whole cooperative pool (`BlockingWorkTrait`). Said, not hidden.
            withKnownIssue("the search's task did not start while blocking tests held the cooperative pool", isIntermittent: true) {
                Issue.record("the search never waited on the lock")
            }
            search.cancel()
            try holder.execute("ROLLBACK")
            _ = await search.result
            return
        }
        search.cancel()
        let outcome = await search.result
        #expect(throws: RepositoryError.cancelled) { try outcome.get() }
        try holder.execute("ROLLBACK")
        // The connection is usable again at once.
        let after = try await repository.search(SearchQuery("abc"), in: everyone, within: nil)
        #expect(after.query == SearchQuery("abc"))
        #expect(try watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")
            .first?.int(0) == 0)
    }

    @Test func anSQLiteSearchCancelledByItsTaskThrowsCancelledAndTheNextOneRuns() async throws {
        let imported = try #require(Self.imported[.sqlite]).get()
        let repository = try imported.open()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        // Negated terms over folded fields scan every row through Swift functions: the slowest search there is.
        let slow = SearchQuery("-eye:zz -fruit:zz -id:zz -guid:zz -city:zz -state:zz -zip:zz -street:zz")
        let search = Task { try await repository.search(slow, in: everyone, within: nil) }
        search.cancel()
        let outcome = await search.result
        #expect(throws: RepositoryError.cancelled) { try outcome.get() }
        // The next search runs (one term of the same kind: the whole slow
        // query can pass the statement timeout under the sanitizers).
        let after = try await repository.search(SearchQuery("-eye:zz"), in: everyone, within: nil)
        #expect(after.count == 20_000)
    }
}
