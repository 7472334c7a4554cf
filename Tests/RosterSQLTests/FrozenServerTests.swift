import TestServers
import Foundation
import RosterCore
@testable import RosterSQL
import Testing
import TestTraits

/// A server that stops answering (a frozen host, a network cut, its
/// process stopped) is given up on: the statement ends as a lost
/// connection within the lane's timeout and patience, never waits for ever,
/// and the lane works again once the server answers and it reconnects.
@Suite(.blockingWork) struct FrozenServerTests {
    /// Runs `sql` on a thread of its own and waits for it for up to
    /// `limit`: a lane that never gives up fails the test instead of
    /// hanging the run (nil: still waiting).
    static func outcome(of sql: String, on lane: DatabaseLane, limit: Duration = .seconds(120))
        -> Result<[SQLRow], DatabaseError>? {
        let outcome = Locked<Result<[SQLRow], DatabaseError>?>(nil)
        Thread.detachNewThread {
            let result = Result { () throws(DatabaseError) -> [SQLRow] in
                try lane.sync { session throws(DatabaseError) in try session.rows(sql, []) }
            }
            outcome.withLock { $0 = result }
        }
        let deadline = ContinuousClock.now + limit
        while outcome.withLock({ $0 }) == nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return outcome.withLock { $0 }
    }

    static func expectLost(_ outcome: Result<[SQLRow], DatabaseError>?) {
        guard case .failure(let error)? = outcome else {
            Issue.record("the statement did not end as a failure: \(String(describing: outcome))")
            return
        }
        #expect(error.kind == .connectionLost, "\(error)")
        #expect(ConnectionTrouble.words(for: error) == "no answer in time", "\(error)")
    }

    @Test func aStatementToAServerThatStoppedAnsweringEndsAsALostConnection() throws {
        let server = try TestPostgres.server()
        let relay = try FreezingRelay(to: server.socketDirectory + "/.s.PGSQL.5432")
        defer { relay.stop() }
        let conninfo = "host=\(relay.directory) user=postgres dbname=\(try server.makeDatabase()) "
            + "password=\(TestPostgres.password) connect_timeout=2"
        let lane = DatabaseLane(try PostgresConnection(conninfo), label: "test", timeout: .seconds(1), patience: .seconds(1))
        #expect(try lane.sync { session throws(DatabaseError) in try session.rows("SELECT 1", []) }.first?.int(0) == 1)

        relay.freeze()
        // Its cancel request waits too (it goes to the same frozen address):
        // the lane gives the connection up instead.
        let outcome = Self.outcome(of: "SELECT 2", on: lane)
        guard outcome != nil else {
            relay.thaw()  // the statement ends, and the test with it
            Issue.record("the statement to the frozen server never ended")
            return
        }
        Self.expectLost(outcome)
        // Down now: the next statement fails at once, and reconnecting to
        // the frozen server ends with the connect timeout.
        #expect(throws: DatabaseError.self) { try lane.sync { session throws(DatabaseError) in try session.rows("SELECT 3", []) } }
        #expect(throws: DatabaseError.self) { try lane.reconnect(statementTimeout: .seconds(1)) }

        relay.thaw()
        try lane.reconnect(statementTimeout: .seconds(1))
        #expect(try lane.sync { session throws(DatabaseError) in try session.rows("SELECT 4", []) }.first?.int(0) == 4)
    }

    @Test func aStatementWhoseServerProcessStoppedEndsAsALostConnection() throws {
        let server = try TestPostgres.server()
        let conninfo = server.conninfo(database: try server.makeDatabase())
        let lane = DatabaseLane(try PostgresConnection(conninfo), label: "test", timeout: .seconds(1), patience: .seconds(1))
        let pid = try #require(try lane.sync { session throws(DatabaseError) in
            try session.rows("SELECT pg_backend_pid()", [])
        }.first?.int(0))
        // The server takes the cancel (its main process answers) but the
        // statement's process never runs it: the lane's last resort ends it.
        #expect(kill(pid_t(pid), SIGSTOP) == 0)
        let outcome = Self.outcome(of: "SELECT 2", on: lane)
        kill(pid_t(pid), SIGCONT)
        Self.expectLost(outcome)
        try lane.reconnect(statementTimeout: .seconds(1))
        #expect(try lane.sync { session throws(DatabaseError) in try session.rows("SELECT 3", []) }.first?.int(0) == 3)
    }

    /// `outcome(of:)` for any blocking work: nil if it is still waiting after `limit`.
    static func ended<T: Sendable>(within limit: Duration = .seconds(120), _ work: @escaping @Sendable () -> T) -> T? {
        let outcome = Locked<T?>(nil)
        Thread.detachNewThread { outcome.withLock { $0 = work() } }
        let deadline = ContinuousClock.now + limit
        while outcome.withLock({ $0 }) == nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return outcome.withLock { $0 }
    }

    @Test("the statements that set a new connection up end as a lost connection when the server stops answering meanwhile")
    func settingUpIsGivenUp() throws {
        let server = try TestPostgres.server()
        let relay = try FreezingRelay(to: server.socketDirectory + "/.s.PGSQL.5432")
        defer { relay.stop() }
        nonisolated(unsafe) let connection = try PostgresConnection(server.conninfo(database: try server.makeDatabase())
            .replacingOccurrences(of: "host=\(server.socketDirectory)", with: "host=\(relay.directory)"))
        relay.freeze()
        let outcome = Self.ended {
            Result { () throws(DatabaseError) in
                try connection.settingUp(within: .seconds(1)) { connection throws(DatabaseError) in try connection.execute("SELECT 1") }
            }
        }
        relay.thaw()
        guard case .failure(let error)? = outcome else {
            Issue.record("the setting up did not end as a failure: \(String(describing: outcome))")
            return
        }
        #expect(error.kind == .connectionLost, "\(error)")
    }

    @Test("a table's change listener made while the server does not answer holds the browse lane not at all, connects once it answers, and listens")
    func listenerMadeWhileFrozen() throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .postgres)
        let server = try TestPostgres.server()
        let relay = try FreezingRelay(to: server.socketDirectory + "/.s.PGSQL.5432")
        defer { relay.stop() }
        let repository = try SQLPeopleRepository.open(
            postgres: imported.target.replacingOccurrences(of: "host=\(server.socketDirectory)", with: "host=\(relay.directory)"),
            table: imported.table)
        relay.freeze()
        // Made at once (only the browse connection's parameters are read), and started: it connects on its own.
        let made = Self.ended(within: .seconds(5)) { repository.changeWatch() }
        guard let watch = made ?? nil else {
            relay.thaw()
            Issue.record("no listener made while the server was frozen: \(String(describing: made))")
            return
        }
        defer { watch.stop() }
        watch.start {}
        #expect(!repository.browse.isRunningStatement, "the browse lane is free")
        relay.thaw()
        // (A save from this process would be its own, and not told: the listener is seen listening instead.)
        let admin = try PostgresConnection(imported.target)
        #expect(try OpeningTests.eventually(limit: .seconds(60)) {
            try admin.execute("""
                SELECT count(*) FROM pg_stat_activity \
                WHERE application_name = '\(PostgresChangeListener.applicationName)' AND datname = current_database()
                """).first?.int(0) == 1
        }, "listening once the server answers")
    }
}
