import RosterCore
import RosterStore

/// The org chart of a people table: everyone's narrow columns read in runs
/// of rows on the search connection (`SQLManagerReferences`), then resolved
/// and built as a file's chart is. Called off the main actor.
public struct SQLOrgChartReading: OrgChartReading {
    let repository: SQLPeopleRepository

    public init(repository: SQLPeopleRepository) {
        self.repository = repository
    }

    /// The chart keeps the table's row order (`SQLManagerReferences`):
    /// the list's order would take every row's key first.
    public var takesOrderKeys: Bool { false }

    /// The person's screen asks the table for one person at a time.
    public var placeLookup: (any OrgPlaceLookup)? { SQLOrgPlaceLookup(repository: repository) }

    public func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        let references: SQLManagerReferences?
        do {
            references = try repository.managerReferences()
        } catch {
            return .unavailable("the managers could not be read: \(ConnectionTrouble.words(for: error))")
        }
        guard let references else {
            return .noManagers(SQLPeopleRepository.noManagerColumn(repository.table.name))
        }
        guard references.anyManager else { return .noManagers(FileOrgChart.noManagersMessage(repository.sourceName)) }
        let (resolution, _) = ManagerResolution.resolve(references)
        return .loaded(OrgChart(tree: OrgTree(resolution), people: references))
    }

    /// The table's manager column as it holds it, for an export to carry.
    public func readManagerReferences() -> ManagerReferencesLoad {
        do {
            guard let references = try repository.managerReferences(), references.anyManager else { return .none }
            return .loaded(references)
        } catch {
            return .unavailable("\(DisplayText.sanitized(repository.sourceName)): the managers could not be read: "
                                + ConnectionTrouble.words(for: error))
        }
    }
}

extension SQLPeopleRepository {
    /// How many rows one statement of the chart's reading takes: each is a
    /// short statement, so a search typed meanwhile waits little.
    static let managerReadRun = 50_000

    /// Everyone's identifiers and manager references, in row id order, each
    /// run of rows its own statement on the search connection; nil when the
    /// table has no manager column (made before it).
    public func managerReferences() throws(DatabaseError) -> SQLManagerReferences? {
        let hasColumn = try searching.sync { session throws(DatabaseError) in try table.hasManagerColumn(session.rows) }
        guard hasColumn else { return nil }
        return try SQLManagerReferences.read(table) { sql, parameters, body throws(DatabaseError) in
            try searching.sync { session throws(DatabaseError) in try session.forEachTextRow(sql, parameters, body) }
        }
    }
}

extension SQLManagerReferences {
    /// Everyone of a `table` that has the manager column, read in runs of
    /// rows by row id, each run one `query` (which hands over its rows).
    static func read(_ table: PeopleTable, run: Int = SQLPeopleRepository.managerReadRun,
                     _ query: (String, [SQLValue], (SQLColumnText) -> Void) throws(DatabaseError) -> Void)
        throws(DatabaseError) -> SQLManagerReferences {
        let rowID = table.dialect.rowID
        let columns = [TextField.id, .email, .firstName, .lastName].map { PeopleTable.column(of: $0) } + [PeopleTable.managerColumnName]
        let sql = """
            SELECT \(rowID), \(columns.joined(separator: ", ")) FROM \(table.table) \
            WHERE \(rowID) > \(table.dialect == .postgres ? "$1" : "?1") ORDER BY \(rowID) LIMIT \(run)
            """
        var builder = Builder()
        var after = Int64.min
        while true {
            var count = 0
            try query(sql, [.int(after)]) { row in
                after = Int64(builder.append(row))
                count += 1
            }
            guard count == run else { break }
        }
        return builder.references
    }
}
