import Foundation
import Testing
import TestTraits
import TestServers

/// Issue 18, item 1: a target's password never reaches standard error,
/// whatever libpq's message quotes; a malformed target is a usage error.
@Suite("passwords never shown, end to end", .blockingWork)
struct SecretsEndToEndTests {
    static let malformed = [
        ("postgres://ann:S3cret@[::1]x/staff", "S3cret"),
        ("postgres://ann:50%off@db/staff", "50%off"),
        ("postgres://ann:Pa%00ss@db/staff", "Pa%00ss"),
        ("postgres://ann:S3cret@[::1/staff", "S3cret"),
        ("postgres://db/staff?password=S3cr%GGet", "S3cr"),
    ]

    @Test("a malformed target: exit 2, one line, no password, no offline copy", arguments: malformed)
    func malformedTarget(target: String, secret: String) throws {
        for arguments in [["--list", target], ["import", "-", "--into", target]] {
            let finished = try runRoster(arguments, input: "[]")
            #expect(finished.status == 2, "\(arguments)")
            #expect(!finished.error.contains(secret), "\(finished.error)")
            #expect(finished.error.contains("not a valid PostgreSQL URI or connection string"), "\(finished.error)")
            #expect(!finished.error.contains("offline"))
            #expect(finished.error.split(separator: "\n").count == 1)
        }
    }

    @Test("a target that parses but cannot connect quotes no password, however it is spelled")
    func unreachableTarget() throws {
        for (target, secret) in [("postgres://ann:S3cretPw@/staff?host=/nonexistent-roster-socket", "S3cretPw"),
                                 ("host=/nonexistent-roster-socket dbname=x user=ann password='S3cret Pw'", "S3cret")] {
            let finished = try runRoster(["--list", target])
            #expect(finished.status == 1)
            #expect(!finished.error.contains(secret), "\(finished.error)")
        }
    }
}

/// Issue 18, item H: targets that differ only by what the environment or
/// a service file fills in are named (and so keyed) apart.
@Suite("targets named by where they lead, end to end", .blockingWork)
struct ResolvedTargetEndToEndTests {
    @Test("postgres:/// under PGDATABASE=alpha and =beta names each database")
    func environmentNamesTheTarget() throws {
        var messages: [String] = []
        for database in ["alpha", "beta"] {
            let finished = try runRoster(["--list", "postgres:///"],
                                         environment: ["PGDATABASE": database, "PGHOST": "/nonexistent-roster-socket"])
            #expect(finished.status == 1)
            messages.append(finished.error)
        }
        #expect(messages[0].contains("/alpha?host=/nonexistent-roster-socket: cannot open"), "\(messages[0])")
        #expect(messages[1].contains("/beta?host=/nonexistent-roster-socket: cannot open"), "\(messages[1])")
    }
}

/// Issue 34, item 14: a password given in the target is taken out of the
/// command line every user can read (`ps`, `/proc/PID/cmdline`) as soon as
/// Roster starts, the rest of the line kept; the connection still works.
@Suite("passwords hidden from ps, end to end", .serialized, .blockingWork)
struct HiddenArgumentsEndToEndTests {
    @Test("postgres://user:PW@… and password=PW: not in /proc/PID/cmdline or ps while the app runs; the directory opens",
          arguments: ["uri", "conninfo"])
    func passwordLeavesTheCommandLine(form: String) throws {
        let server = try TestPostgres.server()
        let database = try server.makeDatabase()
        let direct = "postgres://postgres@/\(database)?host=\(server.socketDirectory)"
        #expect(try runRoster(["import", EditingEndToEndTests.bundled, "--into", direct],
                              environment: ["PGPASSWORD": TestPostgres.password]).status == 0)
        let (target, shown) = form == "uri"
            ? ("postgres://postgres:\(TestPostgres.password)@/\(database)?host=\(server.socketDirectory)",
               "postgres://postgres:***@/\(database)?host=\(server.socketDirectory)")
            : (server.conninfo(database: database), server.conninfo(database: database, password: "***"))
        let cache = NSTemporaryDirectory() + "roster-e2e-ps-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let session = try TmuxSession("env -u PGPASSWORD XDG_CACHE_HOME=\(cache) \(TmuxSession.shellQuoted(rosterBinary)) "
                                      + "\(TmuxSession.shellQuoted(target)) --no-state")
        #expect(session.waitFor(text: "/400"), "the password still reached the server")
        let pid = try #require(rosterPID(under: session.panePID()))
        let cmdline = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        let arguments = String(decoding: cmdline, as: UTF8.self).split(separator: "\0").map(String.init)
        #expect(arguments == [rosterBinary, shown, "--no-state"], "the rest of the line is kept")
        #expect(!String(decoding: cmdline, as: UTF8.self).contains(TestPostgres.password))
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/usr/bin/ps")
        ps.arguments = ["-ww", "-o", "args=", "-p", "\(pid)"]
        let output = Pipe()
        ps.standardOutput = output
        try ps.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ps.waitUntilExit()
        #expect(listed.contains(shown) && !listed.contains(TestPostgres.password), "\(listed)")
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
