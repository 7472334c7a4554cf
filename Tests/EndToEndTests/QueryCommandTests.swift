import Foundation
import Testing
import TestServers

/// `roster query` as a mail client runs it: the same lines from a file,
/// SQLite and PostgreSQL; mutt's first line, aerc's none; hostile values
/// kept on their line and off the terminal; exit statuses mutt can read.
@Suite("End to end: roster query for mail clients", .serialized, .blockingWork)
struct QueryCommandTests {
    /// Five people: one plain, one whose name and company hold a tab, a
    /// line end, an escape and a bidi override, one whose "email" is two
    /// addresses, one without an email, one with no company.
    static let people = #"""
    [
      {"_id": "1", "name": {"first": "Ada", "last": "Lovelace"}, "company": "Acme", "email": "ada@acme.test"},
      {"_id": "2", "name": {"first": "Bob\tX", "last": "Evil\n\u001b[2J"}, "company": "Ev\u202eil", "email": "bob@evil.test"},
      {"_id": "3", "name": {"first": "Cy", "last": "Comma"}, "company": "Acme", "email": "cy@acme.test, boss@evil.test"},
      {"_id": "4", "name": {"first": "Di", "last": "Nomail"}, "company": "Acme"},
      {"_id": "5", "name": {"first": "Ed", "last": "Ada"}, "company": "", "email": "ed@x.test"}
    ]
    """#

    static func file() throws -> (path: String, folder: String) {
        let folder = NSTemporaryDirectory() + "roster-e2e-query-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/people.json"
        try people.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, folder)
    }

    /// What each query prints, whatever the source.
    static func expectLines(_ target: String, environment: [String: String] = [:]) throws {
        let ada = try runRoster(["query", target, "ada"], environment: environment)
        #expect(ada.status == 0 && ada.error.isEmpty, "\(ada.error)")
        #expect(ada.output == "ed@x.test\tEd Ada\t\nada@acme.test\tAda Lovelace\tAcme\n", "by last name; no company is an empty field")
        let acme = try runRoster(["query", target, "company:acme"], environment: environment)
        #expect(acme.output == "ada@acme.test\tAda Lovelace\tAcme\n", "no email, or two addresses in one, is left out")
        let evil = try runRoster(["query", "--format", "aerc", target, "evil"], environment: environment)
        #expect(evil.output == "bob@evil.test\tBob X Evil [2J\tEvil\n", "tabs and line ends as spaces, control and bidi characters gone")
        let mutt = try runRoster(["query", "--format", "mutt", target, "Ada", "Lovelace"], environment: environment)
        #expect(mutt.status == 0)
        #expect(mutt.output == "roster: 1 address for 'Ada Lovelace'\nada@acme.test\tAda Lovelace\tAcme\n")
        let nobody = try runRoster(["query", "--format", "mutt", target, "zed"], environment: environment)
        #expect(nobody.status == 1 && nobody.output == "roster: no one with an email matches 'zed'\n", "as abook: 1 when no one matches")
        let none = try runRoster(["query", target, "zed"], environment: environment)
        #expect(none.status == 1 && none.output.isEmpty && none.error.isEmpty)
        // No words, or mutt's empty '%s': everyone with an address, as abook --mutt-query and khard email print everyone.
        for words in [[], [""]] {
            let everyone = try runRoster(["query", "--format", "mutt", target] + words, environment: environment)
            #expect(everyone.status == 0, "\(words)")
            #expect(everyone.output == "roster: 3 addresses\ned@x.test\tEd Ada\t\nbob@evil.test\tBob X Evil [2J\tEvil\nada@acme.test\tAda Lovelace\tAcme\n",
                    "\(words): \(everyone.output)")
        }
    }

    @Test("over a file: email, name and company, one line each, in last-name order")
    func overAFile() throws {
        let (path, folder) = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.expectLines(path)
    }

    @Test("over SQLite: the same lines")
    func overSQLite() throws {
        let (path, folder) = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/people.db"
        #expect(try runRoster(["import", path, "--into", database]).status == 0)
        try Self.expectLines(database)
    }

    @Test("over PostgreSQL: the same lines")
    func overPostgres() throws {
        let (path, folder) = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try TestPostgres.server()
        let target = "postgres://postgres@/\(try server.makeDatabase())?host=\(server.socketDirectory)"
        let environment = ["PGPASSWORD": TestPostgres.password]
        #expect(try runRoster(["import", path, "--into", target], environment: environment).status == 0)
        try Self.expectLines(target, environment: environment)
    }

    @Test("a bad query, a missing file, a wrong --format: the reason, and for mutt as its first line (standard error would land on its screen)")
    func mistakes() throws {
        let badQuery = try runRoster(["query", "people.json", "agee:3"])
        #expect(badQuery.status == 2 && badQuery.error.hasPrefix("roster: query: 'agee:3' (column 1): unknown field 'agee': did you mean age?"))
        let missing = try runRoster(["query", "--format", "mutt", "/nonexistent/people.json", "ada"])
        #expect(missing.status == 1 && missing.output == "roster: /nonexistent/people.json: no such file\n" && missing.error.isEmpty)
        let format = try runRoster(["query", "--format", "json", "people.json", "ada"])
        #expect(format.status == 2 && format.error.hasPrefix("roster: query: --format takes mutt or aerc, not 'json'"))
        let nothing = try runRoster(["query"])
        #expect(nothing.status == 2 && nothing.error.contains("query needs a TARGET"))
    }
}
