import RosterCore
import RosterSQL
import Testing
import TestTraits
import TestSupport

/// The repository contract, run against real PostgreSQL (the test server)
/// and real SQLite (a temporary file): the same checks as the file source.
@Suite("PostgreSQL repository contract", .blockingWork)
struct PostgresRepositoryContractTests {
    @Test(arguments: RepositoryContract.databaseChecks)
    func contract(_ check: RepositoryContract.Check) async throws {
        let failures = try await check.run { json in try SQLRepositoryFixture.repository(json: json, dialect: .postgres) }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

@Suite("SQLite repository contract", .blockingWork)
struct SQLiteRepositoryContractTests {
    @Test(arguments: RepositoryContract.databaseChecks)
    func contract(_ check: RepositoryContract.Check) async throws {
        let failures = try await check.run { json in try SQLRepositoryFixture.repository(json: json, dialect: .sqlite) }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
