import Foundation
import RosterCore
@testable import RosterSQL
import RosterStore
import Testing
import TestSupport
import TestTraits

/// Edits made offline, sent under their operation ids, on real PostgreSQL
/// and real SQLite: one sent twice (its reply lost the first time) is
/// applied once, and a refused one claims nothing.
@Suite("Operations applied once", .blockingWork)
struct AppliedOperationsTests {
    static func count(_ sql: String, _ imported: SQLRepositoryFixture.Imported) throws -> Int64? {
        switch imported.dialect {
        case .postgres: return try PostgresConnection(imported.target).execute(sql).first?.int(0)
        case .sqlite: return try SQLiteConnection(path: imported.target, access: .readOnly).query(sql).first?.int(0)
        }
    }

    /// A freshly imported table, its repository, and Bo Diddley (`id2`) as a screen shows him.
    static func boAsShown(_ dialect: PeopleTable.Dialect) async throws -> (SQLRepositoryFixture.Imported, SQLPeopleRepository, Person) {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: dialect)
        let repository = try imported.open()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let shown = try #require(try await repository.people(in: everyone, positions: 0..<3).first { $0.id == "id2" })
        return (imported, repository, shown)
    }

    @Test("an update sent twice under one id lands once: one version on, one log row, one applied row",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func sentTwiceAppliedOnce(_ dialect: PeopleTable.Dialect) async throws {
        let (imported, repository, shown) = try await Self.boAsShown(dialect)
        let operation = RecordOperation.update(id: "id2", changes: [try PeopleEditorTests.change("email=bo@offline.test")])
        let id = UUID().uuidString
        #expect(try repository.send(operation, operationID: id, base: shown))
        #expect(try !repository.send(operation, operationID: id, base: shown), "the second time is recognised")
        #expect(try Self.count("SELECT version FROM \(imported.table) WHERE person_key = 'id2'", imported) == 1)
        #expect(try Self.count("SELECT count(*) FROM \(imported.table)_applied", imported) == 1)
        #expect(try Self.count("SELECT count(*) FROM \(imported.table)_changes WHERE operation = 'update'", imported) == 1)
        #expect(try await PeopleEditorTests.listed(imported).contains("Bo Diddley ACME bo@offline.test $5.00 30"))
        // An add of an _id someone has is refused as a conflict (said and let go when sent from an outbox), not a failure to retry.
        #expect(throws: EditFailure(.conflict, "table \(imported.table): a person already has _id id2")) {
            try repository.send(.add(id: "id2", changes: []), operationID: UUID().uuidString)
        }
    }

    @Test("a conflict claims nothing: the same id is refused again, not taken for applied",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aConflictClaimsNothing(_ dialect: PeopleTable.Dialect) async throws {
        let (imported, repository, shown) = try await Self.boAsShown(dialect)
        // Someone else changes the email first.
        try repository.update(recordID: "id2", changes: [try PeopleEditorTests.change("email=bo@elsewhere.test")], base: shown)
        let operation = RecordOperation.update(id: "id2", changes: [try PeopleEditorTests.change("email=bo@offline.test")])
        let id = UUID().uuidString
        for _ in 0..<2 {
            #expect(throws: EditFailure.self) { try repository.send(operation, operationID: id, base: shown) }
        }
        #expect(try Self.count("SELECT count(*) FROM \(imported.table)_applied", imported) == 0)
        #expect(try await PeopleEditorTests.listed(imported).contains("Bo Diddley ACME bo@elsewhere.test $5.00 30"))
    }
}
