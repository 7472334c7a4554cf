/// The people list's data: the repository's people in an order, searched,
/// read a window at a time, marked, copied and exported. Every read of a
/// source that may wait (a database) runs off the main actor, through the
/// list's scheduler, and its answer comes back on the main actor: the
/// presenter asks and is answered, and never holds the repository.
@MainActor
public protocol ListInteractorInput: AnyObject {
    /// How messages and file names name the source ("people.json").
    var sourceName: String { get }
    /// How the title bar names it: after why its last read failed, if one did.
    var titleName: String { get }
    /// Everyone the source holds.
    var personCount: Int { get }
    /// Every company, numbered by company id.
    var companies: [Company] { get }
    /// Companies with anyone in them ("No company" is none).
    var companiesWithPeople: Int { get }
    /// The people without a company.
    var peopleWithoutCompany: Int { get }
    /// Records the source could not read.
    var skippedRecordCount: Int { get }
    /// The fields anyone in the source has (a column no one has a value in is left out).
    var fieldsInUse: FieldsInUse { get }
    /// How the source stands with its server; nil for a file.
    var connectionStatus: ConnectionStatus? { get }
    /// True when searches and new orders run (in the background); a list
    /// without a scheduler (a test's) shows only what it was given.
    var runsSearches: Bool { get }
    /// Where an export is written: off the main actor.
    var exportReader: BackgroundReading { get }

    /// A window on `arrangement`'s rows (read while drawing from a source
    /// that answers at once; else by `fill`).
    func window(on arrangement: PeopleArrangement) -> ListWindow
    /// Reads, off the main actor, the rows `window` wants after a frame
    /// that drew the people at `drawn`, stores them in it, then calls
    /// `then` (not at all when there was nothing to read).
    func fill(_ window: ListWindow, drawn: ClosedRange<Int>, then: @escaping @MainActor @Sendable () -> Void)
    /// Everyone (or one company's people) in `sort`'s order, off the main actor.
    func arrange(sort: SortOrder, byCompany: Bool, company: Int?,
                 then: @escaping @MainActor @Sendable (PeopleArrangement) -> Void)
    /// The people of `everyone` matching `query` (`within`: the filter in
    /// force it narrows); `failed` says why a search failed, in one line.
    /// A newer search, or `cancelSearches`, makes this one moot.
    func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?,
                then: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                failed: @escaping @MainActor @Sendable (String) -> Void)
    func cancelSearches()
    /// `n` / `N` with no filter: the next (`forward`) or previous person
    /// after display `position` of `everyone` who matches `query`, found
    /// off the main actor; `searched` is `query`'s matches when known
    /// from the last time (else it is searched for, within `earlier`'s
    /// people when an earlier result is known that it narrows).
    func findMatch(_ query: SearchQuery, in everyone: PeopleArrangement, searched: Searched, from position: Int, forward: Bool,
                   then: @escaping @MainActor @Sendable (FoundMatch) -> Void)
    /// `filtered`'s people in `arrangement`'s order (a search kept across a re-sort).
    func reapply(_ filtered: PeopleArrangement, to arrangement: PeopleArrangement) -> PeopleArrangement
    /// Where `selected` sits in `shown`, and (for a flat list) how many
    /// companies it shows; unknown (nil) where they could not be read.
    /// `selectedAt`: where the selected person was, when their row was not
    /// read yet (a database, right after `G`): they are read from there first.
    func placement(of selected: PersonID?, orAt selectedAt: UnreadSelection?, in shown: PeopleArrangement, byCompany: Bool,
                   then: @escaping @MainActor @Sendable (ListPlacement) -> Void)
    /// The ids of everyone `shown` shows (`M`), in its order.
    func personIDs(in shown: PeopleArrangement, then: @escaping @MainActor @Sendable (Result<[PersonID], RepositoryError>) -> Void)
    /// How many of `marked` `shown` shows; nil when it could not be counted.
    func markedCount(of marked: Set<PersonID>, in shown: PeopleArrangement, then: @escaping @MainActor @Sendable (Int?) -> Void)
    /// The marked people (in `order`, then any it leaves out), else the
    /// selected one, whole: what `y` and `Y` copy.
    func peopleToCopy(marked: Set<PersonID>, orderedBy order: PeopleArrangement, selected: PersonID?,
                      then: @escaping @MainActor @Sendable (Result<[Person], RepositoryError>) -> Void)
    /// What an export writes: `shown`, or with marks the marked people in `order`.
    func exportContent(marked: Set<PersonID>, shown: PeopleArrangement, orderedBy order: PeopleArrangement) -> ExportContent
    /// The place to remember for the next launch (nothing is read from a
    /// source that may wait: this runs as the app quits).
    func rememberedPlace(person: PersonID?, recordID: String?, sort: SortOrder, byCompany: Bool, collapsedCompanies: Set<Int>,
                         columns: ColumnChoice) -> RememberedPlace
    /// The remembered collapsed companies, by id; nil when none were remembered.
    func collapsedCompanyIDs(of place: RememberedPlace) -> Set<Int>?
    /// The remembered person, found again (by file position, or by `_id`).
    func person(of place: RememberedPlace, then: @escaping @MainActor @Sendable (Result<PersonID?, RepositoryError>) -> Void)
    /// `r`: connects again and says how that went (`Reconnection`).
    func reconnect(then said: @escaping @MainActor @Sendable (_ message: String, _ reconnected: Bool) -> Void)
    /// Runs `work` on the main actor a little later (a read tried again).
    func retryLater(_ work: @escaping @MainActor @Sendable () -> Void)
}

/// Where the selected person was when their row was not read yet (a
/// database, right after `G`): the arrangement and display position to
/// read them from before placing them in a new one.
public struct UnreadSelection: Sendable {
    public let arrangement: PeopleArrangement
    public let position: Int
}

/// Where a result's selected person is, and how many companies it shows.
public struct ListPlacement: Sendable, Equatable {
    public let position: Int?
    public let companies: Int?
}

/// The list's data from a repository, through `scheduler`.
@MainActor
public final class ListInteractor: ListInteractorInput {
    private let repository: any PeopleRepository
    /// Runs searches, new orders and reads off the main actor; nil (in
    /// tests): rows are read while drawing, and no search runs.
    private let scheduler: ListSearchScheduling?

    public init(repository: any PeopleRepository, scheduler: ListSearchScheduling? = nil) {
        self.repository = repository
        self.scheduler = scheduler
    }

    /// Where one read runs: at once from a source that answers at once.
    private var reader: BackgroundReading { repository.reads(through: background) }

    /// Where work runs off the main actor: the scheduler, or (in tests
    /// without one) at once.
    private var background: BackgroundReading { scheduler ?? ReadingNow() }

    public var sourceName: String { repository.sourceName }
    public var fieldsInUse: FieldsInUse { repository.fieldsInUse }
    public var titleName: String { repository.titleName }
    public var personCount: Int { repository.personCount }
    public var companies: [Company] { repository.companies }
    public private(set) lazy var companiesWithPeople = repository.nonEmptyCompanyCount
    public private(set) lazy var peopleWithoutCompany = repository.peopleWithoutCompany
    public var skippedRecordCount: Int { repository.skippedRecords.count }
    public var connectionStatus: ConnectionStatus? { ConnectionStatus(repository) }
    public var runsSearches: Bool { scheduler != nil }
    public var exportReader: BackgroundReading { background }

    public func window(on arrangement: PeopleArrangement) -> ListWindow {
        ListWindow(arrangement, atOnce: repository.atOnce)
    }

    public func fill(_ window: ListWindow, drawn: ClosedRange<Int>, then: @escaping @MainActor @Sendable () -> Void) {
        guard let positions = window.wanted(drawn: drawn) else { return }
        let (repository, arrangement) = (self.repository, window.arrangement)
        background.read({
            await Result(awaiting: { () async throws(RepositoryError) in try await repository.rows(in: arrangement, positions: positions) })
        }) { read in
            window.store(read, for: positions)
            then()
        }
    }

    public func arrange(sort: SortOrder, byCompany: Bool, company: Int?,
                        then: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
        scheduler?.arrange(repository, sort: sort, byCompany: byCompany, company: company, completion: then)
    }

    public func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?,
                       then: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                       failed: @escaping @MainActor @Sendable (String) -> Void) {
        scheduler?.search(query, in: everyone, within: within, repository: repository, completion: then, failed: failed)
    }

    public func cancelSearches() {
        scheduler?.cancelPending()
    }

    public func reapply(_ filtered: PeopleArrangement, to arrangement: PeopleArrangement) -> PeopleArrangement {
        repository.reapply(filtered, to: arrangement)
    }

    public func findMatch(_ query: SearchQuery, in everyone: PeopleArrangement, searched: Searched, from position: Int, forward: Bool,
                          then: @escaping @MainActor @Sendable (FoundMatch) -> Void) {
        let repository = self.repository
        // In the background even for a file: searching everyone is a keystroke's search.
        background.read({
            await MatchFinder.find(query, in: everyone, searched: searched, from: position, forward: forward, repository: repository)
        }, then: then)
    }

    public func placement(of selected: PersonID?, orAt selectedAt: UnreadSelection?, in shown: PeopleArrangement, byCompany: Bool,
                          then: @escaping @MainActor @Sendable (ListPlacement) -> Void) {
        let repository = self.repository
        reader.read({
            // A place or a count that could not be read is unknown (nil),
            // never made up: the list then starts at the top, and the
            // status bar leaves the companies' count out.
            var position: Int?
            var selected = selected
            if selected == nil, let selectedAt {
                let at = selectedAt.position..<(selectedAt.position + 1)
                selected = (try? await repository.personIDs(in: selectedAt.arrangement, positions: at))?.first
            }
            if let selected { position = try? await repository.position(of: selected, in: shown) }
            // The people without a company ("No company") are in none.
            let named = repository.companies
            func isCompany(_ id: Int?) -> Bool { id.map { !named.indices.contains($0) || !named[$0].key.isEmpty } ?? true }
            let companies = byCompany ? shown.sections.filter { isCompany($0.companyID) }.count
                : (try? await repository.companySummaries(in: shown))?.filter { isCompany($0.companyID) }.count
            return ListPlacement(position: position, companies: companies)
        }, then: then)
    }

    public func personIDs(in shown: PeopleArrangement,
                          then: @escaping @MainActor @Sendable (Result<[PersonID], RepositoryError>) -> Void) {
        let repository = self.repository
        reader.read({
            await Result(awaiting: { () async throws(RepositoryError) in try await MarkedPeople.ids(in: shown, repository: repository) })
        }, then: then)
    }

    public func markedCount(of marked: Set<PersonID>, in shown: PeopleArrangement, then: @escaping @MainActor @Sendable (Int?) -> Void) {
        let people = MarkedPeople(repository: repository, marked: marked)
        reader.read({ try? await people.shownCount(in: shown) }, then: then)
    }

    public func peopleToCopy(marked: Set<PersonID>, orderedBy order: PeopleArrangement, selected: PersonID?,
                             then: @escaping @MainActor @Sendable (Result<[Person], RepositoryError>) -> Void) {
        let (repository, people) = (self.repository, MarkedPeople(repository: repository, marked: marked))
        reader.read({
            await Result(awaiting: { () async throws(RepositoryError) -> [Person] in
                guard marked.isEmpty else { return try await people.people(orderedBy: order) }
                guard let selected else { return [] }
                return [try await repository.person(selected)]
            })
        }, then: then)
    }

    public func exportContent(marked: Set<PersonID>, shown: PeopleArrangement, orderedBy order: PeopleArrangement) -> ExportContent {
        marked.isEmpty ? .shown(shown, of: repository) : .marks(marked, of: repository, orderedBy: order)
    }

    public func rememberedPlace(person: PersonID?, recordID: String?, sort: SortOrder, byCompany: Bool, collapsedCompanies: Set<Int>,
                                columns: ColumnChoice) -> RememberedPlace {
        RememberedPlace(person: person, recordID: recordID, sort: sort, byCompany: byCompany, collapsedCompanies: collapsedCompanies,
                        columns: columns, repository: repository)
    }

    public func collapsedCompanyIDs(of place: RememberedPlace) -> Set<Int>? {
        place.collapsedCompanyIDs(in: repository)
    }

    public func person(of place: RememberedPlace, then: @escaping @MainActor @Sendable (Result<PersonID?, RepositoryError>) -> Void) {
        let repository = self.repository
        reader.read({ await Result(awaiting: { () async throws(RepositoryError) in try await place.person(in: repository) }) }, then: then)
    }

    public func reconnect(then said: @escaping @MainActor @Sendable (_ message: String, _ reconnected: Bool) -> Void) {
        Reconnection.attempt(repository, using: background, then: said)
    }

    public func retryLater(_ work: @escaping @MainActor @Sendable () -> Void) {
        RetryLater.run(using: background, work)
    }
}
