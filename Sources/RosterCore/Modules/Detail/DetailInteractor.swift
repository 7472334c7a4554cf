/// The person screen's data: whole records of the people the list showed,
/// read off the main actor when the source may wait (a database).
@MainActor
public protocol DetailInteractorInput: AnyObject {
    /// What the list showed: ↑/↓ walk it.
    var arrangement: PeopleArrangement { get }
    /// The people at `positions` (as `readPeople` gives them) when the
    /// source answers at once (a file in memory); nil when it may wait.
    func peopleAtOnce(at positions: Range<Int>) -> [Result<Person, RepositoryError>]?
    /// The people at `positions`, one outcome each (the person, or why
    /// not), handed to `deliver` on the main actor: at once for a source
    /// that answers at once, else when they have been read.
    func readPeople(at positions: Range<Int>, then deliver: @escaping @MainActor @Sendable ([Result<Person, RepositoryError>]) -> Void)
    /// True when the source has a connection to make again (a database);
    /// a file has none: only reading again helps.
    var canReconnect: Bool { get }
    /// Connects again (off the main actor); `deliver` gets nil when it
    /// worked, or why not.
    func reconnect(then deliver: @escaping @MainActor @Sendable (ReconnectFailure?) -> Void)
    /// The source's last problem, word for word, for `?`; nil for none.
    var problemDetail: String? { get }
    /// Runs `work` on the main actor a little later (a read tried again).
    func retryLater(_ work: @escaping @MainActor @Sendable () -> Void)
    /// Whether the connection to the source's server is lost: a person
    /// read now is shown as last seen (`LastSeenPeople`).
    var isConnectionLost: Bool { get }
    /// The fields anyone in the source has: the person's screen leaves out the others.
    var fieldsInUse: FieldsInUse { get }
    /// Where the person whose record's `_id` is `recordID` stands in the
    /// org chart; nil for a source without one, or before it is read
    /// (then `whenRead` is called once it is).
    func orgPlace(ofRecord recordID: String, whenRead: @escaping @MainActor @Sendable () -> Void) -> OrgPlace?
}

extension DetailInteractorInput {
    public var isConnectionLost: Bool { false }
    public var fieldsInUse: FieldsInUse { .all }
    public func orgPlace(ofRecord recordID: String, whenRead: @escaping @MainActor @Sendable () -> Void) -> OrgPlace? { nil }
}

/// Reads the person screen's people from a repository, through `reader`.
@MainActor
public final class DetailInteractor: DetailInteractorInput {
    private let repository: any PeopleRepository
    public let arrangement: PeopleArrangement
    private let reader: BackgroundReading
    private let orgChart: OrgChartCache?

    /// `reader` reads a source that may wait (by default, at once);
    /// `orgChart` says where people stand, for a source with managers.
    public init(repository: any PeopleRepository, arrangement: PeopleArrangement, reader: BackgroundReading? = nil,
                orgChart: OrgChartCache? = nil) {
        self.repository = repository
        self.arrangement = arrangement
        self.reader = reader ?? ReadingNow()
        self.orgChart = orgChart
    }

    public func orgPlace(ofRecord recordID: String, whenRead: @escaping @MainActor @Sendable () -> Void) -> OrgPlace? {
        orgChart?.place(ofRecord: recordID, whenRead: whenRead)
    }

    public func peopleAtOnce(at positions: Range<Int>) -> [Result<Person, RepositoryError>]? {
        guard let atOnce = repository.atOnce else { return nil }
        return Self.outcomes(atOnce.peopleAtOnce(in: arrangement, positions: positions), of: positions)
    }

    public var problemDetail: String? { ConnectionStatus(repository)?.detail }

    public func readPeople(at positions: Range<Int>,
                           then deliver: @escaping @MainActor @Sendable ([Result<Person, RepositoryError>]) -> Void) {
        let (repository, arrangement) = (self.repository, self.arrangement)
        repository.reads(through: reader).read({ await Self.people(of: repository, in: arrangement, positions: positions) },
                                                then: deliver)
    }

    /// One outcome per position of `positions`: the person, or why not.
    private nonisolated static func people(of repository: any PeopleRepository, in arrangement: PeopleArrangement,
                                           positions: Range<Int>) async -> [Result<Person, RepositoryError>] {
        do throws(RepositoryError) {
            return outcomes(try await repository.people(in: arrangement, positions: positions), of: positions)
        } catch {
            return positions.map { _ in .failure(error) }
        }
    }

    /// `people`, read for `positions`, one outcome per position: a position
    /// the source left out is nobody.
    private nonisolated static func outcomes(_ people: [Person], of positions: Range<Int>) -> [Result<Person, RepositoryError>] {
        (0..<positions.count).map { $0 < people.count ? .success(people[$0]) : .failure(.notFound) }
    }

    public var canReconnect: Bool { repository.connection != nil }
    public var fieldsInUse: FieldsInUse { repository.fieldsInUse }

    public var isConnectionLost: Bool {
        guard let connection = repository.connection else { return false }
        return !connection.isLocal && connection.isConnectionLost
    }

    public func reconnect(then deliver: @escaping @MainActor @Sendable (ReconnectFailure?) -> Void) {
        guard let connection = repository.connection else { return deliver(nil) }
        reader.perform({ () -> ReconnectFailure? in
            do throws(ReconnectFailure) {
                try connection.reconnect()
                return nil
            } catch {
                return error
            }
        }, then: deliver)
    }

    public func retryLater(_ work: @escaping @MainActor @Sendable () -> Void) {
        RetryLater.run(using: reader, work)
    }
}
