import TestServers
import Foundation
import RosterCore
import RosterStore
@testable import RosterSQL
import TestSupport
import Testing
import TestTraits

/// Imports one at a time per database (the second waits for the first's
/// lock), what a re-import changed, and progress to the last phase.
@Suite(.blockingWork) struct ImportLockTests {
    static func store(_ people: [(String, String)]) throws -> PeopleStore {
        let records = people.enumerated().map { index, person in
            Fixtures.record(first: person.0, last: "Ng", company: person.1, email: "p\(index)@example.test", index: index)
        }
        return try Fixtures.directory(json: Fixtures.array(records)).store
    }

    /// Records every phase, from any thread.
    final class Phases: Sendable {
        let seen = Locked<[ImportPhase]>([])
        func record(_ phase: ImportPhase) { seen.withLock { $0.append(phase) } }
    }

    @Test func twoFirstImportsIntoANewPostgresDatabaseBothSucceedOneAfterTheOther() async throws {
        let server = try TestPostgres.server()
        let conninfo = server.conninfo(database: try server.makeDatabase())
        let store = try Self.store((0..<300).map { ("P\($0)", "C\($0 % 7)") })
        let phases = [Phases(), Phases()]
        let results = await withTaskGroup(of: Result<ImportReport, DatabaseError>.self) { group in
            for (number, table) in ["people", "staff"].enumerated() {
                let recorder = phases[number]
                group.addTask {
                    do throws(DatabaseError) {
                        let importer = try PeopleImporter(table: PeopleTable(name: table, dialect: .postgres), progress: recorder.record)
                        return .success(try importer.importPeople(store, into: PostgresConnection(conninfo)))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<ImportReport, DatabaseError>] = []
            for await result in group { results.append(result) }
            return results
        }
        for result in results {
            #expect(try result.get().tablePeople == 300)
        }
        let waited = phases.filter { $0.seen.withLock { $0.contains(.waiting) } }
        #expect(waited.count <= 1)
        for recorder in phases {
            let seen = recorder.seen.withLock { $0 }
            #expect(seen.last == .committing)
            #expect(seen.contains(.indexing(done: PeopleTable.postgresIndexCount, total: PeopleTable.postgresIndexCount)))
            #expect(seen.contains(.writing(done: 300, total: 300)))
        }
    }

    @Test func ctrlCWhileAnImportWaitsForTheLockImportsNothingAndSaysSo() throws {
        let binary = try #require(ProcessInfo.processInfo.environment["ROSTER_BINARY"], "set ROSTER_BINARY to the roster binary")
        let server = try TestPostgres.server()
        let conninfo = server.conninfo(database: try server.makeDatabase())
        let holder = try PostgresConnection(conninfo)
        try holder.execute("BEGIN")
        try holder.execute("SELECT pg_advisory_xact_lock(\(PeopleImporter.advisoryLock))")
        let file = NSTemporaryDirectory() + "roster-interrupt-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Fixtures.array([Fixtures.record()]).write(toFile: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["import", file, "--into", conninfo]
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        var waiting = false
        while !waiting, ContinuousClock.now < deadline {
            waiting = try holder.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").first?.int(0) == 1
        }
        #expect(waiting)
        process.interrupt()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try holder.execute("ROLLBACK")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        #expect(said.hasSuffix("roster: interrupted: nothing was imported (\(PostgresConnection.describe(conninfo)) is as it was)\n"))
        #expect(try holder.execute("SELECT to_regclass('people') IS NULL").first?.values.first == .bool(true))
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aReimportSaysWhatWasNewUpdatedAndUnchanged(dialect: PeopleTable.Dialect) throws {
        let first = try Self.store([("Ann", "Acme"), ("Bob", "Acme"), ("Cy", "Big")])
        let imported = try SQLRepositoryFixture.importing(first, into: dialect)
        // Ann as she was, Bob in another company, Cy as he was, and a new person.
        let again = try Self.store([("Ann", "Acme"), ("Bob", "Big"), ("Cy", "Big"), ("Di", "Big")])
        let importer = PeopleImporter(table: try PeopleTable(dialect: dialect))
        let report: ImportReport
        switch dialect {
        case .postgres: report = try importer.importPeople(again, into: PostgresConnection(imported.target))
        case .sqlite: report = try importer.importPeople(again, into: SQLiteConnection(path: imported.target, access: .readWrite))
        }
        #expect(report.changes == ImportChanges(added: 1, updated: 1, unchanged: 2))
        #expect(report.tablePeople == 4)
    }
}

extension PeopleTable {
    static var postgresIndexCount: Int { (try? PeopleTable(dialect: .postgres).secondaryIndexes.count) ?? -1 }
}
