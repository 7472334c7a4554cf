import Foundation
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

    /// Starts `sql` on `lane`, waits until it runs, cancels its task; how long the cancelled task took to end.
    static func cancelWhileRunning(_ sql: String, on lane: DatabaseLane) async throws -> Duration {
        let task = Task { try await lane.run { session throws(DatabaseError) in try session.rows(sql, []) } }
        let clock = ContinuousClock()
        let startedBy = clock.now + .seconds(30)
        while !lane.isRunningStatement, clock.now < startedBy { try await Task.sleep(for: .milliseconds(5)) }
        #expect(lane.isRunningStatement, "the statement never started")
        let cancelledAt = clock.now
        task.cancel()
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        return clock.now - cancelledAt
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
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = await Task { try await lane.run { session throws(DatabaseError) in try session.rows(Self.endlessSQLite, []) } }.result
        #expect(clock.now - started < .seconds(1) + Self.bound)
        #expect(throws: DatabaseError.self) { try outcome.get() }
        if case .failure(let error as DatabaseError) = outcome { #expect(error.kind == .timedOut, "\(error)") }
    }
}
