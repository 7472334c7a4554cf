import TestServers
import Foundation
import RosterSQL
import Testing
import TestTraits

/// Opening a table Roster did not make, or only half of one, is one line
/// naming the table, what is wrong and what to run; in both databases.
@Suite(.blockingWork) struct TableShapeTests {
    /// Runs `body` once with a fresh PostgreSQL database and once with a fresh SQLite file.
    private func inBothDatabases(_ body: (PeopleTable.Dialect, (String) throws -> Void, () throws -> Void) throws -> Void) throws {
        let server = try TestPostgres.server()
        let postgres = try PostgresConnection(server.conninfo(database: server.makeDatabase()))
        let table = try PeopleTable(dialect: .postgres)
        try body(.postgres, { try postgres.execute($0) }, { try table.verify(postgres, target: "TARGET") })
        let path = NSTemporaryDirectory() + "roster-shape-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sqlite = try SQLiteConnection(path: path, access: .readWrite)
        let sqliteTable = try PeopleTable(dialect: .sqlite)
        try body(.sqlite, { try sqlite.execute($0) }, { try sqliteTable.verify(sqlite, target: "TARGET") })
    }

    private func message(_ verify: () throws -> Void) -> DatabaseError? {
        #expect(throws: DatabaseError.self) { try verify() }
    }

    @Test func aTableRosterMadePasses() throws {
        try inBothDatabases { dialect, execute, verify in
            for statement in try PeopleTable(dialect: dialect).createStatements { try execute(statement) }
            try verify()
        }
    }

    @Test func aMissingTableSaysWhatToRun() throws {
        try inBothDatabases { _, _, verify in
            let error = message(verify)
            #expect(error?.kind == .missingTable)
            #expect(error?.message == "TARGET: there is no table people; make it with: roster import FILE --into TARGET")
        }
    }

    @Test func aTableOfAnotherShapeIsNamedWithWhatItLacks() throws {
        try inBothDatabases { _, execute, verify in
            try execute("CREATE TABLE people (id text, first_name text, last_name text)")
            let error = message(verify)
            #expect(error?.kind == .failed)
            #expect(error?.message == "TARGET: table people is not a Roster people table (it has no column person_key, position, "
                + "record_index, guid and 16 more); choose another with --table, or fill a new one with: roster import FILE --into TARGET")
        }
    }

    @Test func aColumnOfAnotherTypeIsNamed() throws {
        try inBothDatabases { dialect, execute, verify in
            for statement in try PeopleTable(dialect: dialect).createStatements {
                try execute(statement.replacingOccurrences(of: "picture text", with: "picture bytea")
                    .replacingOccurrences(of: "picture TEXT", with: "picture BLOB"))
            }
            let found = dialect == .postgres ? "bytea" : "blob"
            #expect(message(verify)?.message == "TARGET: table people is not a Roster people table (picture is \(found), not text); "
                + "choose another with --table, or fill a new one with: roster import FILE --into TARGET")
        }
    }

    @Test func aMissingSummaryOrSearchTableSaysImportAgain() throws {
        try inBothDatabases { dialect, execute, verify in
            for statement in try PeopleTable(dialect: dialect).createStatements { try execute(statement) }
            try execute("DROP TABLE people_companies")
            let error = message(verify)
            #expect(error?.kind == .missingTable)
            #expect(error?.message == "TARGET: table people has no company summary (table people_companies is missing); "
                + "import again to make it: roster import FILE --into TARGET")
            if dialect == .sqlite {
                try execute(PeopleTable(dialect: .sqlite).tableStatements.first { $0.contains("people_companies") } ?? "")  // the summary table again
                try execute("DROP TABLE people_search")
                #expect(message(verify)?.message == "TARGET: table people has no search table (people_search is missing); "
                    + "import again to make it: roster import FILE --into TARGET")
            }
        }
    }

    @Test func anotherTableNameIsQuotedInTheHint() throws {
        let path = NSTemporaryDirectory() + "roster-shape-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sqlite = try SQLiteConnection(path: path, access: .readWrite)
        let error = #expect(throws: DatabaseError.self) { try PeopleTable(name: "staff list", dialect: .sqlite).verify(sqlite, target: "x.db") }
        #expect(error?.message == "x.db: there is no table staff list; make it with: roster import FILE --into x.db --table \"staff list\"")
    }
}
