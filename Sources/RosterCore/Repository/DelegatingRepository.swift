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
    /// None by default, even over a source in memory: rows read at once
    /// would go round the wrapper's own reads. A wrapper that changes no
    /// read (the offline copy) says `base.atOnce`.
    public var atOnce: (any ReadingAtOnce)? { nil }
    /// A wrapper reads through its base's connection (unless it is one).
    public var connection: (any Reconnecting)? { base.connection }
    public var fieldsInUse: FieldsInUse { base.fieldsInUse }

    public func arrange(sort: SortOrder, byCompany: Bool, company: Int?) -> PeopleArrangement {
        base.arrange(sort: sort, byCompany: byCompany, company: company)
    }

    public func search(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?) async throws(RepositoryError)
        -> PeopleArrangement {
        try await base.search(query, in: arrangement, within: earlier)
    }

    public func reapply(_ filtered: PeopleArrangement, to arrangement: PeopleArrangement) -> PeopleArrangement {
        base.reapply(filtered, to: arrangement)
    }

    public func rows(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [ListedPerson] {
        try await base.rows(in: arrangement, positions: positions)
    }

    public func personIDs(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [PersonID] {
        try await base.personIDs(in: arrangement, positions: positions)
    }

    public func people(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [Person] {
        try await base.people(in: arrangement, positions: positions)
    }

    public func person(_ id: PersonID) async throws(RepositoryError) -> Person {
        try await base.person(id)
    }

    public func position(of id: PersonID, in arrangement: PeopleArrangement) async throws(RepositoryError) -> Int? {
        try await base.position(of: id, in: arrangement)
    }

    public func personID(recordID: String) async throws(RepositoryError) -> PersonID? {
        try await base.personID(recordID: recordID)
    }

    public func companySummaries(in arrangement: PeopleArrangement) async throws(RepositoryError) -> [CompanySummary] {
        try await base.companySummaries(in: arrangement)
    }

    public func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) async throws(RepositoryError) -> [ValueSummary] {
        try await base.valueSummaries(of: field, in: arrangement)
    }
}
