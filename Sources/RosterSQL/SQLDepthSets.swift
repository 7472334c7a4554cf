import RosterCore

/// `depth>2` over a people table. The table keeps no depths (an edit of one
/// manager would move a whole team's), so the org chart answers it, read
/// once per repository as `T` reads it (`SQLOrgChartReading`: the same
/// resolution as a file's, loops and missing managers at the top), and
/// everyone's depth is kept in a temporary table, `roster_depths`, which a
/// depth term's condition reads. It is filled in one statement (the pairs
/// packed in one array parameter) on every connection the search's
/// statements run on (the counts, and the rows each frame reads), once per
/// repository: again after a reconnect (a temporary table goes with its
/// session), and by the repository a re-read makes (its own chart: a
/// manager may have moved). Every later depth term, each keystroke of
/// `depth>12`, costs no fill.
enum SQLDepthSets {
    /// The depths `comparison` asks for, in the range a chart has (0 and up).
    static func depths(_ comparison: NumberComparison) -> ClosedRange<Int64>? {
        let bounds = comparison.bounds
        let (lower, upper) = (max(0, bounds.lowerBound), min(bounds.upperBound, deepest))
        return lower <= upper ? lower...upper : nil
    }

    /// A row id and its depth packed in one integer: the depth in the low bits.
    static let depthBits: Int64 = 20
    static let deepest: Int64 = (1 << depthBits) - 1

    /// The temporary table's name, and its name qualified as the temporary one.
    static let name = "roster_depths"
    static func table(_ dialect: PeopleTable.Dialect) -> String {
        (dialect == .postgres ? "pg_temp." : "temp.") + name
    }

    /// Whether `query` has a depth term.
    static func asks(_ query: SearchQuery) -> Bool {
        query.terms.contains { if case .orgChart(.depth) = $0.test { true } else { false } }
    }

    /// The search's condition for a depth term (digits only: no value the
    /// user typed reaches the statement as text): a probe of the row's own
    /// depth by its row id, never a list of everyone at those depths (a
    /// window of rows reads a few; a list would be built whole per statement).
    static func condition(_ comparison: NumberComparison, _ people: PeopleTable) -> String {
        guard let depths = depths(comparison) else { return "1 = 0" }
        return "EXISTS (SELECT 1 FROM \(table(people.dialect)) AS d WHERE d.row_id = \(people.table).\(people.dialect.rowID) "
            + "AND d.depth BETWEEN \(depths.lowerBound) AND \(depths.upperBound))"
    }

    /// Everyone in `chart`, each a row id and depth packed (`depthBits`).
    static func packedDepths(in chart: OrgChart) -> [Int64] {
        let outline = chart.tree.outline
        var packed: [Int64] = []
        packed.reserveCapacity(outline.count)
        for position in 0..<outline.count {
            guard let person = outline.person(at: position) else { continue }
            let depth = min(Int64(outline.depth(at: position)), deepest)
            packed.append(Int64(chart.people.personID(of: person)) << depthBits | depth)
        }
        return packed.sorted()  // by row id: the table's key filled in order
    }

    /// Makes `roster_depths` hold exactly `packed` on `session`'s connection, in one statement.
    static func fill(with packed: [Int64], _ dialect: PeopleTable.Dialect, _ session: any PeopleDatabaseSession) throws(DatabaseError) {
        let qualified = table(dialect)
        _ = try session.rows("CREATE TEMPORARY TABLE IF NOT EXISTS \(Self.name) (row_id bigint PRIMARY KEY, depth integer NOT NULL)", [])
        _ = try session.rows("DELETE FROM \(qualified)", [])
        let numbers = packed.map(String.init).joined(separator: ",")
        let (sql, list) = switch dialect {
        case .postgres: ("INSERT INTO \(qualified) (row_id, depth) SELECT v >> \(depthBits), v & \(deepest) FROM unnest($1::bigint[]) AS v",
                         "{" + numbers + "}")
        case .sqlite: ("INSERT INTO \(qualified) (row_id, depth) SELECT value >> \(depthBits), value & \(deepest) FROM json_each(?1)",
                       "[" + numbers + "]")
        }
        _ = try session.rows(sql, [.text(list)])
    }
}

extension SQLPeopleRepository {
    /// Keeps everyone's depth where the search's statements will look
    /// (`SQLDepthSets`) when `query` asks a depth; throws why when the
    /// table has no chart (no manager column, nobody with a manager).
    func keepDepths(for query: SearchQuery) async throws(RepositoryError) {
        guard SQLDepthSets.asks(query) else { return }
        let lanes = [searching, browse].filter { !$0.holds(SQLDepthSets.name, filledBy: serial) }
        guard !lanes.isEmpty else { return }
        let chart = try await offCaller { () throws(RepositoryError) in try self.depthChart() }
        let (packed, dialect) = (SQLDepthSets.packedDepths(in: chart), table.dialect)
        for lane in lanes {
            do {
                try await lane.run { [serial] session throws(DatabaseError) in
                    try SQLDepthSets.fill(with: packed, dialect, session)
                    lane.noteFilled(SQLDepthSets.name, by: serial)
                }
            } catch let error as DatabaseError {
                throw report(error)
            } catch {
                throw .cancelled  // the lane's CancellationError: its task was cancelled
            }
        }
    }

    /// The chart depth terms are answered by: read the first time one asks,
    /// then kept (a failure to read it is not: asked again next time).
    func depthChart() throws(RepositoryError) -> OrgChart {
        try keptDepthChart.withLock { kept throws(RepositoryError) -> OrgChart in
            if let kept { return try kept.get() }
            switch SQLOrgChartReading(repository: self).readChart(orderKeys: nil) {
            case .loaded(let chart):
                kept = .success(chart)
                return chart
            case .noManagers(let why):
                kept = .failure(RepositoryError(.unreadable, reason: why))
                throw RepositoryError(.unreadable, reason: why)
            case .unavailable(let why):
                throw RepositoryError(.unreadable, reason: why)
            }
        }
    }
}
