import RosterCore

/// A repository over a connection for presenter tests: answers from
/// `base`, names itself "connection lost, … — TARGET" until a reconnect
/// works, and fails reconnects with `failure` while it is set.
public final class StubReconnectingRepository: PeopleRepository, Reconnecting {
    private let base: any PeopleRepository
    private let state: Locked<(lost: Bool, failure: String?, attempts: Int)>

    public init(base: any PeopleRepository, failure: String? = nil) {
        self.base = base
        state = Locked((lost: true, failure: failure, attempts: 0))
    }

    /// How many times `reconnect` was asked.
    public var attempts: Int { state.withLock { $0.attempts } }

    /// Lets the next reconnect work (nil) or fail with `reason`.
    public func setFailure(_ reason: String?) { state.withLock { $0.failure = reason } }

    /// Loses the connection again (as a server restart would).
    public func loseConnection() { state.withLock { $0.lost = true } }

    public var isConnectionLost: Bool { state.withLock { $0.lost } }

    public func reconnect() throws(ReconnectFailure) {
        let failure = state.withLock { state -> String? in
            state.attempts += 1
            if state.failure == nil { state.lost = false }
            return state.failure
        }
        if let failure { throw ReconnectFailure(target: base.sourceName, reason: failure) }
    }

    public var sourceName: String {
        isConnectionLost ? "connection lost, cached rows only — " + base.sourceName : base.sourceName
    }

    public var personCount: Int { base.personCount }
    public var companies: [Company] { base.companies }
    public var skippedRecords: [SkippedRecord] { base.skippedRecords }
    public func arrange(sort: SortOrder, byCompany: Bool, company: Int?) -> PeopleArrangement {
        base.arrange(sort: sort, byCompany: byCompany, company: company)
    }
    public func search(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?) async throws
        -> PeopleArrangement {
        try await base.search(query, in: arrangement, within: earlier)
    }
    public func reapply(_ filtered: PeopleArrangement, to arrangement: PeopleArrangement) -> PeopleArrangement {
        base.reapply(filtered, to: arrangement)
    }
    public func rows(in arrangement: PeopleArrangement, positions: Range<Int>) -> [ListedPerson] {
        base.rows(in: arrangement, positions: positions)
    }
    public func people(in arrangement: PeopleArrangement, positions: Range<Int>) -> [Person] {
        base.people(in: arrangement, positions: positions)
    }
    public func person(_ id: PersonID) -> Person { base.person(id) }
    public func position(of id: PersonID, in arrangement: PeopleArrangement) -> Int? { base.position(of: id, in: arrangement) }
    public func personID(recordID: String) -> PersonID? { base.personID(recordID: recordID) }
    public func companySummaries(in arrangement: PeopleArrangement) -> [CompanySummary] { base.companySummaries(in: arrangement) }
    public func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) -> [ValueSummary] {
        base.valueSummaries(of: field, in: arrangement)
    }
}
