import Foundation
import RosterCore
import RosterSQL
import RosterStore
import Testing
import TestServers
import TestSupport
import TestTraits

/// Issue 34, item 1: a connection the server ended (`pg_terminate_backend`,
/// a restart) is found lost by whatever read it next, a re-read and a save
/// included, so that the title says so and the watcher reconnects; `r`'s
/// read-over never calls such a connection fine; and while it is lost,
/// the people the list shows are read whole as last seen.
@Suite("A connection the server ended", .blockingWork)
struct LostConnectionTests {
    /// The seed's people imported into a database of the shared server, opened, its first rows read.
    static func opened() throws -> (repository: SQLPeopleRepository, database: String, server: TestPostgres) {
        let imported = try SQLRepositoryFixture.importing(json: Fixtures.seedJSON, into: .postgres)
        let database = try #require(imported.target.split(separator: " ").first { $0.hasPrefix("dbname=") }?.dropFirst(7))
        return (try imported.open(), String(database), try TestPostgres.server())
    }

    @Test("a re-read over connections the server ended says the connection is lost (the title, the watcher), and a reconnect heals it")
    func rereadFindsItLost() async throws {
        let (repository, database, server) = try Self.opened()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        _ = try await repository.rows(in: everyone, positions: 0..<6)
        #expect(try server.terminateConnections(to: database) >= 2)
        #expect(throws: DatabaseError.self) { try repository.reread() }
        #expect(repository.isConnectionLost, "the watcher tries only a connection it knows lost")
        #expect(repository.titleName.hasPrefix("connection lost, r reconnects"))
        try repository.reconnect()
        #expect(!repository.isConnectionLost)
        #expect(try repository.reread().personCount == 6)
    }

    @Test("r's read-over: false over connections the server ended, which it marks lost; true once reconnected")
    func readOverBeforeFine() throws {
        let (repository, database, server) = try Self.opened()
        #expect(repository.checkConnection())
        #expect(try server.terminateConnections(to: database) >= 2)
        #expect(!repository.checkConnection())
        #expect(repository.isConnectionLost)
        try repository.reconnect()
        #expect(repository.checkConnection())
    }

    @Test("a save over a connection the server ended fails, nothing changed, and the connection is found lost")
    func saveFindsItLost() async throws {
        let (repository, database, server) = try Self.opened()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let first = try #require(try await repository.people(in: everyone, positions: 0..<1).first)
        #expect(try server.terminateConnections(to: database) >= 2)
        #expect(throws: EditFailure.self) {
            try repository.update(recordID: first.id, changes: [try FieldCheck.change(from: "email=lost@x.test")], base: first)
        }
        #expect(repository.isConnectionLost)
        try repository.reconnect()
        #expect(try await repository.people(in: everyone, positions: 0..<1).first?.email == first.email)
    }

    @Test("a loss found through the repository a re-read made is over once the watcher's (the first one read) reconnects: title, saves and the outbox go on over it")
    func lossSharedByTheRepositoriesOfOneConnection() async throws {
        let (watched, database, server) = try Self.opened()
        let shown = try watched.reread()
        let everyone = shown.arrange(sort: .byLastName, byCompany: true, company: nil)
        let first = try #require(try await shown.people(in: everyone, positions: 0..<1).first)
        #expect(try server.terminateConnections(to: database) >= 2)
        let failure = #expect(throws: EditFailure.self) {
            try shown.update(recordID: first.id, changes: [try FieldCheck.change(from: "email=lost@x.test")], base: first)
        }
        #expect(failure?.message == "the server closed the connection", "in words, not the server's FATAL and CONTEXT")
        #expect(shown.isConnectionLost && watched.isConnectionLost)
        try watched.reconnect()
        #expect(!shown.isConnectionLost, "the screen's repository is not left saying lost")
        #expect(shown.titleName == shown.sourceName)
        try shown.update(recordID: first.id, changes: [try FieldCheck.change(from: "email=back@x.test")], base: first)
    }

    /// People as last seen, by `_id`: these, whatever the server holds.
    struct LastSeen: LastSeenPeople {
        let people: [Person]
        func person(recordID: String) async -> Person? { people.first { $0.id == recordID } }
    }

    @Test("while the connection is lost, a person of the rows the list showed is read as last seen; one not shown is not read")
    func lastSeenWhileLost() async throws {
        let (repository, database, server) = try Self.opened()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let shown = try await repository.rows(in: everyone, positions: 0..<2)
        let people = try await repository.people(in: everyone, positions: 0..<2)
        var seen = people[1]
        seen.email = "as.last.seen@x.test"
        #expect(try server.terminateConnections(to: database) >= 2)
        #expect(!repository.checkConnection())
        await #expect(throws: RepositoryError.self) { try await repository.person(shown[1].id) }
        repository.keepLastSeen(LastSeen(people: [seen]))
        #expect(try await repository.person(shown[1].id).email == "as.last.seen@x.test")
        #expect(try await repository.people(in: everyone, positions: 1..<2).map(\.email) == ["as.last.seen@x.test"])
        await #expect(throws: RepositoryError.self, "nobody seen at position 0") { try await repository.people(in: everyone, positions: 0..<2) }
        await #expect(throws: RepositoryError.self, "a row never fetched") { try await repository.people(in: everyone, positions: 4..<5) }
        try repository.reconnect()
        #expect(try await repository.person(shown[1].id).email == people[1].email, "read from the server again once it answers")
    }

    @Test("a server restarted: reads find the connection lost, a reconnect fails while it is down and heals once it answers")
    func restartedServer() async throws {
        let server = try TestPostgres.privateServer()
        let database = try server.makeDatabase()
        let conninfo = server.conninfo(database: database)
        _ = try PeopleImporter(table: PeopleTable(name: "people", dialect: .postgres))
            .importPeople(try Fixtures.directory(json: Fixtures.seedJSON).store, into: PostgresConnection(conninfo))
        let repository = try SQLPeopleRepository.open(postgres: conninfo)
        try server.stop()
        #expect(!repository.checkConnection())
        #expect(repository.isConnectionLost)
        #expect(throws: ReconnectFailure.self) { try repository.reconnect() }
        try server.startAgain()
        try repository.reconnect()
        #expect(!repository.isConnectionLost)
        #expect(try repository.reread().personCount == 6)
        try server.stop()
    }
}
