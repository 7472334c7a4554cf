import TestServers
import Foundation
import RosterCore
@testable import RosterSQL
import RosterStore
import TestSupport
import Testing
import TestTraits

/// `PeopleEditor.setManager`: checked against the table, then saved with a
/// new version and a logged change; a refusal writes nothing.
@Suite(.blockingWork) struct ManagerEditTests {
    /// Ada leads; Grace and Alan report to her; Linus to Grace; two Bobs.
    static let json = """
    [{"_id": "a", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org"},
     {"_id": "g", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@example.org"},
     {"_id": "l", "name": {"first": "Linus", "last": "Torvalds"}, "email": "linus@example.org"},
     {"_id": "t", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@example.org"},
     {"_id": "b1", "name": {"first": "Bob", "last": "Smith"}}, {"_id": "b2", "name": {"first": "Bob", "last": "Smith"}}]
    """
    static let managers: [String?] = [nil, "a", "g", "Ada Lovelace", nil, nil]

    /// A fresh table of `dialect`, and a way to change a manager in it and read one back.
    private struct Table {
        let set: (String, String, Int64?) throws(EditFailure) -> PeopleEditor.ManagerReceipt
        let manager: (String) throws -> String?
        let version: (String) throws -> Int64?
    }

    private func table(_ dialect: PeopleTable.Dialect) throws -> Table {
        let store = try Fixtures.directory(json: Self.json).store
        let table = try PeopleTable(dialect: dialect)
        let editor = PeopleEditor(table: table)
        switch dialect {
        case .postgres:
            let server = try TestPostgres.server()
            let connection = try PostgresConnection(server.conninfo(database: try server.makeDatabase()))
            _ = try PeopleImporter(table: table).importPeople(store, managers: Self.managers, into: connection)
            return Table(set: { id, reference, version throws(EditFailure) in try editor.setManager(of: id, to: reference, ifVersion: version, on: connection) },
                         manager: { try connection.execute("SELECT manager FROM people WHERE person_key = $1", [.text($0)]).first?.text(0) },
                         version: { try connection.execute("SELECT version FROM people WHERE person_key = $1", [.text($0)]).first?.int(0) })
        case .sqlite:
            let path = NSTemporaryDirectory() + "roster-manager-edit-\(UUID().uuidString).db"
            let connection = try SQLiteConnection(path: path, access: .readWrite)
            _ = try PeopleImporter(table: table).importPeople(store, managers: Self.managers, into: connection)
            return Table(set: { id, reference, version throws(EditFailure) in try editor.setManager(of: id, to: reference, ifVersion: version, on: connection) },
                         manager: { try connection.query("SELECT manager FROM people WHERE person_key = ?1", [.text($0)]).first?.text(0) },
                         version: { try connection.query("SELECT version FROM people WHERE person_key = ?1", [.text($0)]).first?.int(0) })
        }
    }

    @Test("the screens' table reads the person's manager for the form and sets it through the same check",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func theFormsManagerEditing(dialect: PeopleTable.Dialect) throws {
        let store = try Fixtures.directory(json: Self.json).store
        let table = try PeopleTable(dialect: dialect)
        let repository: SQLPeopleRepository
        let path = NSTemporaryDirectory() + "roster-manager-form-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        if dialect == .postgres {
            let server = try TestPostgres.server()
            let conninfo = server.conninfo(database: try server.makeDatabase())
            _ = try PeopleImporter(table: table).importPeople(store, managers: Self.managers, into: try PostgresConnection(conninfo))
            repository = try SQLPeopleRepository.open(postgres: conninfo)
        } else {
            _ = try PeopleImporter(table: table).importPeople(store, managers: Self.managers, into: try SQLiteConnection(path: path, access: .readWrite))
            repository = try SQLPeopleRepository.open(sqlite: path)
        }
        let managers = try #require(repository.managers)
        #expect(try managers.manager(of: "t") == .reference("Ada Lovelace") && managers.manager(of: "a") == .reference(nil))
        try managers.setManager(of: "t", to: "l")
        #expect(try managers.manager(of: "t") == .reference("l"))
        #expect(throws: EditFailure(.invalid, "Ada Lovelace cannot report to Linus Torvalds: Linus Torvalds is under Ada Lovelace "
                                    + "(Linus Torvalds › Grace Hopper › Ada Lovelace); nothing changed")) {
            try managers.setManager(of: "a", to: "linus@example.org")
        }
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aManagerWhoIsHereIsSavedWithANewVersion(dialect: PeopleTable.Dialect) throws {
        let table = try table(dialect)
        let receipt = try table.set("t", "grace@example.org", nil)
        #expect(receipt == PeopleEditor.ManagerReceipt(version: 1, name: "Alan Turing", before: "Ada Lovelace", after: "grace@example.org"))
        #expect(try table.manager("t") == "grace@example.org")
        #expect(try table.set("t", "", 1).after == nil)
        #expect(try table.manager("t") == nil && table.version("t") == 2)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aManagerWhoCannotBeIsRefusedAndNothingIsWritten(dialect: PeopleTable.Dialect) throws {
        let table = try table(dialect)
        let refusals = [
            ("l", "nobody@example.org", "Linus Torvalds cannot report to \"nobody@example.org\": no one here has that id, DN, email or name"),
            ("l", "Bob Smith", "Linus Torvalds cannot report to \"Bob Smith\": 2 people have that name; give an id or an email"),
            ("g", "g", "Grace Hopper cannot report to themselves"),
            ("a", "linus@example.org", "Ada Lovelace cannot report to Linus Torvalds: Linus Torvalds is under Ada Lovelace (Linus Torvalds › Grace Hopper › Ada Lovelace)"),
        ]
        for (id, reference, reason) in refusals {
            #expect(throws: EditFailure(.invalid, reason + "; nothing changed")) { try table.set(id, reference, nil) }
            #expect(try table.version(id) == 0)
        }
        #expect(try table.manager("a") == nil && table.manager("l") == "g")
        #expect(throws: EditFailure.self) { try table.set("nobody", "a", nil) }
        #expect(throws: EditFailure.self) { try table.set("l", "a", 7) }
        #expect(try table.manager("l") == "g")
    }
}
