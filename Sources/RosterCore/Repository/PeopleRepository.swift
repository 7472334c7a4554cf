/// A person's identity in the source: their position in the file (or a
/// database's row number), stable across every sort and search. Distinct
/// from a display position (where a person sits in one arrangement) and a
/// screen row (which also counts company headers).
public struct PersonID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    public static func < (left: PersonID, right: PersonID) -> Bool { left.rawValue < right.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// One way of showing the people: an order, its company sections and, after
/// a search, which people it keeps. Only the sections are public: how to
/// page through the people is the business of the repository that made it
/// (`handle`: in memory, an array of ids; in a database, a keyset query).
///
/// Two arrangements are equal when they show the same people the same way:
/// the same order, grouping, company and search give the same sections.
/// The handle is left out because it follows from those (for one
/// repository) and cannot be compared in general.
public struct PeopleArrangement: Sendable, Equatable {
    public let sort: SortOrder
    public let byCompany: Bool
    /// The company this arrangement is limited to (a company's own list).
    public let company: Int?
    /// The search that narrowed it; nil for everyone.
    public let query: SearchQuery?
    /// Company runs in display order; a flat list has one section.
    public let sections: [CompanySection]
    /// People in the arrangement.
    public let count: Int
    /// The repository's own state for this arrangement; opaque to callers.
    public let handle: any Sendable

    public init(sort: SortOrder, byCompany: Bool, company: Int?, query: SearchQuery?, sections: [CompanySection], count: Int,
                handle: any Sendable) {
        self.sort = sort
        self.byCompany = byCompany
        self.company = company
        self.query = query
        self.sections = sections
        self.count = count
        self.handle = handle
    }

    public var isEmpty: Bool { count == 0 }

    public static func == (left: PeopleArrangement, right: PeopleArrangement) -> Bool {
        left.sort == right.sort && left.byCompany == right.byCompany && left.company == right.company
            && left.query == right.query && left.sections == right.sections && left.count == right.count
    }

    /// Index of the section holding display `position`.
    public func sectionIndex(containing position: Int) -> Int {
        sections.sectionIndex(containing: position)
    }
}

/// What a frame (or a line of `--list`) shows of a person: the record's
/// text fields and figures, not its whole `Person`. Always a person's: a
/// row not read yet, or that could not be read, is no `ListedPerson` but a
/// `Loadable<ListedPerson>` that is `.loading` or `.failed` (the list's
/// `ListWindow` and `ListRows`), with no id, name or marks to take.
public struct ListedPerson: Sendable, Equatable {
    public var id: PersonID
    /// Display position in the arrangement the row came from.
    public var position: Int
    /// The person's company, numbered as the repository's `companies`; nil
    /// for one the source's company summary does not know (a database
    /// table edited outside Roster).
    public var companyID: Int?
    /// The record's text, one per `TextField` (by its raw value): empty
    /// when the record has none, or the field is not `isListed`.
    public var texts: [String]
    public var age: Int?
    public var isActive: Bool?
    /// The city part of the address ("Concho" of "303 Vermont Street,
    /// Concho, Arizona, 1707"; see `AddressPart`).
    public var city: String

    /// A row whose text fields `text` gives (those `isListed`).
    public init(id: PersonID, position: Int, companyID: Int?, age: Int? = nil, isActive: Bool? = nil, text: (TextField) -> String) {
        self.id = id
        self.position = position
        self.companyID = companyID
        var texts = [String](repeating: "", count: Self.fieldCount)
        for field in Self.listedFields { texts[field.rawValue] = text(field) }
        self.texts = texts
        self.age = age
        self.isActive = isActive
        city = AddressPart.text(1, of: texts[TextField.address.rawValue])
    }

    /// A row of the fields the list shows first (tests); `others` holds
    /// any other text field.
    public init(id: PersonID, position: Int, companyID: Int?, firstName: String, lastName: String, email: String, balance: String,
                phone: String = "", age: Int? = nil, isActive: Bool? = nil, company: String = "", address: String = "",
                others: [TextField: String] = [:]) {
        let named: [TextField: String] = [.firstName: firstName, .lastName: lastName, .email: email, .balance: balance,
                                          .phone: phone, .company: company, .address: address]
        self.init(id: id, position: position, companyID: companyID, age: age, isActive: isActive) {
            named[$0] ?? others[$0] ?? ""
        }
    }

    /// The fields a row carries, and how many there are, made once (an
    /// enum's `allCases` is a new array each time it is asked for).
    static let listedFields = TextField.allCases.filter(\.isListed)
    static let fieldCount = TextField.allCases.count

    /// The text of `field` as the record has it.
    public func text(_ field: TextField) -> String { texts[field.rawValue] }

    public var firstName: String { text(.firstName) }
    public var lastName: String { text(.lastName) }
    public var email: String { text(.email) }
    /// The balance as the file wrote it.
    public var balance: String { text(.balance) }
    public var phone: String { text(.phone) }
    /// The company's name as the record wrote it.
    public var company: String { text(.company) }
    /// The whole address (the state and zip columns read their parts).
    public var address: String { text(.address) }
    /// The record's `_id`.
    public var recordID: String { text(.id) }

    /// "First Last", or whichever of the two there is.
    public var name: String {
        firstName.isEmpty ? lastName : lastName.isEmpty ? firstName : firstName + " " + lastName
    }
}

/// The only way above the data layer to reach people: every source (a file
/// held in memory, SQLite, PostgreSQL) answers the same questions.
///
/// Shaped for a database as much as for memory: callers ask for windows of
/// rows (what a frame shows), never for everyone; counts and sections come
/// with an arrangement (a summary table); reads are async and stop when
/// their task is cancelled, so a newer keystroke cancels the older search
/// inside the repository. Company ids number `companies`.
///
/// Every read is `async throws(RepositoryError)`: never an empty answer or
/// a blank person in a failure's place, and never a wait on the caller's
/// thread. A database runs its statements on threads of its own and
/// suspends the caller meanwhile. The reads are `nonisolated(nonsending)`:
/// they start on the caller's actor, so a source that answers at once (a
/// file in memory) answers without ever leaving it (see
/// `BackgroundReading`). `arrange` and `reapply` are not reads: both lay
/// out what the source already holds (the people in memory, a database's
/// summary read when it opened), at once and without a statement.
public protocol PeopleRepository: Sendable {
    /// How messages and the title bar name the source ("people.json", "stdin").
    var sourceName: String { get }
    /// Everyone the source holds.
    var personCount: Int { get }
    /// Every company, numbered by company id, with its headcount.
    var companies: [Company] { get }
    /// Records the source could not read, with why.
    var skippedRecords: [SkippedRecord] { get }
    /// Why the last read failed, in a user's words ("connection lost"),
    /// while it holds; nil for a source that cannot fail (a file in memory).
    var readFailure: String? { get }
    /// What a source that answers at once (a file held in memory) offers
    /// besides: rows read while a frame draws. A source that may wait (a
    /// database) has none, and the list reads its rows off the main actor.
    var atOnce: (any ReadingAtOnce)? { get }
    /// The connection to a server (or a database file) the source reads
    /// through, which says when it is lost and connects again; nil for a
    /// source read whole (a file in memory).
    var connection: (any Reconnecting)? { get }
    /// The fields anyone here has (the list leaves out a column no one
    /// has a value in); `.all` for a source that does not say.
    var fieldsInUse: FieldsInUse { get }

    /// Everyone (or one company's people) grouped by company or not, in `sort`'s order.
    func arrange(sort: SortOrder, byCompany: Bool, company: Int?) -> PeopleArrangement
    /// The people of `arrangement` matching `query`, in its order. `within`
    /// is an earlier search over the same people that `query` narrows (the
    /// repository may look only at its matches). Throws `.cancelled` when
    /// its task is cancelled (a newer keystroke), and stops early then.
    func search(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?) async throws(RepositoryError)
        -> PeopleArrangement
    /// `filtered`'s people laid out in `arrangement`'s order (a search kept
    /// across a re-sort); `filtered` itself when it has no query.
    func reapply(_ filtered: PeopleArrangement, to arrangement: PeopleArrangement) -> PeopleArrangement
    /// The rows at display `positions` of `arrangement` (clamped to it).
    nonisolated(nonsending) func rows(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [ListedPerson]
    /// Just the ids at display `positions` (`M` marks everyone shown);
    /// by default read from `rows`, which a source may answer faster.
    nonisolated(nonsending) func personIDs(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [PersonID]
    /// Whole records at display `positions` (exports), in order.
    nonisolated(nonsending) func people(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [Person]
    /// Whole records at display `positions` with their ids, in order (an
    /// export that writes each one's manager, found by id); by default
    /// `personIDs` and `people`, which a source read by statements answers
    /// in one, so that a change between two reads never pairs them wrongly.
    nonisolated(nonsending) func identifiedPeople(in arrangement: PeopleArrangement, positions: Range<Int>)
        async throws(RepositoryError) -> [(id: PersonID, person: Person)]
    /// One person, whole (the detail screen); `.notFound` when nobody has `id`.
    nonisolated(nonsending) func person(_ id: PersonID) async throws(RepositoryError) -> Person
    /// Where `id` sits in `arrangement`, or nil when it leaves them out.
    nonisolated(nonsending) func position(of id: PersonID, in arrangement: PeopleArrangement) async throws(RepositoryError) -> Int?
    /// The person whose record says `_id` is `recordID` (a remembered place), nil for nobody.
    nonisolated(nonsending) func personID(recordID: String) async throws(RepositoryError) -> PersonID?
    /// Per company with someone in `arrangement`: exact figures, companies A→Z.
    nonisolated(nonsending) func companySummaries(in arrangement: PeopleArrangement) async throws(RepositoryError) -> [CompanySummary]
    /// Per value of `field` among the people of `arrangement` (the frequency
    /// view): exact figures, in `ValueSummary.ordered`'s order (companies as
    /// `companySummaries` gives them), people without a value in one
    /// `.missing` row. Address parts read as `city:` / `state:` read them.
    nonisolated(nonsending) func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) async throws(RepositoryError)
        -> [ValueSummary]
}

/// The rows of a source that answers at once (a file held in memory), read
/// while a frame draws: nothing to wait for, so no frame of "loading".
/// An object: the list's rows are the same when they read the same one.
public protocol ReadingAtOnce: AnyObject, Sendable {
    /// The rows at display `positions` of `arrangement` (clamped to it).
    func rowsAtOnce(in arrangement: PeopleArrangement, positions: Range<Int>) -> [ListedPerson]
    /// Whole records at display `positions` of `arrangement` (clamped to it).
    func peopleAtOnce(in arrangement: PeopleArrangement, positions: Range<Int>) -> [Person]
    /// One person, whole; nil when nobody has `id`.
    func personAtOnce(_ id: PersonID) -> Person?
}

extension PeopleRepository {
    public var readFailure: String? { nil }
    public var atOnce: (any ReadingAtOnce)? { nil }
    public var connection: (any Reconnecting)? { nil }
    public var fieldsInUse: FieldsInUse { .all }

    /// True when every read answers at once (a file in memory).
    public var readsAtOnce: Bool { atOnce != nil }

    /// The ids of the rows.
    nonisolated(nonsending) public func personIDs(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [PersonID] {
        try await rows(in: arrangement, positions: positions).map(\.id)
    }

    nonisolated(nonsending) public func identifiedPeople(in arrangement: PeopleArrangement, positions: Range<Int>)
        async throws(RepositoryError) -> [(id: PersonID, person: Person)] {
        let ids = try await personIDs(in: arrangement, positions: positions)
        let people = try await self.people(in: arrangement, positions: positions)
        // Two reads of a source that changed between them: none (the window
        // is then short, and the export says so), never pairs mismatched.
        guard ids.count == people.count else { return [] }
        return zip(ids, people).map { (id: $0, person: $1) }
    }

    /// What a screen's title calls the source: its name, after why the
    /// last read failed while that holds ("connection lost, r reconnects —
    /// staff": a narrow title bar cuts the end). Never a file's name, a
    /// message's or an export's: those take `sourceName`.
    public var titleName: String { readFailure.map { "\($0) — \(sourceName)" } ?? sourceName }

    /// Companies with anyone in them. The people without one ("No
    /// company" in the list) are in no company, so not counted as one.
    public var nonEmptyCompanyCount: Int { companies.reduce(0) { $0 + ($1.headcount > 0 && !$1.key.isEmpty ? 1 : 0) } }

    /// The people without a company.
    public var peopleWithoutCompany: Int { companies.reduce(0) { $0 + ($1.key.isEmpty ? $1.headcount : 0) } }

    /// Every person of `arrangement`, whole, read a window at a time and
    /// handed to `body` in order (an export never asks a source for
    /// everyone at once); `body` returns false to stop early. A window that
    /// cannot be read ends the pass: the answer says how many people were
    /// read and why it stopped, so that nothing short passes for the whole.
    nonisolated(nonsending) public func readAll(in arrangement: PeopleArrangement, window: Int = 4096,
                                                _ body: ([Person]) -> Bool) async -> WholeRead {
        await readWindows(of: arrangement, window: window, { positions throws(RepositoryError) in
            try await self.people(in: arrangement, positions: positions)
        }, body)
    }

    /// `readAll` with each person's id (an export writing managers).
    nonisolated(nonsending) public func readAllIdentified(in arrangement: PeopleArrangement, window: Int = 4096,
                                                          _ body: ([(id: PersonID, person: Person)]) -> Bool) async -> WholeRead {
        await readWindows(of: arrangement, window: window, { positions throws(RepositoryError) in
            try await self.identifiedPeople(in: arrangement, positions: positions)
        }, body)
    }

    /// The windows of `arrangement` as `read` reads them, in order, to `body`.
    nonisolated(nonsending) private func readWindows<Item>(of arrangement: PeopleArrangement, window: Int,
                                                          _ readWindow: (Range<Int>) async throws(RepositoryError) -> [Item],
                                                          _ body: ([Item]) -> Bool) async -> WholeRead {
        var read = 0
        while read < arrangement.count {
            let end = Swift.min(arrangement.count, read + window)
            let items: [Item]
            do throws(RepositoryError) {
                items = try await readWindow(read..<end)
            } catch {
                return WholeRead(read: read, of: arrangement.count, failure: error)
            }
            read += items.count
            // A short window: stop here rather than skip people silently.
            guard body(items), items.count == end - (read - items.count) else { break }
        }
        return WholeRead(read: read, of: arrangement.count, failure: nil)
    }
}

/// How a pass over everyone in an arrangement went (`readAll`).
public struct WholeRead: Sendable, Equatable {
    /// People read and handed on.
    public let read: Int
    /// People in the arrangement.
    public let total: Int
    /// Why the pass ended early; nil while every window was read.
    public let failure: RepositoryError?

    init(read: Int, of total: Int, failure: RepositoryError?) {
        self.read = read
        self.total = total
        self.failure = failure
    }

    /// People of the arrangement not read (0: the pass was whole).
    public var unread: Int { total - read }
}
