import TestServers
import Foundation
import RosterCore
import RosterStore
import RosterSQL
import TestSupport
import Testing
import TestTraits

/// PostgreSQL's text cannot hold U+0000: its import writes U+FFFD there and
/// counts and names the people it did so for; SQLite keeps the text byte
/// for byte.
@Suite(.blockingWork) struct ImportNulTests {
    static let json = Fixtures.array([
        #"{"_id": "n1", "name": {"first": "Nul\u0000Byte", "last": "Ng"}, "company": "Acme"}"#,
        #"{"_id": "n2", "name": {"first": "Plain", "last": "Ng"}, "company": "Acme", "address": "1 A St\u0000"}"#,
        #"{"_id": "n3", "name": {"first": "Ok", "last": "Ng"}, "company": "Acme"}"#,
    ])

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aNulIsReplacedAndSaidInPostgresAndKeptInSQLite(dialect: PeopleTable.Dialect) throws {
        let store = try Fixtures.directory(json: Self.json).store
        let importer = PeopleImporter(table: try PeopleTable(dialect: dialect))
        let report: ImportReport
        let firstName: String?
        switch dialect {
        case .postgres:
            let server = try TestPostgres.server()
            let connection = try PostgresConnection(server.conninfo(database: server.makeDatabase()))
            report = try importer.importPeople(store, into: connection)
            firstName = try connection.execute("SELECT first_name FROM people WHERE id = 'n1'").first?.text(0)
        case .sqlite:
            let path = NSTemporaryDirectory() + "roster-nul-\(UUID().uuidString).db"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let connection = try SQLiteConnection(path: path, access: .readWrite)
            report = try importer.importPeople(store, into: connection)
            firstName = try connection.query("SELECT first_name FROM people WHERE id = 'n1'").first?.text(0)
        }
        #expect(report.written == 3)
        if dialect == .postgres {
            #expect(firstName == "Nul\u{FFFD}Byte")
            #expect(report.nulReplaced == 2)
            #expect(report.nulExamples == ["Nul\u{0}Byte Ng (_id n1)", "Plain Ng (_id n2)"])
        } else {
            #expect(firstName == "Nul\u{0}Byte")
            #expect(report.nulReplaced == 0)
        }
    }
}
