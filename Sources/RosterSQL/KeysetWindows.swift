import RosterCore
import Synchronization

/// Windows of an arrangement's rows by keyset, with the rows and keys
/// already fetched cached, for `SQLPeopleRepository`.
///
/// A display position is a section (a company, or the flat list's one) and
/// an offset within it (the summary gives every section's size). A window
/// starts from the cheapest anchor in its section:
///
/// - a cached row before it: `WHERE keys > anchor … LIMIT n` (scrolling
///   down, the next block continues from the last row of the one before);
/// - a cached row after it: `WHERE keys < anchor … DESC LIMIT n`, reversed
///   (scrolling up);
/// - the section's first or last row, when no cached row is nearer (a jump:
///   `G`, `]`, a position far away).
///
/// If the anchor is not right next to the window, the seek skips the rows
/// between with `OFFSET` — only ever within one company, from the nearest
/// known row, so a jump costs at most half a company's rows (the flat
/// list: half the table, the one case documented as slow). A window
/// running past its company's end continues in the next companies with
/// `company_key > …`, in one more query.
///
/// A search with few matches (`matchListLimit`) is listed once, in order,
/// as row ids (one query the trigram index serves); its windows are then
/// those ids' rows, so no query walks an ordered index through every row
/// looking for sparse matches, and a jump costs what a step does. So is
/// an arrangement in an order no index serves (`SQLOrder.isIndexed`).
final class KeysetWindows: Sendable {
    let table: PeopleTable
    /// Rows fetched and cached together.
    static let blockSize = 256
    static let maximumBlocks = 32
    static let maximumAnchors = 512
    static let matchListLimit = 50_000
    /// `matchListLimit`, lowered by tests to page searches by keyset.
    let listsMatchesUpTo = Atomic<Int>(KeysetWindows.matchListLimit)
    /// Match lists kept (the last few searches).
    static let maximumMatchLists = 4
    /// The most rows `people(in:)` fetches in one statement.
    static let peopleChunk = 4096

    private struct BlockKey: Hashable {
        let arrangement: Int
        let block: Int
    }

    /// A row whose place and keys are known: where a seek can start.
    private struct Anchor {
        let arrangement: Int
        let position: Int
        /// The order's prefix values, then `position`.
        let key: [SQLValue]
    }

    private struct Cache {
        var blocks: [BlockKey: [ListedPerson]] = [:]
        var blockOrder: [BlockKey] = []
        var anchors: [Anchor] = []
    }

    private let cache = Locked(Cache())
    /// Row ids of small searches in display order, by arrangement id.
    let matchLists = Locked<[(arrangement: Int, ids: [Int64])]>([])

    init(table: PeopleTable) {
        self.table = table
    }

    /// The condition for who an arrangement shows: its company, its search.
    func condition(scope: SQLPeopleRepository.Handle.Scope, query: SearchQuery?, companies: [CompanyTotals],
                   into statement: inout SQLStatement) -> String {
        var parts: [String] = []
        switch scope {
        case .everyone: break
        case .company(let id): parts.append("company_key = \(statement.bind(.bytes(companies[id].companyKey)))")
        case .nobody: parts.append("1 = 0")
        }
        if let query, !query.terms.isEmpty { parts.append(SQLSearchFilter(table: table).condition(query, into: &statement)) }
        return parts.isEmpty ? "1 = 1" : parts.joined(separator: " AND ")
    }

    // MARK: Rows

    /// A row's columns for the list: every text field (`TextField`'s
    /// order; one the list does not carry, as empty text), then the age
    /// and whether active.
    private static let listedColumns = (TextField.allCases.map { $0.isListed ? PeopleTable.column(of: $0) : "''" } + ["age", "is_active"])
        .joined(separator: ", ")
    private static let listedColumnCount = TextField.allCases.count + 2
    /// Where the age is in a fetched row: after the row id, the company key and the texts.
    private static let listedAgeColumn = 2 + TextField.allCases.count

    func listed(in arrangement: PeopleArrangement, handle: SQLPeopleRepository.Handle, positions: Range<Int>,
                repository: SQLPeopleRepository) throws(DatabaseError) -> [ListedPerson] {
        if positions.count > Self.blockSize {
            // A long run (--list): one fetch, not cached.
            return try listedRows(in: arrangement, handle: handle, start: positions.lowerBound, count: positions.count,
                                  repository: repository, isBulk: true)
        }
        var result: [ListedPerson] = []
        for block in (positions.lowerBound / Self.blockSize)...((positions.upperBound - 1) / Self.blockSize) {
            let key = BlockKey(arrangement: handle.id, block: block)
            var rows = cache.withLock { $0.blocks[key] }
            if rows == nil {
                let start = block * Self.blockSize
                let count = min(Self.blockSize, arrangement.count - start)
                let listed = try listedRows(in: arrangement, handle: handle, start: start, count: count, repository: repository)
                store(listed, as: key)
                rows = listed
            }
            result += (rows ?? []).filter { positions.contains($0.position) }
        }
        return result
    }

    private func listedRows(in arrangement: PeopleArrangement, handle: SQLPeopleRepository.Handle, start: Int, count: Int,
                            repository: SQLPeopleRepository, isBulk: Bool = false) throws(DatabaseError) -> [ListedPerson] {
        let fetched = try fetch(arrangement, handle: handle, start: start, count: count, payload: Self.listedColumns,
                                payloadCount: Self.listedColumnCount, repository: repository, isBulk: isBulk)
        let figures = Self.listedAgeColumn
        // A row without its id is no one's (the list says so at its place);
        // one whose company the summary does not know has no company id.
        return fetched.enumerated().compactMap { offset, row in
            row.int(0).map { id in
                ListedPerson(id: PersonID(Int(id)), position: start + offset,
                             companyID: row.bytes(1).flatMap(repository.companyID(key:)),
                             age: row.int(figures).map { Int($0) }, isActive: row.bool(figures + 1)) { row.text(2 + $0.rawValue) ?? "" }
            }
        }
    }

    func people(in arrangement: PeopleArrangement, handle: SQLPeopleRepository.Handle, positions: Range<Int>,
                repository: SQLPeopleRepository) throws(DatabaseError) -> [Person] {
        try identifiedPeople(in: arrangement, handle: handle, positions: positions, repository: repository).map(\.person)
    }

    /// The people at `positions` with their row ids, read by the same
    /// statements (an export pairs each with their manager by row id).
    func identifiedPeople(in arrangement: PeopleArrangement, handle: SQLPeopleRepository.Handle, positions: Range<Int>,
                          repository: SQLPeopleRepository) throws(DatabaseError) -> [(id: PersonID, person: Person)] {
        var people: [(id: PersonID, person: Person)] = []
        people.reserveCapacity(positions.count)
        var start = positions.lowerBound
        while start < positions.upperBound {
            let count = min(Self.peopleChunk, positions.upperBound - start)
            let rows = try fetch(arrangement, handle: handle, start: start, count: count, payload: SQLPeopleRepository.personColumns,
                                 payloadCount: SQLPeopleRepository.personColumnCount, repository: repository,
                                 isBulk: Self.isBulk(positions))
            people += rows.map { (id: PersonID(Int($0.int(0) ?? -1)), person: SQLPeopleRepository.person(from: $0, at: 2)) }
            guard rows.count == count else { break }
            start += count
        }
        return people
    }

    /// Whether reading `positions` is a bulk read (a search's matches listed
    /// once) or a window like the list's: the person's screen reads three
    /// people, and listing 83,095 matches first took it 1.9 s.
    static func isBulk(_ positions: Range<Int>) -> Bool { positions.count > blockSize }

    /// How many searches' matches are listed (tests).
    var matchListCount: Int { matchLists.withLock(\.count) }

    /// The row ids at `positions`, `peopleChunk` at a time: no column but
    /// the order's keys is read, so a database can answer from the order's
    /// index alone (`M` over a million people).
    func ids(in arrangement: PeopleArrangement, handle: SQLPeopleRepository.Handle, positions: Range<Int>,
             repository: SQLPeopleRepository) throws(DatabaseError) -> [PersonID] {
        var ids: [PersonID] = []
        ids.reserveCapacity(positions.count)
        var start = positions.lowerBound
        while start < positions.upperBound {
            let count = min(Self.peopleChunk, positions.upperBound - start)
            let rows = try fetch(arrangement, handle: handle, start: start, count: count, payload: "position", payloadCount: 1,
                                 repository: repository, isBulk: Self.isBulk(positions))
            ids += rows.map { PersonID(Int($0.int(0) ?? -1)) }
            guard rows.count == count else { break }
            start += count
        }
        return ids
    }

    /// Where person `id` sits: their keys, then how many come before them
    /// in their section.
    func position(of id: PersonID, in arrangement: PeopleArrangement, handle: SQLPeopleRepository.Handle,
                  repository: SQLPeopleRepository) throws(DatabaseError) -> Int? {
        if let ids = try matchList(arrangement, handle: handle, repository: repository) {
            return ids.firstIndex(of: Int64(id.rawValue))
        }
        let order = handle.order
        var statement = SQLStatement(table.dialect)
        let shown = condition(scope: handle.scope, query: handle.query, companies: repository.totals, into: &statement)
        let sql = """
        SELECT company_key, \(order.prefix.joined(separator: ", ")), position FROM \(table.table) \
        WHERE \(table.dialect.rowID) = \(statement.bind(.int(id.rawValue))) AND \(shown)
        """
        let found = try repository.browse.sync { session throws(DatabaseError) in try session.rows(sql, statement.values) }
        guard let row = found.first, let companyKey = row.bytes(0) else { return nil }
        let key = Array(row.values.dropFirst())
        let sectionIndex: Int?
        if handle.grouped {
            let company = repository.companyID(key: companyKey)
            sectionIndex = company.flatMap { company in arrangement.sections.firstIndex { $0.companyID == company } }
        } else {
            sectionIndex = arrangement.sections.isEmpty ? nil : 0
        }
        guard let sectionIndex else { return nil }
        var counting = SQLStatement(table.dialect)
        var conditions = [condition(scope: handle.scope, query: handle.query, companies: repository.totals, into: &counting)]
        if handle.grouped { conditions.append("company_key = \(counting.bind(.bytes(companyKey)))") }
        conditions.append(order.keyset(after: key, reversed: true, into: &counting))
        let countSQL = "SELECT count(*) FROM \(table.table) WHERE \(conditions.joined(separator: " AND "))"
        let before = try repository.browse.sync { session throws(DatabaseError) in try session.rows(countSQL, counting.values) }
        let position = arrangement.sections[sectionIndex].range.lowerBound + Int(before.first?.int(0) ?? 0)
        remember([Anchor(arrangement: handle.id, position: position, key: key)])
        return position
    }

    // MARK: Fetching

    /// `count` rows from display position `start`: columns row id, company
    /// key, the `payload` columns, then the order's key. `isBulk`: a read
    /// of everything shown, window after window (`--list`, an export).
    private func fetch(_ arrangement: PeopleArrangement, handle: SQLPeopleRepository.Handle, start: Int, count: Int,
                       payload: String, payloadCount: Int, repository: SQLPeopleRepository,
                       isBulk: Bool = false) throws(DatabaseError) -> [SQLRow] {
        guard count > 0, !arrangement.sections.isEmpty else { return [] }
        let sections = arrangement.sections
        let sectionIndex = sections.sectionIndex(containing: start)
        let section = sections[sectionIndex].range
        let plan = cheapestPlan(arrangement: handle.id, section: section, start: start, count: count)
        let order = handle.order
        let keyStart = 2 + payloadCount

        if let ids = try matchList(arrangement, handle: handle, repository: repository, isBulk: isBulk) {
            return try rows(ids: Array(ids[min(start, ids.count)..<min(start + count, ids.count)]), handle: handle, payload: payload,
                            repository: repository)
        }
        assert(order.isIndexed, "an order without an index is always listed")
        var statement = SQLStatement(table.dialect)
        let shown = condition(scope: handle.scope, query: handle.query, companies: repository.totals, into: &statement)
        let select = "SELECT \(table.dialect.rowID), company_key, \(payload), \(order.prefix.joined(separator: ", ")), position FROM \(table.table)"
        var conditions = [shown]
        let companyKey = handle.grouped ? sections[sectionIndex].companyID.map { repository.totals[$0].companyKey } : nil
        if let companyKey { conditions.append("company_key = \(statement.bind(.bytes(companyKey)))") }

        let reversed: Bool
        switch plan {
        case .forward(let anchor, let skip), .backward(let anchor, let skip):
            reversed = { if case .backward = plan { return true } else { return false } }()
            if let anchor { conditions.append(order.keyset(after: anchor.key, reversed: reversed, into: &statement)) }
            let limit = statement.bind(.int(Int64(count)))
            let offset = statement.bind(.int(Int64(skip)))
            let sql = "\(select) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order.orderBy(grouped: handle.grouped, reversed: reversed)) LIMIT \(limit) OFFSET \(offset)"
            var rows = try repository.browse.sync { session throws(DatabaseError) in try session.rows(sql, statement.values) }
            if reversed { rows.reverse() }
            // Past the company's end: the next companies, in one query.
            if !reversed, rows.count < count, let companyKey, sectionIndex + 1 < sections.count {
                var next = SQLStatement(table.dialect)
                let nextShown = condition(scope: handle.scope, query: handle.query, companies: repository.totals, into: &next)
                let nextSQL = """
                \(select) WHERE \(nextShown) AND company_key > \(next.bind(.bytes(companyKey))) \
                ORDER BY \(order.orderBy(grouped: true)) LIMIT \(next.bind(.int(Int64(count - rows.count))))
                """
                rows += try repository.browse.sync { session throws(DatabaseError) in try session.rows(nextSQL, next.values) }
            }
            try checkSections(of: rows, from: start, count: count, in: arrangement, grouped: handle.grouped, repository: repository)
            if let first = rows.first, let last = rows.last {
                remember([Anchor(arrangement: handle.id, position: start, key: Array(first.values[keyStart...])),
                          Anchor(arrangement: handle.id, position: start + rows.count - 1, key: Array(last.values[keyStart...]))])
            }
            return rows
        }
    }

    /// The summary says how many people each company has, and windows are
    /// cut by it: rows that do not fill their window, or belong to another
    /// company than the section they would be shown in, mean the summary
    /// is stale (the table was edited by hand). Never shown misfiled or
    /// twice: the window fails instead, and says why.
    private func checkSections(of rows: [SQLRow], from start: Int, count: Int, in arrangement: PeopleArrangement, grouped: Bool,
                               repository: SQLPeopleRepository) throws(DatabaseError) {
        let expected = min(count, arrangement.count - start)
        var misfiled = rows.count != expected
        if grouped, !misfiled {
            let sections = arrangement.sections
            var index = sections.sectionIndex(containing: start)
            for (offset, row) in rows.enumerated() {
                while !sections[index].range.contains(start + offset), index + 1 < sections.count { index += 1 }
                guard let companyID = sections[index].companyID, companyID < repository.totals.count,
                      row.bytes(1) == repository.totals[companyID].companyKey else {
                    misfiled = true
                    break
                }
            }
        }
        if misfiled {
            throw DatabaseError(.staleSummary, "the company summary disagrees with the table (edited outside Roster?); "
                                + "roster import of the directory rebuilds it")
        }
    }

    private enum Plan {
        /// From the anchor (nil: the section's first row), skipping `skip` rows.
        case forward(Anchor?, skip: Int)
        /// Back from the anchor (nil: the section's last row), skipping `skip` rows.
        case backward(Anchor?, skip: Int)

        var cost: Int {
            switch self {
            case .forward(_, let skip), .backward(_, let skip): return skip
            }
        }
    }

    /// The start that skips the fewest rows for `start..<start + count`.
    private func cheapestPlan(arrangement: Int, section: Range<Int>, start: Int, count: Int) -> Plan {
        let end = start + count
        let withinSection = end <= section.upperBound
        var best = Plan.forward(nil, skip: start - section.lowerBound)
        if withinSection, section.upperBound - end < best.cost { best = .backward(nil, skip: section.upperBound - end) }
        let anchors = cache.withLock { $0.anchors.filter { $0.arrangement == arrangement && section.contains($0.position) } }
        for anchor in anchors {
            if anchor.position < start, start - anchor.position - 1 < best.cost {
                best = .forward(anchor, skip: start - anchor.position - 1)
            } else if withinSection, anchor.position >= end, anchor.position - end < best.cost {
                best = .backward(anchor, skip: anchor.position - end)
            }
        }
        return best
    }

    /// The rows at `positions` of arrangement `handle` as last fetched,
    /// reading nothing; nil unless every one of them is cached.
    func cachedRows(of handle: SQLPeopleRepository.Handle, positions: Range<Int>) -> [ListedPerson]? {
        guard !positions.isEmpty else { return [] }
        let blocks = (positions.lowerBound / Self.blockSize)...((positions.upperBound - 1) / Self.blockSize)
        let rows = cache.withLock { cache in blocks.compactMap { cache.blocks[BlockKey(arrangement: handle.id, block: $0)] } }
        let wanted = rows.joined().filter { positions.contains($0.position) }
        return wanted.count == positions.count ? wanted : nil
    }

    /// Person `id`'s row as last fetched in any arrangement, reading nothing.
    func cachedRow(of id: PersonID) -> ListedPerson? {
        cache.withLock { cache in cache.blocks.values.lazy.compactMap { $0.first { $0.id == id } }.first }
    }

    private func store(_ rows: [ListedPerson], as key: BlockKey) {
        cache.withLock { cache in
            if cache.blocks[key] == nil { cache.blockOrder.append(key) }
            cache.blocks[key] = rows
            while cache.blockOrder.count > Self.maximumBlocks {
                cache.blocks[cache.blockOrder.removeFirst()] = nil
            }
        }
    }

    private func remember(_ anchors: [Anchor]) {
        cache.withLock { cache in
            cache.anchors += anchors
            if cache.anchors.count > Self.maximumAnchors { cache.anchors.removeFirst(cache.anchors.count - Self.maximumAnchors) }
        }
    }
}
