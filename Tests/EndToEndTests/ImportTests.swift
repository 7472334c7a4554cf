import Foundation
import Testing

/// `roster import` as a user runs it, into SQLite (the PostgreSQL path is
/// the same command; RosterSQLTests import into a real server).
@Suite("roster import, end to end")
struct ImportEndToEndTests {
    @Test("imports standard input into an SQLite file, again idempotently, skipped records on stderr, no bar off a terminal")
    func importsIntoSQLite() throws {
        let path = NSTemporaryDirectory() + "roster-e2e-import-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let json = #"[{"_id": "a", "name": {"first": "José", "last": "Garza"}, "company": "Comgy"}, null, {"_id": "b", "name": {"first": "Ann", "last": "Lee"}}]"#
        let first = try runRoster(["import", "-", "--into", path], input: json)
        #expect(first.status == 0)
        #expect(first.output.isEmpty)
        #expect(first.error.contains("roster: stdin: 1 of 3 records skipped"))
        #expect(first.error.contains("record 2 (line 1): expected a person (an object), found null"))
        #expect(first.error.hasSuffix("roster: imported 2 people from stdin into \(path) (table people: 2 people, 2 companies)\n"))
        #expect(!first.error.contains("\u{1B}"))
        let again = try runRoster(["import", "-", "--into", "sqlite:" + path, "--table", "people"], input: json)
        #expect(again.status == 0)
        #expect(again.error.hasSuffix("(table people: 2 people, 2 companies)\n"))
        // JSON Lines into the same table: Ann again by _id, one newcomer.
        let lines = "{\"_id\": \"b\", \"name\": {\"first\": \"Ann\", \"last\": \"Lee\"}}\n{\"_id\": \"c\", \"name\": {\"first\": \"Cy\", \"last\": \"Orr\"}}\n"
        let jsonLines = try runRoster(["import", "--format", "jsonl", "-", "--into", path], input: lines)
        #expect(jsonLines.status == 0)
        #expect(jsonLines.error.hasSuffix("roster: imported 2 people from stdin into \(path) (table people: 3 people, 2 companies)\n"))
    }

    @Test("usage errors exit 2; a database that refuses exits 1 with one line, never the password")
    func failures() throws {
        let usage = try runRoster(["import", "people.json"])
        #expect(usage.status == 2)
        #expect(usage.error == "roster: import needs --into TARGET (try 'roster import --help')\n")
        let refused = try runRoster(["import", "-", "--into", "host=/nonexistent-roster-socket dbname=x password=hunter2"],
                                    input: #"[{"name": {"first": "A"}}]"#)
        #expect(refused.status == 1)
        #expect(refused.error.contains("PostgreSQL: connection to server on socket"))
        #expect(!refused.error.contains("hunter2"))
        #expect(refused.error.split(separator: "\n").count == 1)
    }
}
