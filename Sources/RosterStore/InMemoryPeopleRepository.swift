import Dispatch
import Synchronization
#if !ROSTER_FUZZ
import RosterCore
#endif

/// The people of one file, held in memory: `PeopleRepository` over a
/// `PeopleStore`, with `GroupedPeople` and `PeopleSearch` doing the work.
///
/// The per-person loops stay inside the store's own types; the protocol is
/// crossed once per arrangement, search or window, never once per person.
public final class InMemoryPeopleRepository: PeopleRepository, ReadingAtOnce {
    public let store: PeopleStore
    /// Every `_id`'s person, made once `personID(recordID:)` is asked more
    /// than a few times (finding marks again); until then, how many asked.
    private let recordIndex = Locked<(index: RecordIDIndex?, asked: Int)>((nil, 0))
    public let skippedRecords: [SkippedRecord]
    public let sourceName: String
    /// How this source's managers are read for its people (a file read
    /// again); nil for a source that keeps none (standard input).
    public let managers: ManagerReading?
    /// This store's org chart, read once (ahead, or at the first ask) and
    /// kept for `T`, the person's screen and the queries; nil without `managers`.
    public let orgChartReading: KeptOrgChartReading?
    /// The org chart `reports-to:`, `under:` and `depth` ask, read at the
    /// first such search; nil without `managers`.
    private let orgChart: OrgChartForQueries?

    /// Makes the reading of the managers of a store's people.
    public typealias ManagerReading = @Sendable (PeopleStore) -> any OrgChartReading

    public init(store: PeopleStore, skipped: [SkippedRecord] = [], sourceName: String, managers: ManagerReading? = nil) {
        self.store = store
        skippedRecords = skipped
        self.sourceName = sourceName
        self.managers = managers
        let kept = managers.map { KeptOrgChartReading($0(store)) }
        orgChartReading = kept
        orgChart = kept.map { OrgChartForQueries(reading: $0, sourceName: sourceName) }
    }

    public convenience init(_ directory: LoadedDirectory, managers: ManagerReading? = nil) {
        self.init(store: directory.store, skipped: directory.skipped, sourceName: directory.sourceName, managers: managers)
    }

    public var personCount: Int { store.count }
    public var companies: [Company] { store.companies }
    public var atOnce: (any ReadingAtOnce)? { self }
    public var fieldsInUse: FieldsInUse { store.fieldsInUse }

    /// What an arrangement made here holds: the order, and a search's
    /// matches (a bit per person) for the next, narrower search.
    struct Handle: Sendable {
        let grouped: GroupedPeople
        let search: SearchResult?
    }

    private func handle(of arrangement: PeopleArrangement) -> Handle {
        guard let handle = arrangement.handle as? Handle else {
            preconditionFailure("an arrangement made by another repository")
        }
        return handle
    }

    /// The arrangement `grouped` already is (grouped on the loading thread).
    public func arrangement(of grouped: GroupedPeople, sort: SortOrder = .byLastName, byCompany: Bool = true,
                            company: Int? = nil) -> PeopleArrangement {
        wrap(grouped, sort: sort, byCompany: byCompany, company: company, search: nil)
    }

    private func wrap(_ grouped: GroupedPeople, sort: SortOrder, byCompany: Bool, company: Int?, search: SearchResult?)
        -> PeopleArrangement {
        PeopleArrangement(sort: sort, byCompany: byCompany, company: company, query: search?.query, sections: grouped.sections,
                          count: grouped.order.count, handle: Handle(grouped: grouped, search: search))
    }

    public func arrange(sort: SortOrder, byCompany: Bool, company: Int?) -> PeopleArrangement {
        guard let company else {
            return wrap(GroupedPeople(store: store, sort: sort, byCompany: byCompany), sort: sort, byCompany: byCompany,
                        company: nil, search: nil)
        }
        if byCompany {
            return wrap(GroupedPeople(company: company, store: store, sort: sort), sort: sort, byCompany: true, company: company,
                        search: nil)
        }
        let flat = GroupedPeople(store: store, sort: sort, byCompany: false)
        let companyOnly = GroupedPeople(company: company, store: store, sort: sort)
        let members = PeopleSearch.members(of: companyOnly, store: store)
        return wrap(PeopleSearch.restrict(flat, to: members, store: store), sort: sort, byCompany: false, company: company,
                    search: nil)
    }

    public func search(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?) async throws(RepositoryError)
        -> PeopleArrangement {
        // The org chart's terms become sets of people first (the chart read
        // at the first such search); a plain search goes straight on.
        let answered = query.asksOrgChart ? try await answeringOrgChartOffThePool(query) : query
        let stop = StopFlag()
        let result = await withTaskCancellationHandler {
            filter(answered, shownAs: query, in: arrangement, within: earlier) { stop.isSet }
        } onCancel: {
            stop.set()
        }
        guard let result else { throw .cancelled }
        return result
    }

    /// The search on the caller's thread; nil when `isCancelled` said so.
    /// (Tests and benchmarks run searches this way, without a task.) An
    /// org chart term matches nobody here unless `answeringOrgChart` answered it.
    public func searchNow(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?,
                          isCancelled: @Sendable () -> Bool = { false }) -> PeopleArrangement? {
        filter(query, shownAs: query, in: arrangement, within: earlier, isCancelled: isCancelled)
    }

    /// `query` with its org chart terms answered by this source's chart;
    /// why not, when it has none or a term names nobody (or several people).
    public func answeringOrgChart(_ query: SearchQuery) throws(RepositoryError) -> SearchQuery {
        guard query.asksOrgChart else { return query }
        guard let orgChart else { throw OrgChartForQueries.noChartError(sourceName) }
        return try orgChart.resolve(query)
    }

    /// `answeringOrgChart` on a lane of Dispatch's: the first one reads
    /// the file again, which blocks, and the cooperative pool's few threads
    /// are for work that never waits. One lane, so that the keystrokes
    /// typed while the file is read wait in its queue, not each on a
    /// thread of its own.
    private func answeringOrgChartOffThePool(_ query: SearchQuery) async throws(RepositoryError) -> SearchQuery {
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Result<SearchQuery, RepositoryError>, Never>) in
            Self.orgChartLane.async {
                continuation.resume(returning: Result { () throws(RepositoryError) in try self.answeringOrgChart(query) })
            }
        }
        return try answer.get()
    }

    private static let orgChartLane = DispatchQueue(label: "roster.org-chart-queries", qos: .userInitiated)

    /// `answered`'s matches, the arrangement naming `query` (the text, with
    /// the org chart's terms unanswered: a later search narrows it by them).
    private func filter(_ answered: SearchQuery, shownAs query: SearchQuery, in arrangement: PeopleArrangement,
                        within earlier: PeopleArrangement?, isCancelled: @Sendable () -> Bool) -> PeopleArrangement? {
        let everyone = handle(of: arrangement)
        let within = earlier.flatMap { earlier in
            earlier.query.flatMap { query.narrows($0) ? handle(of: earlier).search : nil }
        }
        guard let found = PeopleSearch.filter(everyone.grouped, store: store, query: answered, within: within,
                                              isCancelled: isCancelled) else { return nil }
        let result = SearchResult(query: query, grouped: found.grouped, matches: found.matches)
        return wrap(result.grouped, sort: arrangement.sort, byCompany: arrangement.byCompany, company: arrangement.company,
                    search: query.isEmpty ? nil : result)
    }

    public func reapply(_ filtered: PeopleArrangement, to arrangement: PeopleArrangement) -> PeopleArrangement {
        guard let search = handle(of: filtered).search else { return arrangement }
        let result = PeopleSearch.reapply(search, to: handle(of: arrangement).grouped, store: store)
        return wrap(result.grouped, sort: arrangement.sort, byCompany: arrangement.byCompany, company: arrangement.company,
                    search: result)
    }

    nonisolated(nonsending) public func rows(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [ListedPerson] {
        rowsAtOnce(in: arrangement, positions: positions)
    }

    public func personAtOnce(_ id: PersonID) -> Person? {
        guard id.rawValue >= 0, id.rawValue < store.count else { return nil }
        return store[id.rawValue]
    }

    public func rowsAtOnce(in arrangement: PeopleArrangement, positions: Range<Int>) -> [ListedPerson] {
        let order = handle(of: arrangement).grouped.order
        return positions.clamped(to: 0..<order.count).map { position in
            let person = Int(order[position])
            return ListedPerson(id: PersonID(person), position: position, companyID: store.companyID(of: person),
                                age: store.age(of: person), isActive: store.isActive(person)) { store.text($0, of: person) }
        }
    }

    nonisolated(nonsending) public func personIDs(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [PersonID] {
        let order = handle(of: arrangement).grouped.order
        return positions.clamped(to: 0..<order.count).map { PersonID(Int(order[$0])) }
    }

    nonisolated(nonsending) public func people(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [Person] {
        peopleAtOnce(in: arrangement, positions: positions)
    }

    public func peopleAtOnce(in arrangement: PeopleArrangement, positions: Range<Int>) -> [Person] {
        let order = handle(of: arrangement).grouped.order
        return positions.clamped(to: 0..<order.count).map { store[Int(order[$0])] }
    }

    nonisolated(nonsending) public func person(_ id: PersonID) async throws(RepositoryError)
        -> Person {
        guard id.rawValue >= 0, id.rawValue < store.count else { throw .notFound }
        return store[id.rawValue]
    }

    nonisolated(nonsending) public func position(of id: PersonID, in arrangement: PeopleArrangement) async throws(RepositoryError)
        -> Int? {
        guard id.rawValue >= 0, id.rawValue < store.count else { return nil }
        return handle(of: arrangement).grouped.order.firstIndex(of: UInt32(id.rawValue))
    }

    /// The first person whose record has `recordID`: the first few asks
    /// (the person a save lands on) by a pass over the `_id`s, a few
    /// milliseconds for a million, in no memory; then through an index of
    /// every `_id` (marks are found again by it after the file is read anew).
    nonisolated(nonsending) public func personID(recordID: String) async throws(RepositoryError)
        -> PersonID? {
        guard !recordID.isEmpty else { return nil }
        let index = recordIndex.withLock { state -> RecordIDIndex? in
            state.asked += 1
            if state.index == nil, state.asked > 4 { state.index = RecordIDIndex(store) }
            return state.index
        }
        guard let index else { return store.positions(withID: recordID, limit: 1).first.map(PersonID.init) }
        return index.position(of: recordID, in: store).map(PersonID.init)
    }

    /// Where the one record with `recordID` starts in the file read; nil
    /// when no record, or more than one, has it, or when a record was
    /// skipped (it might have it too).
    public func fileOffset(recordID: String) -> Int? {
        onlyPosition(recordID: recordID).map(store.fileOffset(of:))
    }

    /// The one person with `recordID`, under the same rule as `fileOffset(recordID:)`.
    private func onlyPosition(recordID: String) -> Int? {
        guard !recordID.isEmpty, skippedRecords.isEmpty else { return nil }
        return store.position(ofOnly: recordID)
    }

    /// This directory after a save rewrote the record of `recordID`, which
    /// started at `offset`, in place: `record` is its text as the file now
    /// holds it (a JSON object, or a JSON Lines line without its end),
    /// `shift` how much longer it got. Only that record is read; everyone
    /// else is shared (`PeopleStore.replacing`). Nil when the record is not
    /// the one found there, or does not read as one person with that `_id`:
    /// then the file is read whole.
    ///
    /// `keeping`: an arrangement of this directory, everyone by last name
    /// in companies, kept for the new one when the rewrite moved nobody in
    /// it (company and name as they were: the usual edit), or with the one
    /// person moved within their company when only the name changed,
    /// rather than everyone sorted again beside it.
    public func rewriting(recordID: String, record: [UInt8], format: InputFormat, offset: Int, shift: Int,
                          keeping order: PeopleArrangement? = nil)
        -> (directory: InMemoryPeopleRepository, kept: PeopleArrangement?)? {
        guard format != .csv, let position = onlyPosition(recordID: recordID), store.fileOffset(of: position) == offset else { return nil }
        let opening: [UInt8] = format == .json ? [UInt8(ascii: "[")] : []
        let alone = opening + record + (format == .json ? [UInt8(ascii: "]")] : [])
        guard let read = try? PeopleLoader(format: format).load(bytes: alone, sourceName: sourceName),
              read.skipped.isEmpty, read.store.count == 1, read.store.text(.id, of: 0) == recordID,
              let segment = read.store.segments.first else { return nil }
        let placed = PeopleStore(segments: [segment.window(0..<1, shiftingFileOffsetsBy: offset - read.store.fileOffset(of: 0))])
        guard let replaced = store.replacing(position, with: placed, shiftingLaterBy: shift) else { return nil }
        let directory = InMemoryPeopleRepository(store: replaced, skipped: skippedRecords, sourceName: sourceName, managers: managers)
        guard let order, order.sort == .byLastName, order.byCompany, order.company == nil, order.query == nil,
              let grouped = (order.handle as? Handle)?.grouped, grouped.order.count == store.count,
              store.withBytes(.company, of: position, { old in placed.withBytes(.company, of: 0) { $0.elementsEqual(old) } }) else {
            return (directory, nil)
        }
        if store.withNameKey(of: position, { old in placed.withNameKey(of: 0) { $0.elementsEqual(old) } }) {
            return (directory, directory.arrangement(of: grouped))
        }
        return (directory, grouped.moving(position, store: replaced).map { directory.arrangement(of: $0) })
    }

    nonisolated(nonsending) public func companySummaries(in arrangement: PeopleArrangement) async throws(RepositoryError)
        -> [CompanySummary] {
        CompanySummary.all(in: store, grouped: handle(of: arrangement).grouped)
    }

    nonisolated(nonsending) public func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) async throws(RepositoryError)
        -> [ValueSummary] {
        ValueSummary.all(of: field, in: store, grouped: handle(of: arrangement).grouped)
    }
}

/// Set once when a search's task is cancelled; read by the search's
/// threads, which have no task of their own to ask.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
