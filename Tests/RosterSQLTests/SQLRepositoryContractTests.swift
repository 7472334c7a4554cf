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

/// A connection a test holds across the closures that break and heal a
/// repository (used by one of them at a time).
private final class HeldConnection<Connection>: @unchecked Sendable {
    let connection: Connection
    init(_ connection: Connection) { self.connection = connection }
}

@Suite("Failing reads contract", .blockingWork)
struct FailureContractTests {
    @Test func postgresWhoseServerEndsTheSessions() async throws {
        let failures = try await FailureContract.run { json in
            let imported = try SQLRepositoryFixture.importing(json: json, into: .postgres)
            let repository = try imported.open()
            let admin = HeldConnection(try PostgresConnection(imported.target))
            return FailureContract.Subject(repository: repository, breakReads: {
                // As a server restart would: every other session of the database ends.
                try admin.connection.execute("""
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                    """)
            }, heal: {
                try repository.reconnect()
            })
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func sqliteUnderAnotherWritersLock() async throws {
        let failures = try await FailureContract.run { json in
            let imported = try SQLRepositoryFixture.importing(json: json, into: .sqlite)
            let writer = HeldConnection(try SQLiteConnection(path: imported.target, access: .readWrite))
            // A short wait on the lock: each failing read waits it out.
            let repository = try SQLPeopleRepository.open(sqlite: imported.target, busyTimeout: .milliseconds(200))
            return FailureContract.Subject(repository: repository, breakReads: {
                try writer.connection.execute("BEGIN EXCLUSIVE")
            }, heal: {
                try writer.connection.execute("ROLLBACK")
            })
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
