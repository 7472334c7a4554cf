/// A directory's org chart, ready to show: the tree, and what each
/// person's line says.
public struct OrgChart: Sendable {
    public let tree: OrgTree
    public let people: any OrgChartPeople
    /// Finds the person an `_id`, email, DN or name names, as managers were
    /// found (`reports-to:X`, `under:X`); nil when the source gave none.
    public let references: (any PersonReferenceFinding)?

    public init(tree: OrgTree, people: any OrgChartPeople, references: (any PersonReferenceFinding)? = nil) {
        self.tree = tree
        self.people = people
        self.references = references
    }
}

/// What the chart says of a person, by number (a `PersonID`'s raw value).
public protocol OrgChartPeople: Sendable {
    func name(of person: Int) -> String
    func email(of person: Int) -> String
    /// The one person whose record's `_id` is `recordID`, nil for none or several.
    func person(recordID: String) -> Int?
    /// The `PersonID` raw value of the chart's `person` (the list's and the
    /// repository's number for them).
    func personID(of person: Int) -> Int
    /// The chart's number of the person whose `PersonID` raw value is `id`.
    func person(withID id: Int) -> Int?
    /// The `_id` of `person`'s record; empty when it has none.
    func recordID(of person: Int) -> String
}

extension OrgChartPeople {
    /// A file's chart numbers people as its store does: as their `PersonID`.
    public func personID(of person: Int) -> Int { person }
    public func person(withID id: Int) -> Int? { id }
    public func recordID(of person: Int) -> String { "" }
}

/// A source whose people's managers can be read: the chart made from them.
public protocol OrgChartReading: Sendable {
    /// Whether `readChart` wants the list's order (`orderKeys`): false for
    /// a source that orders the chart itself, sparing the reading of
    /// everyone's place in the list.
    var takesOrderKeys: Bool { get }
    /// Reads the managers and builds the chart (blocking: a file is read);
    /// each manager's reports and the top people ordered by `orderKeys`
    /// (a position per person), by person number when nil.
    func readChart(orderKeys: [Int32]?) -> OrgChartLoad
    /// Whether the chart is read and kept (`KeptOrgChartReading`): false
    /// for a source read anew at each ask.
    var isRead: Bool { get }
    /// Starts reading the chart ahead, off the main actor, when the source
    /// keeps it once read; by default nothing.
    @MainActor func prepare(through reader: BackgroundReading)
    /// Where one person stands, answered without reading the chart (a
    /// table's indexes); nil when only the chart says (a file's).
    var placeLookup: (any OrgPlaceLookup)? { get }
    /// Every person's manager reference as the source writes it, read
    /// again (blocking), for an export to carry; `.none` by default.
    func readManagerReferences() -> ManagerReferencesLoad
}

extension OrgChartReading {
    public var takesOrderKeys: Bool { true }
    public var isRead: Bool { false }
    public var placeLookup: (any OrgPlaceLookup)? { nil }
    @MainActor public func prepare(through reader: BackgroundReading) {}
}

/// Reads the org chart of the list's source off the main actor, in the
/// order the list shows people, and finds a search's matches through the
/// repository (so that `/` takes the list's queries).
@MainActor
public final class OrgChartInteractor: OrgChartInteractorInput {
    private let repository: any PeopleRepository
    /// Everyone, in the list's order: the chart's order and what searches search.
    private let everyone: PeopleArrangement
    private let reading: (any OrgChartReading)?
    private let reader: BackgroundReading

    /// `shown` is what the list shows (its order is kept; its filter and
    /// company are not: the chart is of everyone). `reading` is nil for a
    /// source that offers no chart.
    public init(repository: any PeopleRepository, shown: PeopleArrangement, reading: (any OrgChartReading)?,
                reader: BackgroundReading? = nil) {
        self.repository = repository
        everyone = shown.query == nil && shown.company == nil
            ? shown : repository.arrange(sort: shown.sort, byCompany: shown.byCompany, company: nil)
        self.reading = reading
        self.reader = reader ?? ReadingNow()
    }

    public var sourceName: String { repository.titleName }

    /// Said when the source offers no chart.
    public static let noChartReason = "only a file's people are read for their managers (a \"manager\" field)"

    public func loadChart(then deliver: @escaping @MainActor @Sendable (OrgChartLoad) -> Void) {
        guard let reading else { return deliver(.unavailable(Self.noChartReason)) }
        let (repository, everyone, reader) = (self.repository, self.everyone, self.reader)
        guard reading.takesOrderKeys else { return reader.perform({ reading.readChart(orderKeys: nil) }, then: deliver) }
        repository.reads(through: reader).read({ await Self.orderKeys(of: everyone, in: repository) }, then: { keys in
            reader.perform({ reading.readChart(orderKeys: keys) }, then: deliver)
        })
    }

    /// Each person's position in `arrangement`; nil when it cannot be read
    /// (the chart then keeps the source's order).
    public nonisolated static func orderKeys(of arrangement: PeopleArrangement, in repository: any PeopleRepository) async -> [Int32]? {
        guard let ids = try? await repository.personIDs(in: arrangement, positions: 0..<arrangement.count),
              ids.count == repository.personCount else { return nil }
        var keys = [Int32](repeating: Int32.max, count: repository.personCount)
        for (position, id) in ids.enumerated() where keys.indices.contains(id.rawValue) { keys[id.rawValue] = Int32(position) }
        return keys
    }

    public func matches(of query: String, then deliver: @escaping @MainActor @Sendable (Result<[Int], RepositoryError>) -> Void) {
        let (repository, everyone) = (self.repository, self.everyone)
        // A search may leave the caller's actor even in memory (it runs on the cores): always the screen's reader.
        reader.read({ () async -> Result<[Int], RepositoryError> in
            do throws(RepositoryError) {
                let found = try await repository.search(SearchQuery(query), in: everyone, within: nil)
                return .success(try await repository.personIDs(in: found, positions: 0..<found.count).map(\.rawValue))
            } catch {
                return .failure(error)
            }
        }, then: deliver)
    }
}
