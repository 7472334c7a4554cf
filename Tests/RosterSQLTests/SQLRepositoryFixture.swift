import TestServers
import Foundation
import RosterCore
import RosterSQL
import RosterStore
import TestSupport

/// A directory imported into a fresh database (PostgreSQL: a new database
/// on the test server; SQLite: a temporary file) and opened as a
/// `SQLPeopleRepository`, as `roster import` then `roster TARGET` would.
enum SQLRepositoryFixture {
    /// Where an imported directory lives: the conninfo or path to open again.
    struct Imported {
        let dialect: PeopleTable.Dialect
        let target: String
        let table: String

        /// `statementTimeout`: SQLite's alone (PostgreSQL's server keeps its own).
        func open(statementTimeout: Duration = SQLPeopleRepository.statementTimeout) throws -> SQLPeopleRepository {
            switch dialect {
            case .postgres: return try SQLPeopleRepository.open(postgres: target, table: table)
            case .sqlite: return try SQLPeopleRepository.open(sqlite: target, table: table, statementTimeout: statementTimeout)
            }
        }
    }

    /// Imports `json` into a new database of `dialect`.
    static func importing(json: String, into dialect: PeopleTable.Dialect, table: String = "people") throws -> Imported {
        try importing(Fixtures.directory(json: json).store, into: dialect, table: table)
    }

    static func importing(_ store: PeopleStore, into dialect: PeopleTable.Dialect, table: String = "people") throws -> Imported {
        let importer = PeopleImporter(table: try PeopleTable(name: table, dialect: dialect))
        switch dialect {
        case .postgres:
            let server = try TestPostgres.server()
            let conninfo = server.conninfo(database: try server.makeDatabase())
            _ = try importer.importPeople(store, into: PostgresConnection(conninfo))
            return Imported(dialect: dialect, target: conninfo, table: table)
        case .sqlite:
            let path = NSTemporaryDirectory() + "roster-repository-\(UUID().uuidString).db"
            _ = try importer.importPeople(store, into: SQLiteConnection(path: path, access: .readWrite))
            return Imported(dialect: dialect, target: path, table: table)
        }
    }

    /// `json` imported and opened.
    static func repository(json: String, dialect: PeopleTable.Dialect) throws -> SQLPeopleRepository {
        try importing(json: json, into: dialect).open()
    }
}
