import RosterCore

/// A list order (`SortOrder`) as SQL: the order the file source shows,
/// written so that every window is a keyset seek on one index.
///
/// The file source orders by the sort's key, then by name, then by file
/// position, which always ascends (ties keep file order, both ways). Here
/// that is a `prefix` of expressions compared as one row value, all in one
/// direction, then `position` ascending:
///
/// - last name: (last_key, first_key), ascending or descending;
/// - first name: (first_key, last_key), ascending or descending;
/// - balance, age, active: (the number or, when missing, the largest
///   integer, so missing values come last; negated for descending), then
///   the names, always ascending — so a descending order is an ascending
///   index on `-value`, not a backward scan, and names still ascend within
///   a value;
/// - a text column: (1 for a blank value, so blanks come last; the value
///   folded as search folds it, compared byte by byte; then the names),
///   ascending or descending, the blank flag turned round for descending.
///
/// A descending name order scans its index backwards; only the rare runs of
/// identical names then need sorting again by position (PostgreSQL's
/// incremental sort, SQLite's sort of the right part of the ORDER BY).
struct SQLOrder: Sendable, Equatable {
    /// Expressions compared together, in index order.
    let prefix: [String]
    /// The prefix descends (name orders only); `position` always ascends.
    let descending: Bool
    /// What the order's indexes are called after the table's name.
    let indexSuffix: String
    /// An index serves the order: windows seek by keyset. Without one (a
    /// text column, active) the arrangement is listed once as row ids.
    let isIndexed: Bool
    /// A text order's text (`coalesce(email, '')`, an address part),
    /// which `prefix` reads as `sortText` from a query that works it out
    /// once a row (`KeysetWindows.matchList`); nil for other orders.
    let text: String?
    static let sortText = "sort_text"

    /// Stands for a missing balance or age: the file source's `Int64.max`.
    static let missing = "9223372036854775807"

    init(_ sort: SortOrder, dialect: PeopleTable.Dialect) {
        switch sort.key {
        case .lastName:
            prefix = ["last_key", "first_key"]
            descending = sort.descending
            indexSuffix = "last"
            isIndexed = true
            text = nil
        case .firstName:
            prefix = ["first_key", "last_key"]
            descending = sort.descending
            indexSuffix = "first"
            isIndexed = true
            text = nil
        case .balance, .age, .active:
            let value: String
            switch sort.key {
            case .balance: value = "balance_cents"
            case .age: value = "age"
            // Yes (0) before no (1), as the file source.
            default: value = "(CASE WHEN is_active THEN 0 WHEN NOT is_active THEN 1 END)"
            }
            prefix = ["coalesce(\(sort.descending ? "-" : "")\(value), \(Self.missing))", "last_key", "first_key"]
            descending = false
            // (The names the indexes of databases already imported have.)
            indexSuffix = (sort.key == .balance ? "bal" : sort.key.rawValue) + (sort.descending ? "_d" : "")
            isIndexed = sort.key != .active
            text = nil
        default:
            // A text key (`SortOrder.Key.isText`). Blanks last both ways (1 ascending, 0 descending), then the
            // folded text compared byte by byte, then the names.
            let value = Self.sortText
            let blank = "(CASE WHEN \(value) = '' THEN \(sort.descending ? 0 : 1) ELSE \(sort.descending ? 1 : 0) END)"
            let bytewise = dialect == .postgres ? " COLLATE \"C\"" : ""
            prefix = [blank, "\(dialect.latinFolded(value))\(bytewise)", "last_key", "first_key"]
            descending = sort.descending
            indexSuffix = sort.key.rawValue
            isIndexed = false
            text = "coalesce(\(Self.column(of: sort.key, dialect)), '')"
        }
    }

    /// The column (or the part of the address) a text key reads.
    private static func column(of key: SortOrder.Key, _ dialect: PeopleTable.Dialect) -> String {
        if let field = key.recordField { return PeopleTable.column(of: field) }
        switch key {
        case .city: return dialect.addressPart(.city)
        case .state: return dialect.addressPart(.state)
        default: return dialect.addressPart(.zip)
        }
    }

    /// The orders that have an index each (a descending name order uses
    /// its ascending one backwards). The text orders and the activity have
    /// none: an index per column would double an import's time for orders
    /// seldom asked for; `KeysetWindows` lists such an arrangement once, in
    /// order, as row ids (one sort of the table, off the main actor).
    static let indexed: [SQLOrder] = [
        SortOrder(.lastName), SortOrder(.firstName), SortOrder(.balance), SortOrder(.balance, descending: true),
        SortOrder(.age), SortOrder(.age, descending: true),
    ].map { SQLOrder($0, dialect: .postgres) }

    /// `ORDER BY` for rows going forward (`reversed`: backward).
    func orderBy(grouped: Bool, reversed: Bool = false) -> String {
        let prefixDirection = descending != reversed ? " DESC" : ""
        let positionDirection = reversed ? " DESC" : ""
        return ((grouped ? ["company_key" + (reversed ? " DESC" : "")] : []) + prefix.map { $0 + prefixDirection }
            + ["position" + positionDirection]).joined(separator: ", ")
    }

    /// Rows after (`reversed`: before) the row whose prefix values and
    /// position are `key`, in this order. Written as a row comparison the
    /// index can seek to, and a test on `position` for identical prefixes.
    func keyset(after key: [SQLValue], reversed: Bool, into statement: inout SQLStatement) -> String {
        let forwardIsGreater = !descending
        let greater = forwardIsGreater != reversed
        let values = key.dropLast().map { statement.bind($0) }
        let position = statement.bind(key[key.count - 1])
        let row = "(\(prefix.joined(separator: ", ")))"
        let bound = "(\(values.joined(separator: ", ")))"
        return "\(row) \(greater ? ">=" : "<=") \(bound) AND (\(row) \(greater ? ">" : "<") \(bound) OR position \(reversed ? "<" : ">") \(position))"
    }
}

/// SQL text and the values bound to its placeholders, built together so
/// that a placeholder's number always matches its value.
struct SQLStatement {
    let dialect: PeopleTable.Dialect
    var values: [SQLValue] = []

    init(_ dialect: PeopleTable.Dialect) {
        self.dialect = dialect
    }

    /// Adds `value` and returns its placeholder (`$3`, `?3`).
    mutating func bind(_ value: SQLValue) -> String {
        values.append(value)
        return (dialect == .postgres ? "$" : "?") + String(values.count)
    }
}
