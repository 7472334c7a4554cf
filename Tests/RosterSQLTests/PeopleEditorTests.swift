import Foundation
import RosterCore
@testable import RosterSQL
import RosterStore
import Testing
import TestSupport
import TestTraits

/// Edits of an imported table, on real PostgreSQL and real SQLite: each
/// leaves the table, its summary and its search exactly as a fresh import
/// of the edited people would, and a row no longer at the version an edit
/// was based on is a conflict.
@Suite("Editing a database's people", .blockingWork)
struct PeopleEditorTests {
    static let records = [
        Fixtures.record(first: "Ada", last: "Lovelace", company: "ACME", balance: "$1,000.00", index: 1, extra: "\"age\": 36"),
        Fixtures.record(first: "Bo", last: "Diddley", company: "ACME", email: "bo@acme.test", balance: "$5.00", index: 2, extra: "\"age\": 30"),
        Fixtures.record(first: "Cy", last: "Young", company: "Zeta", email: "cy@zeta.test", balance: "$2.50", index: 3, extra: "\"age\": 50"),
    ]
    static let people = Fixtures.array(records)

    static func change(_ assignment: String) throws -> FieldChange { try FieldCheck.change(from: assignment) }

    /// Runs `operation` on the imported table.
    static func apply(_ operation: RecordOperation, ifVersion: Int64? = nil, to imported: SQLRepositoryFixture.Imported)
        throws -> PeopleEditor.Receipt {
        let editor = PeopleEditor(table: try PeopleTable(name: imported.table, dialect: imported.dialect))
        switch imported.dialect {
        case .postgres: return try editor.apply(operation, ifVersion: ifVersion, on: PostgresConnection(imported.target))
        case .sqlite: return try editor.apply(operation, ifVersion: ifVersion, on: SQLiteConnection(path: imported.target, access: .readWrite))
        }
    }

    /// The summary's rows, sorted by company key.
    static func summary(_ imported: SQLRepositoryFixture.Imported) throws -> [CompanyTotals] {
        let table = try PeopleTable(name: imported.table, dialect: imported.dialect)
        let sql = "SELECT \(table.summaryColumns.joined(separator: ", ")) FROM \(table.summaryTable) ORDER BY company_key"
        let rows: [SQLRow]
        switch imported.dialect {
        case .postgres: rows = try PostgresConnection(imported.target).execute(sql)
        case .sqlite: rows = try SQLiteConnection(path: imported.target, access: .readOnly).query(sql)
        }
        return rows.compactMap(CompanyTotals.init(summaryRow:))
    }

    /// Everyone, as `--list` would print them.
    static func listed(_ imported: SQLRepositoryFixture.Imported) async throws -> [String] {
        let repository = try imported.open()
        let arrangement = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        return try await repository.people(in: arrangement, positions: 0..<arrangement.count).map { "\($0.fullName) \($0.company) \($0.email) \($0.balance.text) \($0.age.map(String.init) ?? "-")" }
    }

    @Test("update, add and delete: the people, the summary and the search are a fresh import's of the result",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func editsMatchAFreshImport(_ dialect: PeopleTable.Dialect) async throws {
        let imported = try SQLRepositoryFixture.importing(json: Self.people, into: dialect)
        let updated = try Self.apply(.update(id: "id2", changes: [Self.change("company=Zeta"), Self.change("email=bo@zeta.io"),
                                                                 Self.change("balance=$7.25"), Self.change("age=")]), to: imported)
        #expect(updated.version == 1 && !updated.addedVersions)
        #expect(updated.before.map(\.fullName) == ["Bo Diddley"] && updated.before.first?.email == "bo@acme.test", "the row as it was")
        #expect(try Self.apply(.add(id: "id4", changes: [Self.change("first=Di"), Self.change("last=Zed"), Self.change("company=New Co")]),
                               to: imported).version == 1)
        #expect(try Self.apply(.delete(ids: ["id1"]), to: imported).version == nil)
        let expected = try SQLRepositoryFixture.importing(json: Fixtures.array([
            Fixtures.record(first: "Bo", last: "Diddley", company: "Zeta", email: "bo@zeta.io", balance: "$7.25", index: 2),
            Fixtures.record(first: "Cy", last: "Young", company: "Zeta", email: "cy@zeta.test", balance: "$2.50", index: 3, extra: "\"age\": 50"),
            "{\"_id\": \"id4\", \"index\": 4, \"name\": {\"first\": \"Di\", \"last\": \"Zed\"}, \"company\": \"New Co\"}",
        ]), into: dialect)
        #expect(try Self.summary(imported) == Self.summary(expected))
        #expect(try await Self.listed(imported) == Self.listed(expected))
        let repository = try imported.open()
        let added = try #require(try await repository.personID(recordID: "id4"))
        #expect(try await repository.person(added).index == 4, "one past the highest index (Cy's 3), never the count")
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        #expect(try await repository.search(SearchQuery("bo@zeta"), in: everyone, within: nil).count == 1, "the search text follows the edit")
        #expect(try await repository.search(SearchQuery("lovelace"), in: everyone, within: nil).count == 0)
    }

    @Test("an update that sets only values the row has writes nothing: its version stays, no change is logged",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func anUpdateThatChangesNothing(_ dialect: PeopleTable.Dialect) throws {
        let imported = try SQLRepositoryFixture.importing(json: Self.people, into: dialect)
        let changed = try Self.apply(.update(id: "id1", changes: [Self.change("age=37")]), to: imported)
        #expect(changed.version == 1)
        let logged = try Self.count("SELECT count(*) FROM people_changes", in: imported)
        let same = try Self.apply(.update(id: "id1", changes: [Self.change("age=37"), Self.change("first=Ada")]), ifVersion: 1, to: imported)
        #expect(same.version == 1, "not bumped")
        #expect(same.before.first?.age == 37)
        #expect(try Self.count("SELECT count(*) FROM people_changes", in: imported) == logged)
        #expect(try Self.count("SELECT version FROM people WHERE person_key = 'id1'", in: imported) == 1)
        #expect(try Self.apply(.update(id: "id1", changes: [Self.change("age=38")]), ifVersion: 1, to: imported).version == 2)
    }

    /// The first column of the first row `sql` reads, as a whole number.
    static func count(_ sql: String, in imported: SQLRepositoryFixture.Imported) throws -> Int64? {
        switch imported.dialect {
        case .postgres: return try PostgresConnection(imported.target).execute(sql).first?.int(0)
        case .sqlite: return try SQLiteConnection(path: imported.target, access: .readOnly).query(sql).first?.int(0)
        }
    }

    @Test("a stale version or a row deleted meanwhile is a conflict, and nothing changes",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func conflicts(_ dialect: PeopleTable.Dialect) async throws {
        let imported = try SQLRepositoryFixture.importing(json: Self.people, into: dialect)
        #expect(try Self.apply(.update(id: "id1", changes: [Self.change("age=40")]), ifVersion: 0, to: imported).version == 1)
        let before = try await Self.listed(imported)
        #expect(throws: EditFailure(.conflict, "table people: _id id1 is at version 1, not 0: someone else changed it; nothing changed")) {
            try Self.apply(.update(id: "id1", changes: [Self.change("age=41")]), ifVersion: 0, to: imported)
        }
        #expect(throws: EditFailure(.conflict, "table people: _id id1 is at version 1, not 0: someone else changed it; nothing changed")) {
            try Self.apply(.delete(ids: ["id2", "id1"]), ifVersion: 0, to: imported)
        }
        #expect(try await Self.listed(imported) == before, "the delete of b2 went back with the refused a1")
        _ = try Self.apply(.delete(ids: ["id3"]), to: imported)
        #expect(throws: EditFailure(.conflict, "table people: _id id3 was deleted by someone else; nothing changed")) {
            try Self.apply(.update(id: "id3", changes: [Self.change("age=1")]), ifVersion: 0, to: imported)
        }
        #expect(throws: EditFailure(.notFound, "table people: no person has _id zz")) {
            try Self.apply(.update(id: "zz", changes: [Self.change("age=1")]), to: imported)
        }
    }

    @Test("a table imported before edits gets its version column, once; importing again moves a changed row's version on, and no other",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func versionColumn(_ dialect: PeopleTable.Dialect) throws {
        let imported = try SQLRepositoryFixture.importing(json: Self.people, into: dialect)
        let drop = "ALTER TABLE people DROP COLUMN version"
        switch dialect {
        case .postgres: _ = try PostgresConnection(imported.target).execute(drop)
        case .sqlite: try SQLiteConnection(path: imported.target, access: .readWrite).execute(drop)
        }
        let first = try Self.apply(.update(id: "id1", changes: [Self.change("age=40")]), to: imported)
        #expect(first.version == 1 && first.addedVersions)
        let second = try Self.apply(.update(id: "id1", changes: [Self.change("age=41")]), to: imported)
        #expect(second.version == 2 && !second.addedVersions)
        let importer = PeopleImporter(table: try PeopleTable(name: "people", dialect: dialect))
        let store = try Fixtures.directory(json: Self.people).store
        switch dialect {
        case .postgres: _ = try importer.importPeople(store, into: PostgresConnection(imported.target))
        case .sqlite: _ = try importer.importPeople(store, into: SQLiteConnection(path: imported.target, access: .readWrite))
        }
        #expect(throws: EditFailure.self) {
            try Self.apply(.update(id: "id1", changes: [Self.change("age=42")]), ifVersion: 2, to: imported)
        }
        #expect(try Self.apply(.update(id: "id1", changes: [Self.change("age=42")]), ifVersion: 3, to: imported).version == 4)
        #expect(try Self.apply(.update(id: "id2", changes: [Self.change("age=31")]), ifVersion: 0, to: imported).version == 1,
                "a row the import found as it was kept its version")
        // The same people in another order: each takes its new position, and keeps its version.
        let reordered = try Fixtures.directory(json: Fixtures.array(Self.records.reversed())).store
        let positions = "SELECT person_key, position, version FROM people ORDER BY person_key"
        switch dialect {
        case .postgres:
            let connection = try PostgresConnection(imported.target)
            _ = try importer.importPeople(reordered, into: connection)
            #expect(try connection.execute(positions) == [SQLRow([.text("id1"), .int(2), .int(5)]), SQLRow([.text("id2"), .int(1), .int(2)]),
                                                          SQLRow([.text("id3"), .int(0), .int(0)])])
        case .sqlite:
            let connection = try SQLiteConnection(path: imported.target, access: .readWrite)
            _ = try importer.importPeople(reordered, into: connection)
            #expect(try connection.query(positions) == [SQLRow([.text("id1"), .int(2), .int(5)]), SQLRow([.text("id2"), .int(1), .int(2)]),
                                                        SQLRow([.text("id3"), .int(0), .int(0)])])
        }
    }

    @Test("an update or add that would leave someone without a name is refused as a file refuses it, and nothing changes",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func namelessRefused(_ dialect: PeopleTable.Dialect) async throws {
        let imported = try SQLRepositoryFixture.importing(json: Self.people, into: dialect)
        let before = try await Self.listed(imported)
        let refusal = EditFailure(.invalid, "table people: a first or last name is needed; nothing changed")
        for changes in [["first=", "last="], ["first= ", "last=\u{200B}"]] {
            #expect(throws: refusal) { try Self.apply(.update(id: "id1", changes: changes.map(Self.change)), to: imported) }
        }
        #expect(throws: refusal) { try Self.apply(.add(id: "id9", changes: [Self.change("company=ACME")]), to: imported) }
        #expect(try await Self.listed(imported) == before)
        #expect(try Self.summary(imported) == Self.summary(try SQLRepositoryFixture.importing(json: Self.people, into: dialect)))
        #expect(try Self.apply(.update(id: "id1", changes: [Self.change("first=")]), to: imported).version == 1, "the last name is enough")
        #expect(throws: refusal, "the one half left") {
            try Self.apply(.update(id: "id1", changes: [Self.change("last=")]), ifVersion: 1, to: imported)
        }
    }

    @Test("an edit that gives up waiting on someone else's lock is busy, said in words (a lock, not the server's text), nothing changed",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func editWaitingOnALockIsBusy(_ dialect: PeopleTable.Dialect) throws {
        let imported = try SQLRepositoryFixture.importing(json: Self.people, into: dialect)
        let editor = PeopleEditor(table: try PeopleTable(name: imported.table, dialect: dialect))
        let change = try Self.change("email=ada@locked.test")
        let failure: EditFailure?
        switch dialect {
        case .postgres:
            let locker = try PostgresConnection(imported.target)
            try locker.execute("BEGIN")
            try locker.execute("LOCK TABLE \(imported.table) IN ACCESS EXCLUSIVE MODE")
            let editing = try PostgresConnection(imported.target)
            try editing.setStatementTimeout(.milliseconds(300))
            failure = #expect(throws: EditFailure.self) { try editor.apply(.update(id: "id1", changes: [change]), ifVersion: nil, on: editing) }
            try locker.execute("ROLLBACK")
            #expect(failure?.message == "table \(imported.table) is locked, or the server busy")
        case .sqlite:
            let locker = try SQLiteConnection(path: imported.target, access: .readWrite)
            try locker.execute("BEGIN EXCLUSIVE")
            let editing = try SQLiteConnection(path: imported.target, access: .readWrite, busyTimeout: .milliseconds(300))
            failure = #expect(throws: EditFailure.self) { try editor.apply(.update(id: "id1", changes: [change]), ifVersion: nil, on: editing) }
            try locker.execute("ROLLBACK")
            #expect(failure?.message == "another program is writing to it")
        }
        #expect(failure?.kind == .busy)
        #expect(try Self.apply(.update(id: "id1", changes: [change]), to: imported).version == 1, "nothing had changed; once free it lands")
    }
}

/// A writer that takes no turn (a Roster from before edits took turns, a
/// script) adding the same person at the same moment: the save that runs
/// into its key is made again, and refused in words, never the server's.
@Suite("Edits racing a writer that takes no turn", .blockingWork)
struct EditRaceTests {
    @Test("an add whose _id another writer inserts meanwhile: made again, then refused as a conflict with what is there")
    func addRacingAnotherWriter() throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .postgres)
        let other = try PostgresConnection(imported.target)
        try other.execute("BEGIN")
        let columns = PeopleTable.columns.map(\.name)
        let values = columns.map { $0 == "person_key" ? "'new1'" : $0 == "position" ? "99" : $0 }
        try other.execute("INSERT INTO people (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM people WHERE person_key = 'id1'")
        let outcome = Locked<String?>(nil)
        Thread.detachNewThread {
            do {
                _ = try PeopleEditorTests.apply(.add(id: "new1", changes: [PeopleEditorTests.change("first=Di")]), to: imported)
                outcome.withLock { $0 = "saved" }
            } catch let failure as EditFailure {
                outcome.withLock { $0 = "\(failure.kind): \(failure.message)" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        let waiting = "SELECT count(*) FROM pg_locks WHERE NOT granted"
        #expect(OpeningTests.eventually { (try? other.execute(waiting).first?.int(0)) ?? 0 > 0 }, "the add waits on the other writer's key")
        try other.execute("COMMIT")
        #expect(OpeningTests.eventually { outcome.withLock { $0 } != nil })
        #expect(outcome.withLock { $0 } == "conflict: table people: a person already has _id new1")
    }
}

/// Two `roster` processes editing one person in one real database: the
/// second, based on the version both read, is refused, and the first's
/// change stays.
@Suite("Two rosters editing one database", .blockingWork)
struct TwoRostersEditingTests {
    static func roster(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let binary = try #require(ProcessInfo.processInfo.environment["ROSTER_BINARY"], "set ROSTER_BINARY to the roster binary")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError, process.standardInput) = (output, errors, FileHandle.nullDevice)
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complained = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, said, complained)
    }

    @Test("A and B both based on version 0: A's update lands (version 1), B's is a conflict; --list shows A's",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func secondEditIsAConflict(_ dialect: PeopleTable.Dialect) throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: dialect)
        let target = dialect == .sqlite ? "sqlite:" + imported.target : imported.target
        let first = try Self.roster(["update", target, "id1", "email=a@first.io", "--if-version", "0"])
        #expect(first.status == 0 && first.output == "1\n", "\(first.error)")
        let second = try Self.roster(["update", target, "id1", "email=a@second.io", "--if-version", "0"])
        #expect(second.status == 1)
        #expect(second.error.hasSuffix(": table people: _id id1 is at version 1, not 0: someone else changed it; nothing changed\n"), "\(second.error)")
        let list = try Self.roster(["--list", target, "--filter", "ada"])
        #expect(list.output.contains("a@first.io") && !list.output.contains("a@second.io"), "\(list.output)")
        let added = try Self.roster(["add", target, "first=Di", "company=ACME"])
        #expect(added.status == 0 && added.output.count == 25)
        #expect(try Self.roster(["delete", target, String(added.output.dropLast()), "--if-version", "1"]).status == 0)
        #expect(try Self.roster(["--list", target]).output.components(separatedBy: "\n  ").count - 1 == 3, "three people again")
    }
}

/// What `roster update` and `delete` say they did to a table: as to a
/// file, who and each field's old and new value.
@Suite("What an edit of a database says", .blockingWork)
struct DatabaseEditReportTests {
    @Test("an update names the person and each field it changes, old → new; one that changes nothing says so; a delete names who",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func saysWhoAndWhat(_ dialect: PeopleTable.Dialect) throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: dialect)
        let target = dialect == .sqlite ? "sqlite:" + imported.target : imported.target
        let update = try TwoRostersEditingTests.roster(["update", target, "id2", "email=bo@zeta.io", "name=Bob Diddley"])
        #expect(update.status == 0 && update.output == "1\n", "\(update.error)")
        #expect(update.error.hasSuffix(": Bo Diddley: email bo@acme.test → bo@zeta.io; first Bo → Bob (version 1)\n"), "\(update.error)")
        let same = try TwoRostersEditingTests.roster(["update", target, "id2", "email=bo@zeta.io"])
        #expect(same.status == 0 && same.output == "1\n", "the version stays: \(same.output)")
        #expect(same.error.hasSuffix(": Bob Diddley: nothing changed (version 1)\n"), "\(same.error)")
        let delete = try TwoRostersEditingTests.roster(["delete", target, "id1", "id3"])
        #expect(delete.error.hasSuffix(": deleted 2 people: Ada Lovelace and Cy Young\n"), "\(delete.error)")
    }
}

/// The screens' edits (`PeopleEditing`) of an open table: saved through
/// the repository, read again over the same connections.
@Suite("Editing an open table", .blockingWork)
struct RepositoryEditingTests {
    @Test("a save lands and the table read again shows it; someone else's change to the same field is a conflict, to another field merges",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func savesAndConflicts(_ dialect: PeopleTable.Dialect) async throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: dialect)
        let repository = try imported.open()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let shown = try await repository.people(in: everyone, positions: 0..<3)
        let ada = try #require(shown.first { $0.id == "id1" })
        try repository.update(recordID: "id1", changes: [FieldCheck.change(from: "company=Zeta")], base: ada)
        let again = try repository.reread()
        #expect(again.companies.map(\.name) == ["ACME", "Zeta"])
        #expect(again.companies.map(\.headcount) == [1, 2])
        // Someone else moves Ada's email on; this screen still shows the old one.
        _ = try PeopleEditorTests.apply(.update(id: "id1", changes: [FieldCheck.change(from: "email=theirs@x.io")]), to: imported)
        let conflict = #expect(throws: EditFailure.self) {
            try again.update(recordID: "id1", changes: [FieldCheck.change(from: "email=mine@x.io")], base: ada)
        }
        #expect(conflict?.kind == .conflict)
        #expect(conflict?.message == "changed meanwhile: email to 'theirs@x.io'")
        #expect(conflict?.theirs?.email == "theirs@x.io" && conflict?.theirs?.company == "Zeta", "the row as it is now, for the conflict screen")
        try again.update(recordID: "id1", changes: [FieldCheck.change(from: "age=41")], base: ada)
        let merged = try again.reread()
        let now = try await merged.people(in: merged.arrange(sort: .byLastName, byCompany: false, company: nil), positions: 0..<3)
        let saved = try #require(now.first { $0.id == "id1" })
        #expect(saved.email == "theirs@x.io" && saved.age == 41 && saved.company == "Zeta")
        // Deleting people as shown: one changed since is a conflict, and nobody goes.
        let bo = try #require(shown.first { $0.id == "id2" })
        #expect(throws: EditFailure(.conflict, "someone else changed Ada Lovelace meanwhile")) {
            try merged.delete([bo, ada])
        }
        try merged.delete([bo, saved])
        let left = try merged.reread()
        #expect(left.personCount == 1 && left.companies.map(\.name) == ["Zeta"])
    }

    /// `_id`, position and `index` of every row, in position order.
    static func places(_ imported: SQLRepositoryFixture.Imported) throws -> [String] {
        let sql = "SELECT person_key, position, record_index FROM \(imported.table) ORDER BY position"
        let rows: [SQLRow]
        switch imported.dialect {
        case .postgres: rows = try PostgresConnection(imported.target).execute(sql)
        case .sqlite: rows = try SQLiteConnection(path: imported.target, access: .readOnly).query(sql)
        }
        return rows.map { "\($0.text(0) ?? "?") \($0.int(1).map(String.init) ?? "-") \($0.int(2).map(String.init) ?? "-")" }
    }

    @Test("an undone delete puts the people back where they were (position and index), all of them or none",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func anUndoneDeletePutsPeopleBackInPlace(_ dialect: PeopleTable.Dialect) async throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: dialect)
        let before = try Self.places(imported)
        let listedBefore = try await PeopleEditorTests.listed(imported)
        let repository = try imported.open()
        let shown = try await repository.people(in: repository.arrange(sort: .byLastName, byCompany: true, company: nil), positions: 0..<3)
        let deleted = shown.filter { $0.id != "id3" }
        try repository.delete(deleted)
        // Someone adds a person meanwhile: after everyone, as an add is.
        _ = try PeopleEditorTests.apply(.add(id: "id9", changes: [FieldCheck.change(from: "first=Ed")]), to: imported)
        let again = try repository.reread()
        // Someone takes Bo's _id meanwhile: nobody comes back, Ada included.
        _ = try PeopleEditorTests.apply(.add(id: "id2", changes: [FieldCheck.change(from: "first=Other")]), to: imported)
        #expect(throws: EditFailure(.conflict, "table people: a person already has _id id2")) { try again.restore(deleted) }
        #expect(try Self.places(imported) == [before[2], "id9 3 4", "id2 4 5"])
        _ = try PeopleEditorTests.apply(.delete(ids: ["id2"]), to: imported)
        try again.restore(deleted)
        #expect(try Self.places(imported) == before + ["id9 3 4"], "each at the position and index the delete took them from")
        let listed = try await PeopleEditorTests.listed(imported)
        #expect(listed.filter { !$0.hasPrefix("Ed") } == listedBefore, "every value back, the summary counting them again")
    }
}
