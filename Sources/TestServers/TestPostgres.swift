import RosterCore
import Foundation
import RosterSQL

/// One throwaway PostgreSQL server for the whole test run, started by the
/// tests themselves: `initdb` and `pg_ctl` (as the `postgres` user when
/// the tests run as root, since PostgreSQL refuses to run as root) in a
/// temporary directory, listening only on a private unix socket there
/// (`listen_addresses=''`), durability off for speed, password auth on
/// (so a wrong password can be tested). Stopped and removed at exit; a
/// server left by a killed run is removed by the next one.
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
    private static let running = Locked<String?>(nil)

    private static func start() throws(ServerFailure) -> TestPostgres {
        guard let bin = binaries() else {
            throw ServerFailure(description: "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: install postgresql (make test does)")
        }
        removeStaleServers(bin: bin)
        let template = root + "/" + prefix + "XXXXXX"
        var path = Array(template.utf8CString)
        guard mkdtemp(&path) != nil else { throw ServerFailure(description: "mkdtemp failed: \(errno)") }
        let directory = String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let isRoot = getuid() == 0
        do {
            try "\(getpid())".write(toFile: directory + "/owner.pid", atomically: true, encoding: .utf8)
            try password.write(toFile: directory + "/password", atomically: true, encoding: .utf8)
            if isRoot { try run("/bin/chown", ["-R", "postgres:postgres", directory]) }
            try run(bin + "/initdb", ["-D", directory + "/data", "-U", "postgres", "--pwfile=" + directory + "/password",
                                      "-A", "scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync"], asPostgres: isRoot)
            running.withLock { $0 = directory }
            atexit { TestPostgres.stopRunning() }
            // Room for a test's 51 processes at once beside the other suites' connections (the default 100 ran out).
            let settings = "-k \(directory) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                + " -c max_connections=300"
            try run(bin + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "60", "-o", settings, "start"],
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
        guard let directory = running.withLock({ $0 }), let bin = binaries() else { return }
        stop(directory: directory, bin: bin)
    }

    private static func stop(directory: String, bin: String) {
        if FileManager.default.fileExists(atPath: directory + "/data/postmaster.pid") {
            _ = try? run(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], asPostgres: getuid() == 0)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Servers of earlier runs whose test process is gone.
    private static func removeStaleServers(bin: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for entry in entries where entry.hasPrefix(prefix) {
            let directory = root + "/" + entry
            let owner = (try? String(contentsOfFile: directory + "/owner.pid", encoding: .utf8)).flatMap { Int32($0) }
            if let owner, kill(owner, 0) == 0 { continue }
            stop(directory: directory, bin: bin)
        }
    }

    private struct CommandFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a command and waits for it: `posix_spawn` and `waitpid`, since
    /// Foundation's `Process` can miss the exit of `runuser` (seen here).
    private static func run(_ executable: String, _ arguments: [String], asPostgres: Bool = false) throws {
        let command = asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments
        // Output to a file, not a pipe: the server pg_ctl starts could keep
        // a pipe open, and reading it to the end would never finish.
        let outputPath = NSTemporaryDirectory() + "roster-pg-command-\(getpid())-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The server lives for the whole run: it must not inherit a pipe or
        // socket of a test running meanwhile (that test would wait for ever
        // for its other end to close).
        Descriptor.closeInChild(from: 3, &actions)
        var arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, command[0], &actions, nil, &arguments, environ)
        guard spawned == 0 else { throw CommandFailed(description: "\(command[0]) could not start (\(spawned))") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1, errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw CommandFailed(description: "\(command.joined(separator: " ")) failed: \(text)")
        }
    }
}
