import RosterCore

/// What every source that can fail (a database) must do when it does:
/// every read that fails says so with a `RepositoryError` that says whether
/// it heals, never an answer that looks like data; a window answers every
/// position, with stand-ins that say they are not loaded; and once the
/// cause is gone, every read works again. Run against the real servers.
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
        let before = repository.rows(in: everyone, positions: 0..<everyone.count)
        let searched = try await repository.search(SearchQuery("irwin"), in: everyone, within: nil)
        try await subject.breakReads()

        func failsHealably(_ what: String, _ read: () throws(RepositoryError) -> Void) {
            do throws(RepositoryError) {
                try read()
                failures.check(false, "\(what) answered while the source was broken")
            } catch {
                failures.check(error.healsOnRetry, "\(what): \(error.kind) does not heal, for a passing failure")
                failures.check(!error.reason.isEmpty, "\(what): a failure with no words")
            }
        }
        failsHealably("person") { () throws(RepositoryError) in _ = try repository.person(before[4].id) }
        failsHealably("people, mid-list") { () throws(RepositoryError) in _ = try repository.people(in: everyone, positions: 3..<5) }
        failsHealably("personIDs of a new order") { () throws(RepositoryError) in
            _ = try repository.personIDs(in: repository.arrange(sort: SortOrder(.firstName), byCompany: false, company: nil),
                                         positions: 0..<6)
        }
        failsHealably("counts of a search") { () throws(RepositoryError) in _ = try repository.companySummaries(in: searched) }
        failsHealably("counts by city") { () throws(RepositoryError) in _ = try repository.valueSummaries(of: .city, in: everyone) }
        let newOrder = repository.arrange(sort: SortOrder(.firstName), byCompany: false, company: nil)
        let standIns = repository.rows(in: newOrder, positions: 0..<6)
        failures.check(standIns.map(\.position) == Array(0..<6), "a window answers every position: \(standIns.map(\.position))")
        failures.check(standIns.allSatisfy { !$0.isLoaded && $0.name.isEmpty && $0.email.isEmpty },
                       "rows not read are stand-ins with no values")
        do {
            _ = try await repository.search(SearchQuery("cohen"), in: everyone, within: nil)
            failures.check(false, "a search answered while the source was broken")
        } catch {
            failures.check(error is RepositoryError, "a search fails with a RepositoryError, not \(type(of: error))")
        }

        try await subject.heal()
        do throws(RepositoryError) {
            failures.check(try repository.person(before[4].id).lastName == before[4].lastName, "person, healed")
            failures.check(try repository.people(in: everyone, positions: 3..<5).map(\.lastName) == before[3..<5].map(\.lastName),
                           "people, healed")
            failures.check(repository.rows(in: newOrder, positions: 0..<6).allSatisfy(\.isLoaded), "rows, healed")
            failures.check(try repository.companySummaries(in: searched).map(\.headcount) == [1], "counts of a search, healed")
        } catch {
            failures.check(false, "a read still fails once healed: \(error)")
        }
        failures.check(try await repository.search(SearchQuery("cohen"), in: everyone, within: nil).count == 1, "search, healed")
        return failures.list
    }
}
