import Foundation
import RosterCore

/// A real OpenLDAP server for the tests, started by the tests themselves:
/// Debian's `slapd` with a `slapd.conf` in a temporary directory (no
/// cn=config, nothing of the system's own server), an mdb database loaded
/// with `slapadd`, listening on a loopback port reserved for it
/// (`ReservedPort`) and on an `ldapi://` socket in that directory. It runs
/// in the foreground as our child, so it can be stopped, killed (`kill -9`)
/// and started again on the same port, as the outage tests need; it is
/// removed when its last reference goes, and at exit. A server left by a
/// killed run is removed by the next one.
///
/// No skip: if slapd cannot start, the test fails with the reason
/// (`make test` installs the packages, so this is a real fault).
public final class TestSlapd: Sendable {
    public struct Configuration: Sendable {
        public var suffix = "dc=example,dc=org"
        /// How many people `TestDirectoryLDIF.people` makes.
        public var people = 1200
        /// The server's size limit per search (0: none); paging goes past it.
        public var sizeLimit = 500
        /// Changes syncprov keeps in memory to resume a synchronisation
        /// without sending every entry's id (lost at a restart).
        public var sessionLog = 1000
        /// Whether syncprov answers a cookie it cannot resume from with
        /// e-syncRefreshRequired (`syncprov-reloadhint`) rather than by
        /// sending everyone.
        public var refreshRequiredForStaleCookies = false
        /// More LDIF to load after the people (by default the odd names,
        /// `TestDirectoryLDIF.oddNames`).
        public var extraLDIF: String? = nil

        public init() {}
    }

    public struct ServerFailure: Error, CustomStringConvertible {
        public var description: String
        /// Another program listened on the port first (it picked the port
        /// before ours was reserved): a start on another port will do.
        var portTaken = false
    }

    public static let adminPassword = "roster-ldap-admin-secret"
    public static let readerPassword = "roster-ldap-reader-secret"

    /// The one server most tests share (the default configuration: 1,200
    /// people, a size limit of 500), started on first use. Tests that
    /// change entries use their own (`started`) or entries of their own.
    public static func shared() async throws -> TestSlapd {
        try await sharedServer.value
    }

    private static let sharedServer = Task { try await offThePool { () throws(ServerFailure) in try TestSlapd.start(Configuration()) } }

    /// A server of its own, started on a thread of its own: loading and
    /// starting block for a while, and the cooperative pool (two threads
    /// here) runs every other test meanwhile.
    public static func started(_ configuration: Configuration) async throws -> TestSlapd {
        try await offThePool { () throws(ServerFailure) in try start(configuration) }
    }

    /// `restart`, on a thread of its own.
    public func restarted() async throws {
        try await Self.offThePool { () throws(ServerFailure) in try self.restart() }
    }

    private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws(ServerFailure) -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { () throws(ServerFailure) -> T in try body() }) }
        }
    }

    public let configuration: Configuration
    public let directory: String
    public var port: Int { reservedPort.number }
    private let reservedPort: ReservedPort
    private let process = Locked<pid_t?>(nil)

    public var suffix: String { configuration.suffix }
    public var peopleBase: String { "ou=People," + suffix }
    public var adminDN: String { "cn=admin," + suffix }
    public var readerDN: String { "cn=reader," + suffix }
    public var ldapURL: String { "ldap://127.0.0.1:\(port)" }
    public var socketPath: String { directory + "/ldapi" }
    /// `ldapi://` with the socket's path percent-encoded.
    public var ldapiURL: String { "ldapi://" + socketPath.replacingOccurrences(of: "/", with: "%2F") }
    /// A 0600 file holding the admin's password (as `ldapsearch -y` reads it).
    public var adminPasswordFile: String { directory + "/admin.password" }

    private init(configuration: Configuration, directory: String, port: ReservedPort) {
        self.configuration = configuration
        self.directory = directory
        reservedPort = port
    }

    deinit {
        kill()
        _ = Self.running.withLock { $0.removeValue(forKey: directory) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A server of its own, loaded and answering (blocking the caller).
    public static func start(_ configuration: Configuration) throws(ServerFailure) -> TestSlapd {
        guard FileManager.default.isExecutableFile(atPath: slapd) else {
            throw ServerFailure(description: "no \(slapd): install slapd and ldap-utils (make test does)")
        }
        Self.staleServersRemoved
        var attempt = 0
        while true {
            attempt += 1
            do {
                let directory = try Spawn.makeDirectory(prefix: prefix)
                let server = TestSlapd(configuration: configuration, directory: directory, port: try ReservedPort())
                try server.load()
                try server.restart()
                return server
            } catch let error as ServerFailure where error.portTaken && attempt < 3 {
                continue
            } catch let error as ServerFailure {
                throw error
            } catch {
                throw ServerFailure(description: "\(error)")
            }
        }
    }

    // MARK: Running

    /// Starts slapd (again) on the same port and socket, and waits until it
    /// answers.
    public func restart() throws(ServerFailure) {
        kill()
        let command = [Self.slapd, "-f", directory + "/slapd.conf", "-h", "\(ldapURL)/ \(ldapiURL)/", "-d", "0"]
        let child: pid_t
        do {
            child = try Spawn.start(command, outputPath: directory + "/slapd.log")
        } catch {
            throw ServerFailure(description: error.description)
        }
        process.withLock { $0 = child }
        Self.running.withLock { $0[directory] = child }
        try waitUntilAnswering(child)
    }

    /// Stops the server as an administrator would (SIGTERM), and waits.
    public func stop() {
        end(with: SIGTERM)
    }

    /// Kills the server at once (SIGKILL, as a crash or a pulled plug).
    public func kill() {
        end(with: SIGKILL)
    }

    /// Freezes the server (SIGSTOP): it keeps its connections open and
    /// answers nothing, as a hung host would, until `thaw`. Returns once
    /// every thread has stopped: `kill` only wakes the one thread the
    /// kernel hands the signal to, and until that thread runs (later on a
    /// busy machine) slapd's other threads go on answering.
    public func freeze() {
        guard let child = process.withLock({ $0 }) else { return }
        Glibc.kill(child, SIGSTOP)
        var status: Int32 = 0
        // The stop is reported to the parent when the last thread stops
        // (or the end, if slapd ended meanwhile: `end` then finds it gone).
        while waitpid(child, &status, WUNTRACED) == -1, errno == EINTR {}
    }

    public func thaw() {
        if let child = process.withLock({ $0 }) { Glibc.kill(child, SIGCONT) }
    }

    public var isRunning: Bool { process.withLock { $0 } != nil }

    /// slapd's process id while it runs.
    public var processID: pid_t? { process.withLock { $0 } }

    private func end(with signal: Int32) {
        guard let child = process.withLock({ current in
            defer { current = nil }
            return current
        }) else { return }
        Glibc.kill(child, signal)
        Glibc.kill(child, SIGCONT)  // a frozen server takes SIGTERM only once it runs
        Spawn.wait(for: child)
    }

    /// Waits until `child` itself listens on the port and the socket (at
    /// most 2 minutes: the whole suite shares two cores), or fails with
    /// the server's log if it ended. A port that answers is not enough:
    /// it may be another server's, ours having failed to listen.
    private func waitUntilAnswering(_ child: pid_t) throws(ServerFailure) {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        while clock.now < deadline {
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child {
                process.withLock { $0 = nil }
                throw ServerFailure(description: "slapd ended at once: " + log(), portTaken: reservedPort.answers)
            }
            if reservedPort.answers, FileManager.default.fileExists(atPath: socketPath), reservedPort.isListened(by: child) { return }
            usleep(10_000)
        }
        throw ServerFailure(description: "slapd did not answer within 2 minutes: " + log())
    }

    public func log() -> String {
        (try? String(contentsOfFile: directory + "/slapd.log", encoding: .utf8)) ?? ""
    }

    // MARK: Setting up

    private func load() throws {
        try "\(getpid())".write(toFile: directory + "/owner.pid", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: false)
        let conf = TestDirectoryLDIF.configuration(suffix: suffix, directory: directory, sizeLimit: configuration.sizeLimit,
                                                   sessionLog: configuration.sessionLog,
                                                   reloadHint: configuration.refreshRequiredForStaleCookies)
        try writePrivate(conf, to: directory + "/slapd.conf")
        try writePrivate(Self.adminPassword, to: adminPasswordFile)
        // The passwords reach slapd in this file only, never on a command line.
        let ldif = TestDirectoryLDIF.frame(suffix: suffix, adminPassword: Self.adminPassword, readerPassword: Self.readerPassword)
            + TestDirectoryLDIF.people(configuration.people, suffix: suffix)
            + (configuration.extraLDIF ?? TestDirectoryLDIF.oddNames(suffix: suffix))
        try writePrivate(ldif, to: directory + "/data.ldif")
        try Spawn.run([Self.slapadd, "-q", "-f", directory + "/slapd.conf", "-l", directory + "/data.ldif"])
        try? FileManager.default.removeItem(atPath: directory + "/data.ldif")
    }

    private func writePrivate(_ text: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ServerFailure(description: "could not write \(path)")
        }
    }

    // MARK: Leftovers

    private static let slapd = "/usr/sbin/slapd"
    private static let slapadd = "/usr/sbin/slapadd"
    private static let prefix = "roster-slapd-test-"
    /// Every server of this run, by directory, for the exit handler.
    private static let running: Locked<[String: pid_t]> = {
        atexit { TestSlapd.killRunning() }
        return Locked([:])
    }()

    private static func killRunning() {
        for (directory, child) in running.withLock({ $0 }) {
            Glibc.kill(child, SIGKILL)
            Spawn.wait(for: child)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Done once per run, before its first server.
    private static let staleServersRemoved: Void = removeStaleServers()

    /// Servers of earlier runs whose test process is gone: killed (by the
    /// pid slapd wrote, if it is still a slapd) and removed.
    private static func removeStaleServers() {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for entry in entries where entry.hasPrefix(prefix) {
            let directory = "/tmp/" + entry
            let owner = (try? String(contentsOfFile: directory + "/owner.pid", encoding: .utf8)).flatMap { Int32($0) }
            if let owner, Glibc.kill(owner, 0) == 0 { continue }
            if let pid = (try? String(contentsOfFile: directory + "/slapd.pid", encoding: .utf8))
                .flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
               let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8), command.contains(directory) {
                Glibc.kill(pid, SIGKILL)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
