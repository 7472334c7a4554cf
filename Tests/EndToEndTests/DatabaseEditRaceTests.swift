import Foundation
import RosterSQL
import Testing
import TestServers
import TestTraits

/// `roster update` and `roster add` run many at once against one table, as
/// a team's scripts do: every edit lands, the company summary counts them
/// all, and no two people share an `index` or a position. And an import
/// of unchanged data leaves every version where it was.
@Suite("End to end: many edits of one table at once", .blockingWork)
struct DatabaseEditRaceTests {
    /// `count` people of one company, `id0`…, as a JSON file.
    static func oneCompany(_ count: Int) throws -> String {
        let records = (0..<count).map { index in
            #"{"_id": "id\#(index)", "index": \#(index), "name": {"first": "P\#(index)", "last": "L\#(index)"}, "company": "ACME", "balance": "$1.00", "age": 30}"#
        }
        let file = NSTemporaryDirectory() + "roster-e2e-race-\(UUID().uuidString).json"
        try ("[" + records.joined(separator: ",\n") + "]").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// A fresh table of `file`'s people in `dialect`: its target, the
    /// environment roster needs, and a session of the test's own on it.
    static func imported(_ file: String, into dialect: PeopleTable.Dialect)
        throws -> (target: String, environment: [String: String], query: (String) throws -> [SQLRow]) {
        switch dialect {
        case .postgres:
            let server = try TestPostgres.server()
            let database = try server.makeDatabase()
            let target = "postgres://postgres@/\(database)?host=\(server.socketDirectory)"
            let environment = ["PGPASSWORD": TestPostgres.password]
            let imported = try runRoster(["import", file, "--into", target], environment: environment)
            #expect(imported.status == 0, "\(imported.error)")
            let connection = try PostgresConnection(server.conninfo(database: database))
            return (target, environment, { sql throws in try connection.execute(sql) })
        case .sqlite:
            let target = NSTemporaryDirectory() + "roster-e2e-race-\(UUID().uuidString).db"
            let imported = try runRoster(["import", file, "--into", target])
            #expect(imported.status == 0, "\(imported.error)")
            return (target, [:], { sql throws in try SQLiteConnection(path: target, access: .readOnly).query(sql) })
        }
    }

    @Test("51 updates of different people of one company at once: all land, and the summary still counts everyone",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func updatesOfOneCompanyAtOnce(_ dialect: PeopleTable.Dialect) throws {
        let file = try Self.oneCompany(60)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (target, environment, query) = try Self.imported(file, into: dialect)
        let runs = (0..<51).map { ["update", target, "id\($0)", "email=n\($0)@x.io", "age=\(40 + $0 % 7)"] }
        let finished = try runRosterAtOnce(runs, environment: environment)
        let failed = finished.filter { $0.status != 0 }.map(\.error)
        #expect(failed.isEmpty, "\(failed.count) failed: \(failed.prefix(3))")
        #expect(!finished.contains { $0.error.contains("duplicate key") || $0.error.contains("constraint") }, "no server text")
        #expect(try query("SELECT count(*) FROM people WHERE email LIKE '%@x.io'").first?.int(0) == 51)
        #expect(try query("SELECT count(*) FROM people WHERE version = 1").first?.int(0) == 51)
        let ages = (0..<51).reduce(0) { $0 + 40 + $1 % 7 } + 9 * 30
        #expect(try query("SELECT headcount, ages, age_sum FROM people_companies").map { [$0.int(0), $0.int(1), $0.int(2)] }
                == [[60, 60, Int64(ages)]], "the summary row, counted from every row")
    }

    @Test("30 adds at once: all land, each with an index and a position of its own",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func addsAtOnce(_ dialect: PeopleTable.Dialect) throws {
        let file = try Self.oneCompany(5)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (target, environment, query) = try Self.imported(file, into: dialect)
        let runs = (0..<30).map { ["add", target, "first=New\($0)", "last=Comer", "company=ACME"] }
        let finished = try runRosterAtOnce(runs, environment: environment)
        let failed = finished.filter { $0.status != 0 }.map(\.error)
        #expect(failed.isEmpty, "\(failed.count) failed: \(failed.prefix(3))")
        #expect(try query("SELECT count(*), count(DISTINCT record_index), count(DISTINCT position) FROM people").first
                == SQLRow([.int(35), .int(35), .int(35)]))
        #expect(try query("SELECT min(record_index), max(record_index) FROM people").first == SQLRow([.int(0), .int(34)]))
        #expect(try query("SELECT headcount FROM people_companies").first?.int(0) == 35)
    }

    @Test("an update that gives up waiting on a table another session locked says so in words: nothing changed, try again")
    func updateGivingUpOnALock() throws {
        let (target, environment, query) = try Self.imported(EditingEndToEndTests.bundled, into: .postgres)
        let id = try #require(query("SELECT person_key FROM people ORDER BY person_key LIMIT 1").first?.text(0))
        let server = try TestPostgres.server()
        // postgres://postgres@/DATABASE?host=…
        let database = try #require(target.split(separator: "@/").last?.split(separator: "?").first.map(String.init))
        let locker = try PostgresConnection(server.conninfo(database: database))
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE people IN ACCESS EXCLUSIVE MODE")
        // The script's own patience (a command-line edit waits on a lock as long as the server lets it).
        let update = try runRoster(["update", target, id, "age=77"], environment: environment.merging(["PGOPTIONS": "-c lock_timeout=200"]) { $1 })
        try locker.execute("ROLLBACK")
        #expect(update.status == 1)
        #expect(update.error.hasSuffix(": table people is locked, or the server busy; nothing changed, try again\n"), "\(update.error)")
        #expect(try query("SELECT count(*) FROM people WHERE age = 77").first?.int(0) == 0)
    }

    @Test("importing the same people again leaves every version as it was: a script holding --if-version 0 still saves",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func reimportKeepsVersions(_ dialect: PeopleTable.Dialect) throws {
        let (target, environment, query) = try Self.imported(EditingEndToEndTests.bundled, into: dialect)
        let again = try runRoster(["import", EditingEndToEndTests.bundled, "--into", target], environment: environment)
        #expect(again.status == 0)
        #expect(again.error.contains("0 new, 0 updated, 400 unchanged"), "\(again.error)")
        #expect(try query("SELECT count(*) FROM people WHERE version = 0").first?.int(0) == 400)
        let id = try #require(query("SELECT person_key FROM people ORDER BY person_key LIMIT 1").first?.text(0))
        let update = try runRoster(["update", target, id, "age=77", "--if-version", "0"], environment: environment)
        #expect(update.status == 0, "\(update.error)")
    }
}
