/// The data of the two tables of figures, the company overview and the
/// counts by field: the source's totals, and figures per company or per
/// value, counted off the main actor when the source may wait (a database).
@MainActor
public protocol SummaryInteractorInput: AnyObject {
    /// How the title bar names the source ("people.json"), after why its
    /// last read failed, if one did (`PeopleRepository.titleName`).
    var titleName: String { get }
    /// Everyone the source holds.
    var personCount: Int { get }
    /// Companies with anyone in them, whatever the filter ("No company" is none).
    var companiesWithPeople: Int { get }
    /// Whether `companyID` is a company, not the people without one.
    func isCompany(_ companyID: Int) -> Bool
    /// True while the source's server is lost (nothing can be counted).
    var isConnectionLost: Bool { get }
    /// The source's last problem, word for word, for `?`; nil for none.
    var problemDetail: String? { get }
    /// Per company with someone in `shown`; handed to `deliver` on the
    /// main actor (at once for a source that answers at once).
    func companySummaries(in shown: PeopleArrangement,
                          then deliver: @escaping @MainActor @Sendable (Result<[CompanySummary], RepositoryError>) -> Void)
    /// Per value of `field` among the people of `shown`, likewise.
    func valueSummaries(of field: SummaryField, in shown: PeopleArrangement,
                        then deliver: @escaping @MainActor @Sendable (Result<[ValueSummary], RepositoryError>) -> Void)
    /// `r`: connects again and says how that went (`Reconnection`).
    func reconnect(then said: @escaping @MainActor @Sendable (_ message: String, _ reconnected: Bool) -> Void)
    /// Runs `work` on the main actor a little later (a count tried again).
    func retryLater(_ work: @escaping @MainActor @Sendable () -> Void)
}

/// Counts a repository's people through `reader`.
@MainActor
public final class SummaryInteractor: SummaryInteractorInput {
    private let repository: any PeopleRepository
    private let reader: BackgroundReading
    /// Who reports to whom, for the counts by manager; nil for a source without an org chart.
    private let orgChart: OrgChartCache?

    /// `reader` counts a source that may wait (by default, at once).
    public init(repository: any PeopleRepository, reader: BackgroundReading? = nil, orgChart: OrgChartCache? = nil) {
        self.repository = repository
        self.reader = reader ?? ReadingNow()
        self.orgChart = orgChart
    }

    public var titleName: String { repository.titleName }
    public var personCount: Int { repository.personCount }
    public private(set) lazy var companiesWithPeople = repository.nonEmptyCompanyCount

    /// The ids of the people without a company (one, or none).
    private lazy var noCompany = Set(repository.companies.enumerated().filter { $0.element.key.isEmpty }.map(\.offset))

    public func isCompany(_ companyID: Int) -> Bool { !noCompany.contains(companyID) }
    public var isConnectionLost: Bool { repository.connection?.isConnectionLost == true }
    public var problemDetail: String? { ConnectionStatus(repository)?.detail }

    public func companySummaries(in shown: PeopleArrangement,
                                 then deliver: @escaping @MainActor @Sendable (Result<[CompanySummary], RepositoryError>) -> Void) {
        let repository = self.repository
        repository.reads(through: reader).read({
            await Result(awaiting: { () async throws(RepositoryError) in try await repository.companySummaries(in: shown) })
        }, then: deliver)
    }

    public func valueSummaries(of field: SummaryField, in shown: PeopleArrangement,
                               then deliver: @escaping @MainActor @Sendable (Result<[ValueSummary], RepositoryError>) -> Void) {
        if field == .manager { return managerSummaries(in: shown, then: deliver) }
        let repository = self.repository
        repository.reads(through: reader).read({
            await Result(awaiting: { () async throws(RepositoryError) in try await repository.valueSummaries(of: field, in: shown) })
        }, then: deliver)
    }

    /// Team sizes among `shown`, from the org chart: who `shown` holds
    /// comes from the repository, who manages them from the chart.
    private func managerSummaries(in shown: PeopleArrangement,
                                  then deliver: @escaping @MainActor @Sendable (Result<[ValueSummary], RepositoryError>) -> Void) {
        guard let orgChart else { return deliver(.failure(RepositoryError(.unreadable, reason: Self.noManagersHere))) }
        let (repository, reader) = (self.repository, self.reader)
        orgChart.chart { loaded in
            guard case .success(let chart) = loaded else { return deliver(loaded.map { _ in [] }) }
            repository.reads(through: reader).read({
                await Result(awaiting: { () async throws(RepositoryError) in
                    let people = try await repository.personIDs(in: shown, positions: 0..<shown.count).map(\.rawValue)
                    return ManagerCounts.summaries(of: people, in: chart)
                })
            }, then: deliver)
        }
    }

    /// Said in place of counts by manager over a source without an org chart.
    static let noManagersHere = "no org chart here: " + OrgChartInteractor.noChartReason

    public func reconnect(then said: @escaping @MainActor @Sendable (_ message: String, _ reconnected: Bool) -> Void) {
        Reconnection.attempt(repository, using: reader, then: said)
    }

    public func retryLater(_ work: @escaping @MainActor @Sendable () -> Void) {
        RetryLater.run(using: reader, work)
    }
}
