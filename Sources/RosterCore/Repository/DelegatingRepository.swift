/// A repository that answers from another one, `base`, except where it says
/// otherwise: for wrappers that change one thing (the offline copy, which
/// reconnects; test fakes with a held search or a lost connection).
public protocol DelegatingRepository: PeopleRepository {
    var base: any PeopleRepository { get }
}

extension DelegatingRepository {
    public var sourceName: String { base.sourceName }
    public var personCount: Int { base.personCount }
    public var companies: [Company] { base.companies }
    public var skippedRecords: [SkippedRecord] { base.skippedRecords }
    public var readFailure: String? { base.readFailure }
    public var readsAtOnce: Bool { base.readsAtOnce }
    /// A wrapper reads through its base's connection (unless it is one).
    public var connection: (any Reconnecting)? { base.connection }

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

    public func personIDs(in arrangement: PeopleArrangement, positions: Range<Int>) throws(RepositoryError) -> [PersonID] {
        try base.personIDs(in: arrangement, positions: positions)
    }

    public func people(in arrangement: PeopleArrangement, positions: Range<Int>) throws(RepositoryError) -> [Person] {
        try base.people(in: arrangement, positions: positions)
    }

    public func person(_ id: PersonID) throws(RepositoryError) -> Person { try base.person(id) }

    public func position(of id: PersonID, in arrangement: PeopleArrangement) throws(RepositoryError) -> Int? {
        try base.position(of: id, in: arrangement)
    }

    public func personID(recordID: String) throws(RepositoryError) -> PersonID? { try base.personID(recordID: recordID) }

    public func companySummaries(in arrangement: PeopleArrangement) throws(RepositoryError) -> [CompanySummary] {
        try base.companySummaries(in: arrangement)
    }

    public func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) throws(RepositoryError) -> [ValueSummary] {
        try base.valueSummaries(of: field, in: arrangement)
    }
}
