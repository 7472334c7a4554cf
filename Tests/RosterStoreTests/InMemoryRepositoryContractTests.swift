import Testing
import TestSupport
import RosterCore
import RosterStore

/// The repository contract, run against the in-memory store.
@Suite("In-memory repository contract")
struct InMemoryRepositoryContractTests {
    @Test(arguments: RepositoryContract.checks)
    func contract(_ check: RepositoryContract.Check) async throws {
        let failures = try await check.run { json in
            InMemoryPeopleRepository(try PeopleLoader().load(bytes: Array(json.utf8), sourceName: "contract.json"))
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
