import RosterCore
import Foundation
import RosterSQL

/// One throwaway PostgreSQL server for the whole test run, started by the
/// tests themselves: `initdb` and `pg_ctl` (as the `postgres` user when
/// the tests run as root, since PostgreSQL refuses to run as root) in a
/// temporary directory, listening only on a private unix socket there
/// (`listen_addresses=''`), durability off for speed, password auth on
/// (so a wrong password can be tested). Stopped and removed at exit; a
/// server left by a killed run is removed by the next one. A test that
/// restarts a server starts one of its own (`privateServer`, `stop`,
/// `startAgain`); ending connections needs none (`terminateConnections`).
///
/// No skip: if the server cannot start, every database test fails with
/// the reason (`make test` installs the packages, so this is a real fault).
public final class TestPostgres: Sendable {
    public static let password = "roster-test-secret"
    /// Started on first use; the same for every test.
    static let shared: Result<TestPostgres, ServerFailure> = {
        do throws(ServerFailure) {
            return .success(try TestPostgres.start())
        } catch {
            return .failure(error)
        }
    }()

    public struct ServerFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The one server, or the reason it is missing (the test then fails).
    public static func server() throws -> TestPostgres {
        try shared.get()
    }

    /// A server of the caller's own, for a test that stops and restarts it
    /// (the shared one serves every other test meanwhile). Stopped and
    /// removed at exit, as the shared one is.
    public static func privateServer() throws -> TestPostgres {
        try start()
    }

    public let directory: String
    public var socketDirectory: String { directory }

    private init(directory: String) {
        self.directory = directory
    }

    /// A connection string for `database` as `postgres`.
    public func conninfo(database: String, password: String = TestPostgres.password) -> String {
        "host=\(socketDirectory) user=postgres dbname=\(database) password=\(password) connect_timeout=10"
    }

    private static let databaseCounter = Locked(0)

    /// How many connections to `database` are listening for Roster's
    /// changes (a Roster's listener, once it is ready).
    public func listeners(in database: String) throws -> Int {
        let admin = try PostgresConnection(conninfo(database: "postgres"))
        let rows = try admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'roster listener'", [.text(database)])
        return Int(rows.first?.int(0) ?? 0)
    }

    /// Ends the listening connections of every Roster on `database` (as a
    /// restarted server or a dropped network would); how many there were.
    public func endListeners(in database: String) throws -> Int {
        let admin = try PostgresConnection(conninfo(database: "postgres"))
        return try admin.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'roster listener'
            """, [.text(database)]).count
    }

    /// The first column of the first row of `query` (a count) in `database`.
    public func integer(_ query: String, in database: String) throws -> Int? {
        let connection = try PostgresConnection(conninfo(database: database))
        return try connection.execute(query).first?.int(0).map(Int.init)
    }

    /// A fresh, empty database of its own, so tests can run side by side.
    public func makeDatabase() throws -> String {
        let number = Self.databaseCounter.withLock { counter in
            counter += 1
            return counter
        }
        let name = "roster_test_\(number)"
        let admin = try PostgresConnection(conninfo(database: "postgres"))
        try admin.execute("CREATE DATABASE \(SQLText.identifier(name))")
        return name
    }

    // MARK: Starting and stopping

    private static let root = "/tmp"
    private static let prefix = "roster-pg-test-"
    /// Every server this run started, stopped at exit.
    private static let running = Locked<[String]>([])

    /// Stops the server as an administrator's restart does (`-m fast`:
    /// every session is ended at once, and what was committed is written
    /// out: this server's commits are not synchronous, so a crash could
    /// lose the last); its socket is gone until `startAgain`.
    public func stop() throws {
        guard let bin = Self.binaries() else { throw ServerFailure(description: "no PostgreSQL server binaries") }
        do {
            try Self.run(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"], asPostgres: getuid() == 0)
        } catch {
            throw ServerFailure(description: "\(error)")
        }
    }

    /// Starts the stopped server again; returns once it accepts connections.
    public func startAgain() throws {
        guard let bin = Self.binaries() else { throw ServerFailure(description: "no PostgreSQL server binaries") }
        do {
            try Self.run(bin + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "60", "-o", Self.settings(directory), "start"],
                         asPostgres: getuid() == 0)
        } catch {
            throw ServerFailure(description: "\(error)")
        }
    }

    /// Ends every connection to `database` but the caller's (as an
    /// administrator's `pg_terminate_backend`, a pooler or a failover
    /// would); `sparingListeners`: all but Roster's listening ones (a
    /// break nothing has noticed). How many there were.
    public func terminateConnections(to database: String, sparingListeners: Bool = false) throws -> Int {
        let admin = try PostgresConnection(conninfo(database: "postgres"))
        let spared = sparingListeners ? " AND application_name <> 'roster listener'" : ""
        return try admin.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()\(spared)
            """, [.text(database)]).count
    }

    private static func settings(_ directory: String) -> String {
        "-k \(directory) -c listen_addresses='' -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    }

    private static func start() throws(ServerFailure) -> TestPostgres {
        guard let bin = binaries() else {
            throw ServerFailure(description: "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: install postgresql (make test does)")
        }
        // One start at a time here: another's directory, made but not yet
        // claimed (its owner.pid not written), would look stale.
        starting.lock()
        defer { starting.unlock() }
        removeStaleServers(bin: bin)
        let directory: String
        do {
            directory = try Spawn.makeDirectory(prefix: prefix)
        } catch {
            throw ServerFailure(description: error.description)
        }
        let isRoot = getuid() == 0
        do {
            try "\(getpid())".write(toFile: directory + "/owner.pid", atomically: true, encoding: .utf8)
            try password.write(toFile: directory + "/password", atomically: true, encoding: .utf8)
            if isRoot { try run("/bin/chown", ["-R", "postgres:postgres", directory]) }
            try run(bin + "/initdb", ["-D", directory + "/data", "-U", "postgres", "--pwfile=" + directory + "/password",
                                      "-A", "scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync"], asPostgres: isRoot)
            let first = running.withLock { running in
                running.append(directory)
                return running.count == 1
            }
            if first { atexit { TestPostgres.stopRunning() } }
            try run(bin + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "60", "-o", settings(directory), "start"],
                    asPostgres: isRoot)
        } catch {
            let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
            throw ServerFailure(description: "\(error) \(log)")
        }
        return TestPostgres(directory: directory)
    }

    /// The newest installed server's bin directory.
    private static func binaries() -> String? {
        let base = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(base)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    private static func stopRunning() {
        guard let bin = binaries() else { return }
        for directory in running.withLock({ $0 }) { stop(directory: directory, bin: bin) }
    }

    private static func stop(directory: String, bin: String) {
        if FileManager.default.fileExists(atPath: directory + "/data/postmaster.pid") {
            _ = try? run(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], asPostgres: getuid() == 0)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Servers of earlier runs whose test process is gone.
    private static let starting = NSLock()

    private static func removeStaleServers(bin: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let mine = running.withLock { $0 }
        for entry in entries where entry.hasPrefix(prefix) {
            let directory = root + "/" + entry
            guard !mine.contains(directory) else { continue }
            let owner = (try? String(contentsOfFile: directory + "/owner.pid", encoding: .utf8)).flatMap { Int32($0) }
            if let owner, kill(owner, 0) == 0 { continue }
            // Another run's, made a moment ago and not claimed yet.
            let made = (try? FileManager.default.attributesOfItem(atPath: directory)[.creationDate] as? Date)
                ?? (try? FileManager.default.attributesOfItem(atPath: directory)[.modificationDate] as? Date)
            if owner == nil, let made, made.timeIntervalSinceNow > -60 { continue }
            stop(directory: directory, bin: bin)
        }
    }

    /// Runs a command and waits for it, as the `postgres` user when asked.
    private static func run(_ executable: String, _ arguments: [String], asPostgres: Bool = false) throws {
        try Spawn.run(asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments)
    }
}
