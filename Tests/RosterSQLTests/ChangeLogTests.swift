import Foundation
import RosterCore
@testable import RosterSQL
import RosterStore
import Testing
import TestSupport
import TestServers
import TestTraits

/// Every save writes the table's change log in its own transaction, and a
/// listener catches up from it: saves made while it was not listening
/// (its connection ended, or not made yet) are told of once, in order.
@Suite("A table's change log", .blockingWork)
struct ChangeLogTests {
    static func log(_ imported: SQLRepositoryFixture.Imported) throws -> [String] {
        let table = try PeopleTable(name: imported.table, dialect: imported.dialect)
        let sql = "SELECT seq, coalesce(person_key, '-'), operation, coalesce(version, -1), token FROM \(table.changeLog) ORDER BY seq"
        let rows: [SQLRow]
        switch imported.dialect {
        case .postgres: rows = try PostgresConnection(imported.target).execute(sql)
        case .sqlite: rows = try SQLiteConnection(path: imported.target, access: .readOnly).query(sql)
        }
        #expect(rows.map { $0.int(0)! } == rows.map { $0.int(0)! }.sorted(), "numbered in the order saved")
        #expect(rows.allSatisfy { $0.text(4) == ChangeLog.token })
        return rows.map { "\($0.text(2)!) \($0.text(1)!) \($0.int(3)!)" }
    }

    @Test("an import is one row, and each save a row per person it changed, in the save's order",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func saves(_ dialect: PeopleTable.Dialect) throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: dialect)
        _ = try PeopleEditorTests.apply(.update(id: "id2", changes: [PeopleEditorTests.change("age=31")]), to: imported)
        _ = try PeopleEditorTests.apply(.add(id: "id4", changes: [PeopleEditorTests.change("first=Di")]), to: imported)
        _ = try PeopleEditorTests.apply(.delete(ids: ["id1", "id3"]), to: imported)
        #expect(try Self.log(imported) == ["import - -1", "update id2 1", "add id4 1", "delete id1 -1", "delete id3 -1"])
    }

    /// A listener on `imported` that takes this process's saves for another's; counts what it is told.
    static func listening(to imported: SQLRepositoryFixture.Imported, since: ChangeLog.Position?) throws -> (PostgresChangeListener, Locked<Int>) {
        let told = Locked<Int>(0)
        let table = try PeopleTable(name: imported.table, dialect: .postgres)
        let listener = try PostgresChangeListener(beside: PostgresConnection(imported.target), table: table, since: since,
                                                  ownToken: "the listener's own process")
        listener.start { told.withLock { $0 += 1 } }
        return (listener, told)
    }

    @Test("a save between the table's read and the listener's LISTEN is caught up with at once")
    func betweenReadAndListen() throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .postgres)
        let read = try imported.open()
        _ = try PeopleEditorTests.apply(.update(id: "id2", changes: [PeopleEditorTests.change("age=31")]), to: imported)
        let (listener, told) = try Self.listening(to: imported, since: read.changeLogPosition)
        defer { listener.stop() }
        #expect(OpeningTests.eventually { told.withLock { $0 } == 1 })
    }

    @Test("the listening connection ended, three saves meanwhile: it connects again and tells of them, once")
    func catchesUpAfterReconnecting() throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .postgres)
        let (listener, told) = try Self.listening(to: imported, since: try imported.open().changeLogPosition)
        defer { listener.stop() }
        _ = try PeopleEditorTests.apply(.update(id: "id1", changes: [PeopleEditorTests.change("age=40")]), to: imported)
        #expect(OpeningTests.eventually { told.withLock { $0 } == 1 }, "heard while listening")

        let admin = try PostgresConnection(imported.target)
        let ended = try admin.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
            WHERE application_name = '\(PostgresChangeListener.applicationName)' AND datname = current_database()
            """)
        #expect(ended.count == 1)
        for age in 41...43 {
            _ = try PeopleEditorTests.apply(.update(id: "id1", changes: [PeopleEditorTests.change("age=\(age)")]), to: imported)
        }
        #expect(OpeningTests.eventually { told.withLock { $0 } >= 2 }, "caught up after connecting again")
        #expect(OpeningTests.eventually {
            (try? admin.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'roster listener' AND datname = current_database()"))?
                .first?.int(0) == 1
        }, "listening again")
        #expect(told.withLock { $0 } == 2, "the three saves told of once, together")
        _ = try PeopleEditorTests.apply(.update(id: "id2", changes: [PeopleEditorTests.change("age=44")]), to: imported)
        #expect(OpeningTests.eventually { told.withLock { $0 } >= 3 }, "and hears the next save as before")
        #expect(told.withLock { $0 } == 3)
    }

    @Test("two saves whose commits cross (the one numbered first commits last): the listener tells of both")
    func crossedCommits() throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .postgres)
        let (listener, told) = try Self.listening(to: imported, since: try imported.open().changeLogPosition)
        defer { listener.stop() }
        // A: a writer that takes its number, then is slow to commit (a Roster from before edits took turns, a script).
        let first = try PostgresConnection(imported.target)
        try first.execute("BEGIN")
        try first.execute("UPDATE people SET age = 41, version = version + 1 WHERE person_key = 'id1'")
        let firstSeq = try #require(first.execute("""
            INSERT INTO people_changes (person_key, operation, version, token) VALUES ('id1', 'update', 1, 'writer A') RETURNING seq
            """).first?.int(0))
        try first.execute("SELECT pg_notify('\(ChangeLog.channel)', 'people\twriter A')")
        // B: numbered after A, committed before it.
        _ = try PeopleEditorTests.apply(.update(id: "id2", changes: [PeopleEditorTests.change("age=31")]), to: imported)
        let secondSeq = try #require(PostgresConnection(imported.target).execute("SELECT max(seq) FROM people_changes").first?.int(0))
        #expect(firstSeq < secondSeq, "A took its number first")
        #expect(OpeningTests.eventually { told.withLock { $0 } == 1 }, "B told of, the log read past A's number")
        try first.execute("COMMIT")
        #expect(OpeningTests.eventually { told.withLock { $0 } == 2 }, "A told of once it commits, though its number was passed")
        _ = try PeopleEditorTests.apply(.update(id: "id3", changes: [PeopleEditorTests.change("age=51")]), to: imported)
        #expect(OpeningTests.eventually { told.withLock { $0 } == 3 }, "and the next save as before")
        #expect(told.withLock { $0 } == 3, "none told of twice")
    }

    /// A table whose log is as Roster made it before transaction ids, and the owner's session on it.
    static func olderLog() throws -> (SQLRepositoryFixture.Imported, PostgresConnection) {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .postgres)
        let admin = try PostgresConnection(imported.target)
        try admin.execute("DROP INDEX people_changes_xact")
        try admin.execute("ALTER TABLE people_changes DROP COLUMN \(ChangeLog.transactionColumn)")
        return (imported, admin)
    }

    @Test("a log from before transaction ids (read by number until then) gets them at the next save, and then reads by transaction")
    func olderLogBroughtUpToDate() throws {
        let (imported, admin) = try Self.olderLog()
        let before = try #require(try imported.open().changeLogPosition)
        #expect(before.snapshot == nil, "read by number")
        let (listener, told) = try Self.listening(to: imported, since: before)
        defer { listener.stop() }
        _ = try PeopleEditorTests.apply(.update(id: "id2", changes: [PeopleEditorTests.change("age=31")]), to: imported)
        #expect(OpeningTests.eventually { told.withLock { $0 } == 1 })
        #expect(try admin.execute("SELECT count(\(ChangeLog.transactionColumn)) FROM people_changes").first?.int(0) == 1,
                "the save's row has its transaction")
        #expect(try admin.execute("SELECT count(*) FROM pg_indexes WHERE indexname = 'people_changes_xact'").first?.int(0) == 1)
        #expect(try imported.open().changeLogPosition?.snapshot != nil, "read by transaction from now on")
    }

    @Test("a user who may save but does not own the log: saves land, the log left as it is (read by number)")
    func olderLogAndAUserWhoMayNotChangeIt() throws {
        let (imported, admin) = try Self.olderLog()
        let clerk = "clerk_" + UUID().uuidString.prefix(8).lowercased()
        try admin.execute("CREATE ROLE \(clerk) LOGIN PASSWORD 'clerk-secret'")
        try admin.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON people, people_companies, people_changes TO \(clerk)")
        try admin.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(clerk)")
        let connection = try PostgresConnection(imported.target.replacingOccurrences(of: "user=postgres", with: "user=\(clerk)")
            .replacingOccurrences(of: "password=\(TestPostgres.password)", with: "password=clerk-secret"))
        let editor = PeopleEditor(table: try PeopleTable(name: "people", dialect: .postgres))
        #expect(try editor.apply(.update(id: "id2", changes: [PeopleEditorTests.change("age=31")]), ifVersion: nil, on: connection).version == 1)
        #expect(try admin.execute("SELECT count(*) FROM people_changes WHERE person_key = 'id2'").first?.int(0) == 1)
        #expect(try admin.execute("SELECT count(*) FROM pg_attribute WHERE attrelid = 'people_changes'::regclass AND attname = '\(ChangeLog.transactionColumn)' AND NOT attisdropped").first?.int(0) == 0)
    }
}
