import TestServers
import Foundation
import RosterCore
@testable import RosterSQL
import Testing
import TestTraits

/// A statement that is already running on the server (not one cancelled
/// before it starts) stops soon after its task is cancelled, on both
/// databases; SQLite's own statement timeout ends a long query. Each
/// runs a query that would take minutes, so a missing interrupt fails
/// the time bound (the lanes' timeout here is 60 s, far beyond it).
@Suite(.blockingWork) struct LaneCancellationTests {
    /// A query that counts to a billion: minutes on either database.
    static let endlessSQLite = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c"
    static let endlessPostgres = "SELECT pg_sleep(120)"
    /// Far below the query's own length (minutes) and the lane's timeout
    /// (60 s), and generous enough for the sanitizers on a busy machine;
    /// it takes tens of milliseconds on a quiet one.
    static let bound: Duration = .seconds(5)

    static func sqliteFile() throws -> SQLiteConnection {
        try SQLiteConnection(path: NSTemporaryDirectory() + "roster-lane-\(UUID().uuidString).db", access: .readWrite)
    }

    /// Starts `sql` on `lane`, waits until it runs, cancels its task; how
    /// long the statement went on after the cancel. Timed on the lane's own
    /// thread: under the whole suite the cooperative pool can be held by
    /// other tests for many seconds, which says nothing of the lane.
    static func cancelWhileRunning(_ sql: String, on lane: DatabaseLane) async throws -> Duration {
        let ended = Locked<ContinuousClock.Instant?>(nil)
        let task = Task {
            try await lane.run { session throws(DatabaseError) in
                defer { ended.withLock { $0 = ContinuousClock.now } }
                return try session.rows(sql, [])
            }
        }
        // Waiting for the cooperative pool, not timing anything: under the
        // sanitizers the suite's blocking tests can hold both of its threads
        // for minutes (a 120 s wait ran out once under ThreadSanitizer).
        let startedBy = ContinuousClock.now + .seconds(600)
        while !lane.isRunningStatement, ContinuousClock.now < startedBy { try await Task.sleep(for: .milliseconds(5)) }
        #expect(lane.isRunningStatement, "the statement never started")
        try await Task.sleep(for: .milliseconds(100))  // on its way on the server, not just handed over
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        return (ended.withLock { $0 } ?? ContinuousClock.now) - cancelledAt
    }

    @Test func aRunningSQLiteStatementStopsWhenItsTaskIsCancelled() async throws {
        let lane = DatabaseLane(try Self.sqliteFile(), label: "test", timeout: .seconds(60))
        #expect(try await Self.cancelWhileRunning(Self.endlessSQLite, on: lane) < Self.bound)
        // The connection is usable again at once.
        let after = try await lane.run { session throws(DatabaseError) in try session.rows("SELECT 41 + 1", []) }
        #expect(after.first?.int(0) == 42)
    }

    @Test func aRunningPostgresStatementStopsWhenItsTaskIsCancelled() async throws {
        let server = try TestPostgres.server()
        let lane = DatabaseLane(try PostgresConnection(server.conninfo(database: server.makeDatabase())), label: "test",
                                timeout: .seconds(60))
        #expect(try await Self.cancelWhileRunning(Self.endlessPostgres, on: lane) < Self.bound)
        let after = try await lane.run { session throws(DatabaseError) in try session.rows("SELECT 41 + 1", []) }
        #expect(after.first?.int(0) == 42)
    }

    @Test func sqlitesStatementTimeoutEndsALongQuery() async throws {
        let lane = DatabaseLane(try Self.sqliteFile(), label: "test", timeout: .seconds(1))
        let ran = Locked<Duration?>(nil)
        let outcome = await Task {
            try await lane.run { session throws(DatabaseError) in
                let started = ContinuousClock.now
                defer { ran.withLock { $0 = ContinuousClock.now - started } }
                return try session.rows(Self.endlessSQLite, [])
            }
        }.result
        #expect(try #require(ran.withLock { $0 }) < .seconds(1) + Self.bound)
        #expect(throws: DatabaseError.self) { try outcome.get() }
        if case .failure(let error as DatabaseError) = outcome { #expect(error.kind == .timedOut, "\(error)") }
    }

    @Test func aBackendEndedMidStatementIsALostConnection() async throws {
        let server = try TestPostgres.server()
        let conninfo = server.conninfo(database: try server.makeDatabase())
        let lane = DatabaseLane(try PostgresConnection(conninfo), label: "test", timeout: .seconds(60))
        let pid = try await lane.run { session throws(DatabaseError) in try session.rows("SELECT pg_backend_pid()", []) }.first?.int(0)
        let task = Task { try await lane.run { session throws(DatabaseError) in try session.rows(Self.endlessPostgres, []) } }
        while !lane.isRunningStatement { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(200))  // into pg_sleep on the server
        let admin = try PostgresConnection(conninfo)
        _ = try admin.execute("SELECT pg_terminate_backend($1::int)", [.int(Int(try #require(pid)))])
        let outcome = await task.result
        guard case .failure(let error as DatabaseError) = outcome else {
            Issue.record("not a DatabaseError: \(outcome)")
            return
        }
        #expect(error.kind == .connectionLost, "\(error)")
        // And the lane now fails at once, until it reconnects.
        let after = await Task { try await lane.run { session throws(DatabaseError) in try session.rows("SELECT 1", []) } }.result
        if case .failure(let next as DatabaseError) = after { #expect(next.kind == .connectionLost) } else { Issue.record("\(after)") }
    }
}

/// A company summary edited by hand to disagree with the rows: no person
/// is ever shown twice or under another company, and the source says why.
@Suite(.blockingWork) struct StaleSummaryTests {
    @Test(arguments: [PeopleTable.Dialect.sqlite, .postgres])
    func aSummaryThatDisagreesNeverMisfilesAnyone(_ dialect: PeopleTable.Dialect) async throws {
        let imported = try SQLRepositoryFixture.importing(json: SQLRepositoryTests.generatedJSON, into: dialect)
        let table = try PeopleTable(name: imported.table, dialect: dialect)
        let edit = "UPDATE \(table.summaryTable) SET headcount = headcount + 2 WHERE company_key = (SELECT company_key FROM \(table.summaryTable) ORDER BY company_key LIMIT 1)"
        switch dialect {
        case .postgres: _ = try PostgresConnection(imported.target).execute(edit)
        case .sqlite: try SQLiteConnection(path: imported.target, access: .readWrite).execute(edit)
        }
        let repository = try imported.open()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        var seen = Set<PersonID>()
        var misfiled = 0, twice = 0
        for start in stride(from: 0, to: everyone.count, by: 37) {
            // A window that disagrees with its section fails, and is not shown.
            for row in (try? await repository.rows(in: everyone, positions: start..<min(everyone.count, start + 37))) ?? [] {
                if !seen.insert(row.id).inserted { twice += 1 }
                if row.companyID != everyone.sections[everyone.sectionIndex(containing: row.position)].companyID { misfiled += 1 }
            }
        }
        #expect(misfiled == 0)
        #expect(twice == 0)
        #expect(seen.count < 400, "the windows that disagree are not shown")
        #expect(repository.readFailure?.contains("summary") == true, "\(repository.readFailure ?? "nil")")
    }
}

/// A lock another program holds on an SQLite file is a passing problem:
/// the title says the database is busy and why, the `?` help has SQLite's words even for
/// a local file, and the next search that works clears the title.
@Suite(.blockingWork) struct PassingProblemTests {
    @Test func aLockedSQLiteFileFailsASearchThenTheNextSearchClearsTheTitle() async throws {
        let imported = try SQLRepositoryFixture.importing(json: SQLRepositoryTests.generatedJSON, into: .sqlite)
        let repository = try imported.open()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let holder = try SQLiteConnection(path: imported.target, access: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        let failed = await #expect(throws: RepositoryError.self) {
            _ = try await repository.search(SearchQuery("ann"), in: everyone, within: nil)
        }
        #expect(failed?.kind == .waiting && failed?.reason == "database busy: another program is writing to it" && failed?.healsOnRetry == true)
        #expect(repository.failure == "database busy: another program is writing to it", "\(repository.failure ?? "nil")")
        let status = try #require(ConnectionStatus(repository), "a local file's last problem is still one key away")
        #expect(status.isLost == false, "nothing to reconnect")
        #expect(status.detail?.contains("locked") == true, "\(status.detail ?? "nil")")
        try holder.execute("ROLLBACK")
        let found = try await repository.search(SearchQuery("ann"), in: everyone, within: nil)
        #expect(found.count > 0)
        #expect(repository.failure == nil, "the title is back to normal")
    }

    @Test func aCheckFindsALockOverWithoutAnyReadOfTheScreens() async throws {
        let imported = try SQLRepositoryFixture.importing(json: SQLRepositoryTests.generatedJSON, into: .sqlite)
        let repository = try SQLPeopleRepository.open(sqlite: imported.target, busyTimeout: .milliseconds(200))
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let holder = try SQLiteConnection(path: imported.target, access: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        let locked = await #expect(throws: RepositoryError.self) { try await repository.rows(in: everyone, positions: 0..<5) }
        #expect(locked?.kind == .waiting && locked?.healsOnRetry == true)
        #expect(repository.hasPassingProblem)
        #expect(!repository.checkPassingProblem(), "still locked")
        #expect(repository.failure == "database busy: another program is writing to it")
        try holder.execute("ROLLBACK")
        #expect(repository.checkPassingProblem())
        #expect(repository.failure == nil && !repository.hasPassingProblem, "the title is back to normal")
    }
}

/// A read of a database never holds the thread that asked: the statement
/// waits on the repository's own thread, the caller's task is suspended.
@Suite(.blockingWork) struct ReadsOffTheCallerTests {
    @MainActor final class Outcome {
        var people: Result<[Person], RepositoryError>?
    }

    @MainActor
    @Test("over a file another program holds locked, a read hands the main actor back at once, then fails healably, and reads once the lock is gone")
    func aLockedReadNeverHoldsTheMainActor() async throws {
        let imported = try SQLRepositoryFixture.importing(json: SQLRepositoryTests.generatedJSON, into: .sqlite)
        let repository = try SQLPeopleRepository.open(sqlite: imported.target, busyTimeout: .milliseconds(500))
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let holder = try SQLiteLockHolder(imported.target)
        defer { holder.release() }
        let outcome = Outcome()
        Task.immediate { @MainActor in
            outcome.people = await Result(awaiting: { () async throws(RepositoryError) in
                try await repository.people(in: everyone, positions: 0..<5)
            })
        }
        #expect(outcome.people == nil, "the read waits on the lock off the main actor; a blocking read would have answered by now")
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(600)
        while outcome.people == nil, clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(outcome.people?.failure?.kind == .waiting && outcome.people?.failure?.healsOnRetry == true,
                "\(String(describing: outcome.people))")
        holder.release()
        #expect(try await repository.people(in: everyone, positions: 0..<5).count == 5)
    }
}

/// Roster quitting: what the lanes run is stopped, and nothing runs after.
@Suite(.blockingWork) struct LaneClosingTests {
    @Test("closed as Roster quits, on both databases: the statement running stops at once, waited for by no one, and none runs after it",
          arguments: [PeopleTable.Dialect.sqlite, .postgres])
    func closedLaneStopsAndRunsNothingMore(_ dialect: PeopleTable.Dialect) async throws {
        let lane: DatabaseLane
        switch dialect {
        case .sqlite: lane = DatabaseLane(try LaneCancellationTests.sqliteFile(), label: "test", timeout: .seconds(60))
        case .postgres:
            let server = try TestPostgres.server()
            lane = DatabaseLane(try PostgresConnection(server.conninfo(database: server.makeDatabase())), label: "test", timeout: .seconds(60))
        }
        let ended = Locked<ContinuousClock.Instant?>(nil)
        let running = Task {
            try await lane.run { session throws(DatabaseError) in
                defer { ended.withLock { $0 = ContinuousClock.now } }
                return try session.rows(dialect == .sqlite ? LaneCancellationTests.endlessSQLite : LaneCancellationTests.endlessPostgres, [])
            }
        }
        let startedBy = ContinuousClock.now + .seconds(600)
        while !lane.isRunningStatement, ContinuousClock.now < startedBy { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(100))  // on its way on the server, not just handed over
        let sent = DispatchGroup()
        let closedAt = ContinuousClock.now
        lane.close(sent: sent)
        #expect(sent.wait(timeout: .now() + 5) == .success, "the request is made")
        let outcome = await running.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(try #require(ended.withLock { $0 }) - closedAt < LaneCancellationTests.bound)
        let after = await Task { try await lane.run { session throws(DatabaseError) in try session.rows("SELECT 41 + 1", []) } }.result
        #expect(throws: CancellationError.self) { try after.get() }
    }
}
