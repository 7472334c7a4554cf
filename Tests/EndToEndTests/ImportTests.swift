import Foundation
import Testing
import TestTraits

/// `roster import` as a user runs it, into SQLite (the PostgreSQL path is
/// the same command; RosterSQLTests import into a real server).
@Suite("roster import, end to end", .blockingWork)
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
        #expect(first.error.hasSuffix("roster: imported 2 people from stdin into \(path): 2 new, 0 updated, 0 unchanged (table people: 2 people · 1 company · 1 with no company)\n"))
        #expect(!first.error.contains("\u{1B}"))
        let again = try runRoster(["import", "-", "--into", "sqlite:" + path, "--table", "people"], input: json)
        #expect(again.status == 0)
        #expect(again.error.hasSuffix(": 0 new, 0 updated, 2 unchanged (table people: 2 people · 1 company · 1 with no company)\n"))
        // JSON Lines into the same table: Ann again by _id, one newcomer.
        let lines = "{\"_id\": \"b\", \"name\": {\"first\": \"Ann\", \"last\": \"Lee\"}}\n{\"_id\": \"c\", \"name\": {\"first\": \"Cy\", \"last\": \"Orr\"}}\n"
        let jsonLines = try runRoster(["import", "--format", "jsonl", "-", "--into", path], input: lines)
        #expect(jsonLines.status == 0)
        #expect(jsonLines.error.hasSuffix("roster: imported 2 people from stdin into \(path): 1 new, 0 updated, 1 unchanged (table people: 3 people · 1 company · 2 with no company)\n"))
    }

    @Test("the table's figures are said as the list's title says them: No company is no company, its people counted apart")
    func figuresAsTheTitleSaysThem() throws {
        let path = NSTemporaryDirectory() + "roster-e2e-import-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/people.json").path
        let imported = try runRoster(["import", sample, "--into", path])
        #expect(imported.status == 0)
        #expect(imported.error.hasSuffix("(table people: 400 people · 33 companies · 5 with no company)\n"), "\(imported.error)")
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

    @Test("--strict imports nothing when a record is skipped; a directory, or a table of another shape, is said in words")
    func strictAndForeignTargets() throws {
        let folder = NSTemporaryDirectory() + "roster-e2e-import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/t.db"
        let json = #"[{"_id": "a", "name": "Ann Lee"}, null]"#
        let strict = try runRoster(["import", "-", "--into", path, "--strict"], input: json)
        #expect(strict.status == 1)
        #expect(strict.error.hasSuffix("roster: stdin: with --strict nothing was imported\n"))
        #expect(!FileManager.default.fileExists(atPath: path))
        let directory = try runRoster(["import", "-", "--into", "sqlite:" + folder], input: json)
        #expect(directory.status == 1)
        #expect(directory.error.hasSuffix("roster: \(folder): is a directory, not an SQLite database file\n"))
        let one = try runRoster(["import", "-", "--into", path], input: #"[{"_id": "a", "name": "Ann Lee"}]"#)
        #expect(one.error.hasSuffix("(table people: 1 person · 0 companies · 1 with no company)\n"))
        #expect(one.error.contains("imported 1 person from stdin"))
        // The summary table is no people table: importing into it is refused in words, nothing changed.
        let foreign = try runRoster(["import", "-", "--into", path, "--table", "people_companies"], input: json)
        #expect(foreign.status == 1)
        #expect(foreign.error.contains("table people_companies exists but is not a Roster people table"))
        #expect(!foreign.error.contains("\(path): \(path)"))
    }
}
