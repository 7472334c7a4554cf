import TestServers
import RosterCore
import Foundation
import RosterSQL
import Testing
import TestTraits

/// The two connections against real servers: values bound, rows streamed,
/// long statements cancelled, failures named in one line.
@Suite(.blockingWork) struct PostgresConnectionTests {
    private func connect() throws -> PostgresConnection {
        let server = try TestPostgres.server()
        return try PostgresConnection(server.conninfo(database: server.makeDatabase()))
    }

    @Test func injectionIsJustTextFindingNobodyAndDroppingNothing() throws {
        let connection = try connect()
        try connection.execute("CREATE TABLE people (name text)")
        try connection.execute("INSERT INTO people VALUES ($1), ($2)", [.text("José"), .text("O'Brien")])
        let hostile = "'); drop table people; --"
        let found = try connection.execute("SELECT count(*) FROM people WHERE name = $1 OR name LIKE $2",
                                           [.text(hostile), .text(SQLText.containsPattern(hostile))])
        #expect(found.first?.int(0) == 0)
        #expect(try connection.execute("SELECT count(*) FROM people").first?.int(0) == 2)
        #expect(try connection.execute("SELECT name FROM people WHERE name = $1", [.text("O'Brien")]).first?.text(0) == "O'Brien")
    }

    @Test func valuesComeBackAsTheyWentIn() throws {
        let connection = try connect()
        let bytes: [UInt8] = [0, 1, 0x5C, 0x22, 0xFF]
        let row = try connection.execute("SELECT $1::bigint, $2::boolean, $3::bytea, $4::text, $5::text",
                                         [.int(-9_223_372_036_854_775_807), .bool(true), .bytes(bytes), .text("a\tb\n\\c"), .null])
        #expect(row.first == SQLRow([.int(-9_223_372_036_854_775_807), .bool(true), .bytes(bytes), .text("a\tb\n\\c"), .null]))
    }

    @Test func copyCarriesTabsNewlinesBackslashesAndBytes() throws {
        let connection = try connect()
        try connection.execute("CREATE TABLE t (a text, b bytea, c bigint, d boolean)")
        let rows: [[SQLValue]] = [[.text("tab\there\nnew\\line\r"), .bytes([0, 9, 10, 92, 255]), .int(7), .bool(false)],
                                  [.null, .null, .null, .null]]
        #expect(try connection.copy("COPY t (a, b, c, d) FROM STDIN", rows: rows) == 2)
        let back = try connection.execute("SELECT a, b, c, d FROM t ORDER BY c NULLS LAST")
        #expect(back.map(\.values) == rows)
    }

    @Test func rowsStreamOneAtATimeAndStoppingEarlyLeavesTheConnectionUsable() throws {
        let connection = try connect()
        var count = 0
        try connection.forEachRow("SELECT g FROM generate_series(1, $1::int) g", [.int(20_000)]) { row in
            count += 1
            return row.int(0) == Int64(count)
        }
        #expect(count == 20_000)
        var seen = 0
        // In the select list, not FROM: a FROM function is materialised
        // whole before its first row, the select list streams.
        try connection.forEachRow("SELECT generate_series(1, 100000000)") { _ in
            seen += 1
            return seen < 5
        }
        #expect(seen == 5)
        #expect(try connection.execute("SELECT 1").first?.int(0) == 1)
    }

    /// The cancel comes from a thread of its own, not a task: the blocking
    /// call holds a thread of the (small) cooperative pool, which a
    /// cancelling task might wait for, as repositories must keep in mind.
    @Test func aLongQueryIsCancelledFromAnotherThread() throws {
        let connection = try connect()
        let handle = connection.cancelHandle
        let cancelled = Later.run(after: .milliseconds(300)) { handle.cancel() }
        let started = ContinuousClock.now
        let error = #expect(throws: DatabaseError.self) { try connection.execute("SELECT pg_sleep(10)") }
        #expect(error?.kind == .cancelled)
        #expect(ContinuousClock.now - started < .seconds(8))
        #expect(try ContinuousClock.now - #require(cancelled.instant) < .seconds(2))
        #expect(try connection.execute("SELECT 2").first?.int(0) == 2)
    }

    @Test func theStatementTimeoutStopsALongQuery() throws {
        let connection = try connect()
        try connection.setStatementTimeout(.milliseconds(200))
        let error = #expect(throws: DatabaseError.self) { try connection.execute("SELECT pg_sleep(10)") }
        #expect(error?.kind == .timedOut)
    }

    @Test func failuresAreOneClearLine() throws {
        let server = try TestPostgres.server()
        let database = try server.makeDatabase()
        let wrongPassword = #expect(throws: DatabaseError.self) {
            try PostgresConnection(server.conninfo(database: database, password: "not-the-password"))
        }
        #expect(wrongPassword?.kind == .authentication)
        #expect(wrongPassword?.message == "PostgreSQL: password authentication failed for user \"postgres\"")
        let unknown = #expect(throws: DatabaseError.self) { try PostgresConnection(server.conninfo(database: "no_such_db")) }
        #expect(unknown?.kind == .unknownDatabase)
        #expect(unknown?.message == "PostgreSQL: database \"no_such_db\" does not exist")
        let connection = try PostgresConnection(server.conninfo(database: database))
        let missing = #expect(throws: DatabaseError.self) { try connection.execute("SELECT * FROM \(SQLText.identifier("people"))") }
        #expect(missing?.kind == .missingTable)
        #expect(missing?.message == "PostgreSQL: relation \"people\" does not exist")
        for error in [wrongPassword, unknown, missing] {
            #expect(error?.message.contains("\n") == false)
        }
    }

    @Test func aConnectionWaitsTenSecondsAtMostUnlessTheStringSaysOtherwise() throws {
        let server = try TestPostgres.server()
        let conninfo = server.conninfo(database: try server.makeDatabase())
        #expect(try PostgresConnection(conninfo).parameter("connect_timeout") == "10")
        #expect(try PostgresConnection(conninfo + " connect_timeout=3").parameter("connect_timeout") == "3")
    }

    @Test func theDescriptionNeverShowsThePassword() {
        #expect(PostgresConnection.describe("postgres://ann:s3cret@db.example:5433/dir?sslmode=require") == "postgres://ann@db.example:5433/dir")
        #expect(PostgresConnection.describe("host=/tmp user=ann password=s3cret dbname=dir") == "postgres://ann@/dir?host=/tmp")
        // An IPv6 address keeps its brackets, as a URI must write it.
        #expect(PostgresConnection.describe("postgresql://ann:S3cret@[::1]:5433/staff") == "postgres://ann@[::1]:5433/staff")
        #expect(PostgresConnection.describe("host=::1 user=ann dbname=staff") == "postgres://ann@[::1]/staff")
        #expect(DatabaseTarget("people.db") == .sqlite(path: "people.db"))
        #expect(DatabaseTarget("sqlite:x") == .sqlite(path: "x"))
        #expect(DatabaseTarget("dbname=x") == .postgres(conninfo: "dbname=x"))
        #expect(DatabaseTarget("people.json") == nil)
    }
}

@Suite(.blockingWork) struct SQLiteConnectionTests {
    private func temporaryPath() -> String {
        NSTemporaryDirectory() + "roster-sqlite-\(UUID().uuidString).db"
    }

    @Test func injectionIsJustText() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let connection = try SQLiteConnection(path: path, access: .readWrite)
        try connection.execute("CREATE TABLE people (name TEXT)")
        try connection.prepare("INSERT INTO people VALUES (?)").run([.text("José")])
        let hostile = "'); drop table people; --"
        #expect(try connection.query("SELECT count(*) FROM people WHERE name = ?", [.text(hostile)]).first?.int(0) == 0)
        #expect(try connection.query("SELECT count(*) FROM people").first?.int(0) == 1)
        let bytes: [UInt8] = [0, 0xFF, 0x27]
        #expect(try connection.query("SELECT ?, ?, ?", [.bytes(bytes), .int(-5), .null]).first == SQLRow([.bytes(bytes), .int(-5), .null]))
    }

    @Test func aRunawayQueryIsInterruptedFromAnotherThread() throws {
        let connection = try SQLiteConnection(path: ":memory:", access: .readWrite)
        let handle = connection.interruptHandle
        let interrupted = Later.run(after: .milliseconds(300)) { handle.interrupt() }
        let error = #expect(throws: DatabaseError.self) {
            try connection.query("WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter) SELECT count(*) FROM counter")
        }
        #expect(error?.kind == .cancelled)
        #expect(try ContinuousClock.now - #require(interrupted.instant) < .seconds(2))
        #expect(try connection.query("SELECT 3").first?.int(0) == 3)
    }

    @Test func readOnlyMissingAndRolledBack() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: DatabaseError.self) { try SQLiteConnection(path: path, access: .readOnly) }
        let writer = try SQLiteConnection(path: path, access: .readWrite)
        try writer.execute("CREATE TABLE t (n INTEGER)")
        #expect(throws: DatabaseError.self) {
            try writer.transaction { () throws(DatabaseError) in
                try writer.prepare("INSERT INTO t VALUES (?)").run([.int(1)])
                throw DatabaseError(.failed, "stop")
            }
        }
        #expect(try writer.query("SELECT count(*) FROM t").first?.int(0) == 0)
        let reader = try SQLiteConnection(path: path, access: .readOnly)
        #expect(throws: DatabaseError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        let missing = #expect(throws: DatabaseError.self) { try reader.query("SELECT * FROM people") }
        #expect(missing?.kind == .missingTable)
        #expect(missing?.message == "\(path): no such table: people")
    }

    @Test func anotherProgramsLockIsNamedAsSuch() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SQLiteConnection(path: path, access: .readWrite)
        try writer.execute("CREATE TABLE t (n INTEGER); BEGIN EXCLUSIVE")
        let reader = try SQLiteConnection(path: path, access: .readOnly, busyTimeout: .milliseconds(50))
        let locked = #expect(throws: DatabaseError.self) { try reader.query("SELECT count(*) FROM t") }
        #expect(locked?.message == "\(path): database is locked (another program is writing to it; try again when it has finished)")
        try writer.execute("ROLLBACK")
        #expect(try reader.query("SELECT count(*) FROM t").first?.int(0) == 0)
    }
}

/// Runs `action` on a thread of its own after `delay` (a busy machine's
/// pools cannot hold it back) and remembers when it ran.
private final class Later: Sendable {
    private let ranAt = Locked<ContinuousClock.Instant?>(nil)

    var instant: ContinuousClock.Instant? { ranAt.withLock { $0 } }

    static func run(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Later {
        let later = Later()
        Thread {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            // Noted first: the statement may end the moment the action runs.
            later.ranAt.withLock { $0 = .now }
            action()
        }.start()
        return later
    }
}
