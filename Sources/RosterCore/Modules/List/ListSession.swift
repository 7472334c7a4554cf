/// What every list of a session shares: the people marked with `m` (a
/// company's list and the main list mark the same people) and the columns
/// chosen with `C`. Marks are by `PersonID`, so a new order, a search or
/// another list never loses them.
@MainActor
public final class ListSession {
    public private(set) var marked: Set<PersonID> = []
    public var columns: ColumnChoice
    /// Counts changes to `marked`, so a list can tell its counts are stale.
    public private(set) var marksVersion = 0
    /// Edits made offline and not sent to the server yet (their people's
    /// rows show ⇡; the status line counts them).
    public var unsent = UnsentEdits() {
        didSet { if unsent != oldValue { marksVersion += 1 } }
    }

    /// How the source's org chart (`T`) is read, given the repository the
    /// list shows; nil (or nil given back) for a source that offers none.
    public var orgChartReading: (@MainActor (any PeopleRepository) -> (any OrgChartReading)?)?

    /// The org chart the person's screen asks, read once for the source
    /// shown (a file read again is another source).
    private var orgChartCache: (source: WeakSource, cache: OrgChartCache)?

    private struct WeakSource {
        weak var object: AnyObject?
    }

    /// Where the person's screen finds people's managers and teams in
    /// `repository`; nil for a source without an org chart.
    public func orgChartCache(for repository: any PeopleRepository, reader: BackgroundReading) -> OrgChartCache? {
        let object = repository as AnyObject
        if let orgChartCache, orgChartCache.source.object === object { return orgChartCache.cache }
        guard let reading = orgChartReading?(repository) else { return nil }
        let cache = OrgChartCache(reading: reading, reader: reader)
        orgChartCache = (WeakSource(object: object), cache)
        return cache
    }

    /// Starts reading `repository`'s org chart ahead, off the main actor,
    /// so that `T` finds it read: for the first list of a source, and for
    /// a source read again (an edit, another program's change) when the
    /// chart of the one it replaces was read, so that nobody who never
    /// opens a chart pays for one after each edit.
    public func prepareOrgChart(of repository: any PeopleRepository, replacing previous: (any PeopleRepository)?,
                                reader: BackgroundReading) {
        guard let reading = orgChartReading?(repository) else { return }
        if let previous {
            guard previous as AnyObject !== repository as AnyObject, orgChartReading?(previous)?.isRead == true else { return }
        }
        reading.prepare(through: reader)
    }

    public init(columns: ColumnChoice = .standard) {
        self.columns = columns
    }

    /// Marks `id`, or unmarks it if it was; true when it is now marked.
    @discardableResult
    public func toggleMark(_ id: PersonID) -> Bool {
        marksVersion += 1
        if marked.remove(id) != nil { return false }
        marked.insert(id)
        return true
    }

    public func mark<IDs: Sequence>(_ ids: IDs) where IDs.Element == PersonID {
        marksVersion += 1
        marked.formUnion(ids)
    }

    public func unmarkAll() {
        marksVersion += 1
        marked.removeAll()
    }
}

/// Edits made offline that the server has not got yet.
public struct UnsentEdits: Equatable, Sendable {
    /// The `_id`s of the people they edit.
    public var people: Set<String>
    /// How many edits (operations).
    public var count: Int

    public init(people: Set<String> = [], count: Int = 0) {
        self.people = people
        self.count = count
    }
}
