import RosterCore

/// What every source that can fail (a database) must do when it does:
/// every read that fails says so with a `RepositoryError` that says whether
/// it heals, never an answer that looks like data (a window of rows
/// included: a list draws what it cannot read as not loaded); and once
/// the cause is gone, every read works again. Run against the real servers.
public enum FailureContract {
    /// A repository, a way to make its reads fail, and a way to heal them.
    public struct Subject: Sendable {
        public let repository: any PeopleRepository
        public let breakReads: @Sendable () async throws -> Void
        public let heal: @Sendable () async throws -> Void

        public init(repository: any PeopleRepository, breakReads: @escaping @Sendable () async throws -> Void,
                    heal: @escaping @Sendable () async throws -> Void) {
            self.repository = repository
            self.breakReads = breakReads
            self.heal = heal
        }
    }

    /// What was found wrong (empty: the source passes). `make` builds the
    /// subject over the people of a JSON array.
    public static func run(_ make: @Sendable (_ json: String) async throws -> Subject) async throws -> [String] {
        let subject = try await make(Fixtures.seedJSON)
        let repository = subject.repository
        var failures = RepositoryContract.Failures()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let before = try await repository.rows(in: everyone, positions: 0..<everyone.count)
        let searched = try await repository.search(SearchQuery("irwin"), in: everyone, within: nil)
        try await subject.breakReads()

        func failsHealably(_ what: String, _ read: () async throws(RepositoryError) -> Void) async {
            do throws(RepositoryError) {
                try await read()
                failures.check(false, "\(what) answered while the source was broken")
            } catch {
                failures.check(error.healsOnRetry, "\(what): \(error.kind) does not heal, for a passing failure")
                failures.check(!error.reason.isEmpty, "\(what): a failure with no words")
            }
        }
        await failsHealably("person") { () async throws(RepositoryError) in _ = try await repository.person(before[4].id) }
        await failsHealably("people, mid-list") { () async throws(RepositoryError) in
            _ = try await repository.people(in: everyone, positions: 3..<5)
        }
        await failsHealably("personIDs of a new order") { () async throws(RepositoryError) in
            _ = try await repository.personIDs(in: repository.arrange(sort: SortOrder(.firstName), byCompany: false, company: nil),
                                               positions: 0..<6)
        }
        await failsHealably("counts of a search") { () async throws(RepositoryError) in
            _ = try await repository.companySummaries(in: searched)
        }
        await failsHealably("counts by city") { () async throws(RepositoryError) in
            _ = try await repository.valueSummaries(of: .city, in: everyone)
        }
        let newOrder = repository.arrange(sort: SortOrder(.firstName), byCompany: false, company: nil)
        await failsHealably("rows of a new order") { () async throws(RepositoryError) in
            _ = try await repository.rows(in: newOrder, positions: 0..<6)
        }
        await failsHealably("a search") { () async throws(RepositoryError) in
            _ = try await repository.search(SearchQuery("cohen"), in: everyone, within: nil)
        }

        try await subject.heal()
        do throws(RepositoryError) {
            failures.check(try await repository.person(before[4].id).lastName == before[4].lastName, "person, healed")
            failures.check(try await repository.people(in: everyone, positions: 3..<5).map(\.lastName) == before[3..<5].map(\.lastName),
                           "people, healed")
            failures.check(try await repository.rows(in: newOrder, positions: 0..<6).map(\.position) == Array(0..<6), "rows, healed")
            failures.check(try await repository.companySummaries(in: searched).map(\.headcount) == [1], "counts of a search, healed")
        } catch {
            failures.check(false, "a read still fails once healed: \(error)")
        }
        failures.check(try await repository.search(SearchQuery("cohen"), in: everyone, within: nil).count == 1, "search, healed")
        return failures.list
    }
}
