import RosterCore
import RosterSQL
import Testing
import TestSupport

/// The repository contract, run against real PostgreSQL (the test server)
/// and real SQLite (a temporary file): the same checks as the file source.
@Suite("PostgreSQL repository contract")
struct PostgresRepositoryContractTests {
    @Test(arguments: RepositoryContract.databaseChecks)
    func contract(_ check: RepositoryContract.Check) async throws {
        let failures = try await check.run { json in try SQLRepositoryFixture.repository(json: json, dialect: .postgres) }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

@Suite("SQLite repository contract")
struct SQLiteRepositoryContractTests {
    @Test(arguments: RepositoryContract.databaseChecks)
    func contract(_ check: RepositoryContract.Check) async throws {
        let failures = try await check.run { json in try SQLRepositoryFixture.repository(json: json, dialect: .sqlite) }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
