import RosterCore
import RosterStore
import Synchronization
import Dispatch

/// The people of a table `roster import` made, in PostgreSQL or SQLite:
/// `PeopleRepository` answered with SQL, the data staying where it is.
///
/// - Companies, counts and sections come from the summary table, read once
///   at opening; arranging everyone queries nothing.
/// - A window of rows is a keyset seek (`SQLOrder`) from a nearby row
///   whose keys are cached (`KeysetWindows`), never an `OFFSET` over the
///   table. Rows are fetched and cached in blocks, so scrolling and redraws
///   mostly query nothing.
/// - A search counts its matches per company (one query over the trigram
///   index, on its own connection and thread, cancelled with its task);
///   its windows are then keyset seeks with the search's condition.
/// - Two connections: one for windows, details and summaries (a
///   millisecond or two each, run one after another on the repository's
///   own thread while the caller's task waits), one for searches.
///
/// When a statement fails (the server went away, a timeout), the read
/// throws, windows already cached still answer, and the repository says
/// so in `sourceName`, which the title bar shows: "connection lost, r
/// reconnects — postgres://…". Nothing crashes and nothing waits past the
/// statement timeout. `reconnect()` (the list's `r`) connects again.
public final class SQLPeopleRepository: PeopleRepository, Reconnecting {
    let table: PeopleTable
    /// The target, without password.
    let target: String
    /// Where the change log stood when the table was read (nil: it has no
    /// log): another process's change after it was not in the read.
    let changeLogPosition: ChangeLog.Position?
    public let personCount: Int
    public let companies: [Company]
    /// Per company id, the summary row (keys as stored: 0xFF for none).
    let totals: [CompanyTotals]
    let browse: DatabaseLane
    let searching: DatabaseLane
    let windows: KeysetWindows
    /// What went wrong last, for the title; `lasting` unless a later
    /// search that works clears it (a timeout, not a lost connection).
    let problem = Locked<(reason: String, lasting: Bool)?>(nil)
    let detail = Locked<String?>(nil)
    private let arrangementCounter = Atomic<Int>(0)
    // Kept by the repository a re-read makes (`reread`):
    /// Where the people the last delete took out were, for an undo.
    let removedPlaces: Locked<[String: PeopleEditor.Place]>
    /// SQLite: the connection saves go through (the change watch asks it what others wrote).
    let writer: SQLiteWriter?
    /// Whole people as last seen, read while the connection is lost (`keepLastSeen`).
    let lastSeen: Locked<(any LastSeenPeople)?>
    /// The chart depth terms are answered by, once read (`SQLDepthSets`).
    let keptDepthChart = Locked<Result<OrgChart, RepositoryError>?>(nil)
    /// This repository among those made in this process (whose temporary tables a lane holds).
    let serial = SQLPeopleRepository.made.add(1, ordering: .relaxed).newValue
    private static let made = Atomic<Int>(0)

    /// How long any statement may run before it is stopped.
    public static let statementTimeout: Duration = .seconds(10)

    convenience init(table: PeopleTable, target: String, browse: any PeopleDatabaseSession & AnyObject,
                     search: any PeopleDatabaseSession & AnyObject, statementTimeout: Duration = statementTimeout) throws(DatabaseError) {
        try self.init(table: table, target: target, lanes: (DatabaseLane(browse, label: "browse", timeout: statementTimeout),
                                                             DatabaseLane(search, label: "search", timeout: statementTimeout)))
    }

    /// Reads the table's summary through `lanes` (browsing, searching),
    /// which the repository then reads through.
    init(table: PeopleTable, target: String, lanes: (browse: DatabaseLane, search: DatabaseLane),
         removedPlaces: Locked<[String: PeopleEditor.Place]> = Locked([:]), writer: SQLiteWriter? = nil,
         lastSeen: Locked<(any LastSeenPeople)?> = Locked(nil)) throws(DatabaseError) {
        self.table = table
        self.target = target
        self.removedPlaces = removedPlaces
        self.writer = table.dialect == .sqlite ? writer ?? SQLiteWriter(path: target) : nil
        self.lastSeen = lastSeen
        // In key order from the server (both compare the keys byte by byte,
        // as `lexicographicallyPrecedes` does): no sort of 70,000 keys here.
        let (rows, logged) = try lanes.browse.sync { browse throws(DatabaseError) in
            // The log's place first: a save between the two reads is then caught up with (twice at worst, never missed).
            let logged = ChangeLog.position(of: table, browse)
            let rows = try browse.rows(
                "SELECT \(table.summaryColumns.joined(separator: ", ")) FROM \(table.summaryTable) ORDER BY company_key", [])
            // Reading no row also checks that the people table has what is read.
            _ = try browse.rows("SELECT \(table.dialect.rowID), \(Self.personColumns) FROM \(table.table) WHERE 1 = 0", [])
            return (rows, logged)
        }
        changeLogPosition = logged
        var totals: [CompanyTotals] = []
        totals.reserveCapacity(rows.count)
        for row in rows {
            guard let company = CompanyTotals(summaryRow: row) else {
                throw DatabaseError(.failed, "the summary table \(table.name)_companies holds a row that cannot be read")
            }
            totals.append(company)
        }
        if let what = SummaryFigures.problem(in: totals) { throw table.error(.implausibleSummary(what), target: target) }
        self.totals = totals
        companies = totals.map { company in
            let none = company.companyKey == ImportRows.noCompanyKey
            return Company(name: none ? "" : company.spelling, key: none ? [] : company.companyKey, headcount: Int(company.headcount))
        }
        personCount = Int(totals.reduce(0) { $0 + $1.headcount })
        browse = lanes.browse
        searching = lanes.search
        windows = KeysetWindows(table: table)
    }

    // MARK: PeopleRepository

    public var readFailure: String? { failure }

    public var isLocal: Bool { table.dialect == .sqlite }

    public var isConnectionLost: Bool { failure == Self.lostReason }

    /// The target alone: what went wrong is `readFailure`, which the
    /// screens put before it in their titles (`titleName`).
    public var sourceName: String { target }

    /// Stops whatever the connections are running (`PQcancel`,
    /// `sqlite3_interrupt`): Roster is quitting. Waits for no statement,
    /// only for the requests to be sent, `patience` at most (a server that
    /// stopped answering keeps a cancel waiting).
    /// `closing`: and runs nothing more on them (the last thing Roster does).
    public func stopStatements(closing: Bool = false, patience: Duration = .milliseconds(100)) {
        let sent = DispatchGroup()
        for lane in [browse, searching] {
            if closing { lane.close(sent: sent) } else { lane.interruptRunning(sent: sent) }
        }
        _ = sent.wait(timeout: .now() + DispatchTimeInterval(patience))
    }

    /// Connects both connections again (`PQreset`: same parameters and
    /// password) and clears the problem the title showed. The cached rows
    /// stay: the rows not fetched were never cached, so they are fetched
    /// on the next draw.
    public func reconnect() throws(ReconnectFailure) {
        do throws(DatabaseError) {
            for lane in [browse, searching] {
                try lane.reconnect(statementTimeout: Self.statementTimeout)
            }
        } catch {
            // The title says so too, even if no statement had failed yet.
            report(DatabaseError(.connectionLost, error.message))
            detail.withLock { $0 = DisplayText.sanitized(error.message) }
            throw ReconnectFailure(target: target, reason: ConnectionTrouble.words(for: error),
                                   detail: DisplayText.sanitized(error.message))
        }
        problem.withLock { $0 = nil }
    }

    /// A database has no unreadable records: `roster import` reported them.
    public var skippedRecords: [SkippedRecord] { [] }

    /// What an arrangement made here holds.
    struct Handle: Sendable {
        let id: Int
        let order: SQLOrder
        let grouped: Bool
        /// Only this company's people (a company's own list, or a search's).
        let scope: Scope
        let query: SearchQuery?
        /// A search's matches per company id (nil: no search).
        let matches: [Int: Int]?

        enum Scope: Sendable, Equatable {
            case everyone
            case company(Int)
            /// Two different companies' scopes laid over each other.
            case nobody
        }
    }

    func handle(of arrangement: PeopleArrangement) -> Handle {
        guard let handle = arrangement.handle as? Handle else {
            preconditionFailure("an arrangement made by another repository")
        }
        return handle
    }

    public func arrange(sort: SortOrder, byCompany: Bool, company: Int?) -> PeopleArrangement {
        let scope: Handle.Scope = company.map { .company($0) } ?? .everyone
        // No statement here: arranging is what screens do on the main actor
        // (a company opened from the overview). An order no index serves is
        // sorted once, by the first window read (in the background), so
        // that its later windows are lookups.
        return make(sort: sort, byCompany: byCompany, scope: scope, query: nil, shown: { self.companies[$0].headcount }, matches: nil)
    }

    /// An arrangement of the people counted in `counts` (per company id),
    /// restricted to `scope`, with sections as the file source makes them.
    private func make(sort: SortOrder, byCompany: Bool, scope: Handle.Scope, query: SearchQuery?, counts: [Int: Int])
        -> PeopleArrangement {
        make(sort: sort, byCompany: byCompany, scope: scope, query: query, shown: { counts[$0] ?? 0 }, matches: counts)
    }

    /// The same with `shown(id)` people of each company: everyone's
    /// headcounts are read straight from `companies`, with no dictionary
    /// of 70,000 companies built before a first frame.
    private func make(sort: SortOrder, byCompany: Bool, scope: Handle.Scope, query: SearchQuery?,
                      shown shownOf: (Int) -> Int, matches: [Int: Int]?) -> PeopleArrangement {
        let inScope = companies.indices.filter { id in
            switch scope {
            case .everyone: return true
            case .company(let only): return id == only
            case .nobody: return false
            }
        }
        var sections: [CompanySection] = []
        var count = 0
        if byCompany {
            sections.reserveCapacity(inScope.count)
            for id in inScope {
                let shown = shownOf(id)
                guard shown > 0 else { continue }
                sections.append(CompanySection(title: title(of: id), companyID: id, range: count..<(count + shown),
                                               total: companies[id].headcount))
                count += shown
            }
        } else {
            count = inScope.reduce(0) { $0 + shownOf($1) }
            // As the file source: the flat list's one section has everyone as its total.
            if count > 0 {
                sections = [CompanySection.everyone(0..<count, total: personCount)]
            }
        }
        let handle = Handle(id: arrangementCounter.add(1, ordering: .relaxed).newValue, order: SQLOrder(sort, dialect: table.dialect), grouped: byCompany,
                            scope: scope, query: query, matches: query == nil ? nil : matches)
        return PeopleArrangement(sort: sort, byCompany: byCompany, company: scope.company, query: query, sections: sections,
                                 count: count, handle: handle)
    }

    func title(of id: Int) -> String {
        companies[id].key.isEmpty ? GroupedPeople.noCompanyTitle : companies[id].name
    }

    public func search(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?) async throws(RepositoryError)
        -> PeopleArrangement {
        if Task.isCancelled { throw .cancelled }
        if query.asksOrgChart {
            try await checkOrgTerms(query)
            try await keepDepths(for: query)
        }
        let everyone = handle(of: arrangement)
        guard !query.isEmpty else { return arrangement }
        var counts = Dictionary(uniqueKeysWithValues: companies.indices.map { ($0, companies[$0].headcount) })
        if !query.terms.isEmpty {
            var statement = SQLStatement(table.dialect)
            let condition = windows.condition(scope: everyone.scope, query: query, companies: totals, into: &statement)
            // Materialised, so the planner finds the matches by the trigram
            // index rather than walking an ordered index through every row.
            let sql = """
            WITH matches AS MATERIALIZED (SELECT company_key FROM \(table.table) WHERE \(condition)) \
            SELECT company_key, count(*) FROM matches GROUP BY company_key
            """
            let rows: [SQLRow]
            do {
                rows = try await searching.run { [statement] session throws(DatabaseError) in
                    try session.rows(sql, statement.values)
                }
            } catch let error as DatabaseError {
                // The list keeps what it showed; the title says why, and
                // the search's failure in the same words (never libpq's).
                throw report(error)
            } catch {
                throw .cancelled  // the lane's CancellationError: its task was cancelled
            }
            statementWorked()
            counts = [:]
            for row in rows {
                if let key = row.bytes(0), let id = companyID(key: key) { counts[id] = Int(row.int(1) ?? 0) }
            }
        }
        return make(sort: arrangement.sort, byCompany: arrangement.byCompany, scope: everyone.scope, query: query, counts: counts)
    }

    public func reapply(_ filtered: PeopleArrangement, to arrangement: PeopleArrangement) -> PeopleArrangement {
        let found = handle(of: filtered)
        guard let query = found.query, let matches = found.matches else { return arrangement }
        let target = handle(of: arrangement)
        let scope: Handle.Scope
        switch (found.scope, target.scope) {
        case (.everyone, let other), (let other, .everyone): scope = other
        case (.company(let a), .company(let b)) where a == b: scope = .company(a)
        default: scope = .nobody
        }
        return make(sort: arrangement.sort, byCompany: arrangement.byCompany, scope: scope, query: query, counts: matches)
    }

    public func rows(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [ListedPerson] {
        try await offCaller { () throws(RepositoryError) in
            let wanted = positions.clamped(to: 0..<arrangement.count)
            guard !wanted.isEmpty else { return [] }
            do {
                let rows = try self.windows.listed(in: arrangement, handle: self.handle(of: arrangement), positions: wanted, repository: self)
                self.statementWorked()
                return rows
            } catch {
                throw self.report(error)
            }
        }
    }

    public func people(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [Person] {
        do {
            return try await offCaller { () throws(RepositoryError) in try self.peopleNow(in: arrangement, positions: positions) }
        } catch {
            return try await lastSeenPeople(instead: error, of: windows.cachedRows(of: handle(of: arrangement), positions: positions))
        }
    }

    private func peopleNow(in arrangement: PeopleArrangement, positions: Range<Int>) throws(RepositoryError) -> [Person] {
        let wanted = positions.clamped(to: 0..<arrangement.count)
        guard !wanted.isEmpty else { return [] }
        do {
            let people = try windows.people(in: arrangement, handle: handle(of: arrangement), positions: wanted, repository: self)
            statementWorked()
            return people
        } catch {
            throw report(error)
        }
    }

    public func personIDs(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [PersonID] {
        try await offCaller { () throws(RepositoryError) in try self.personIDsNow(in: arrangement, positions: positions) }
    }

    private func personIDsNow(in arrangement: PeopleArrangement, positions: Range<Int>) throws(RepositoryError) -> [PersonID] {
        let wanted = positions.clamped(to: 0..<arrangement.count)
        guard !wanted.isEmpty else { return [] }
        do {
            let ids = try windows.ids(in: arrangement, handle: handle(of: arrangement), positions: wanted, repository: self)
            statementWorked()
            return ids
        } catch {
            throw report(error)
        }
    }

    public func person(_ id: PersonID) async throws(RepositoryError) -> Person {
        do {
            return try await offCaller { () throws(RepositoryError) in try self.personNow(id) }
        } catch {
            guard let seen = try await lastSeenPeople(instead: error, of: windows.cachedRow(of: id).map { [$0] }).first else { throw error }
            return seen
        }
    }

    private func personNow(_ id: PersonID) throws(RepositoryError) -> Person {
        let rows: [SQLRow]
        do {
            rows = try browse.sync { session throws(DatabaseError) in
                try session.rows("SELECT \(Self.personColumns) FROM \(table.table) WHERE \(table.dialect.rowID) = \(table.dialect == .postgres ? "$1" : "?1")",
                                 [.int(id.rawValue)])
            }
        } catch {
            throw report(error)
        }
        guard let row = rows.first else { throw .notFound }
        return Self.person(from: row, at: 0)
    }

    public func position(of id: PersonID, in arrangement: PeopleArrangement) async throws(RepositoryError) -> Int? {
        try await offCaller { () throws(RepositoryError) in try self.positionNow(of: id, in: arrangement) }
    }

    private func positionNow(of id: PersonID, in arrangement: PeopleArrangement) throws(RepositoryError) -> Int? {
        do {
            return try windows.position(of: id, in: arrangement, handle: handle(of: arrangement), repository: self)
        } catch {
            throw report(error)
        }
    }

    public func personID(recordID: String) async throws(RepositoryError) -> PersonID? {
        try await offCaller { () throws(RepositoryError) in try self.personIDNow(recordID: recordID) }
    }

    private func personIDNow(recordID: String) throws(RepositoryError) -> PersonID? {
        guard !recordID.isEmpty else { return nil }
        do {
            let rows = try browse.sync { session throws(DatabaseError) in
                try session.rows("SELECT \(table.dialect.rowID) FROM \(table.table) WHERE person_key = \(table.dialect == .postgres ? "$1" : "?1")",
                                 [.text(recordID)])
            }
            return rows.first?.int(0).map { PersonID(Int($0)) }
        } catch {
            throw report(error)
        }
    }
}

extension SQLPeopleRepository.Handle.Scope {
    var company: Int? {
        if case .company(let id) = self { return id }
        return nil
    }
}
