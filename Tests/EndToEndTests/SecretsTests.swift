import Foundation
import Testing
import TestTraits

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
