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
/// - balance, age: (the number or, when missing, the largest integer, so
///   missing values come last; negated for descending), then the names,
///   always ascending — so a descending order is an ascending index on
///   `-value`, not a backward scan, and names still ascend within a value.
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

    /// Stands for a missing balance or age: the file source's `Int64.max`.
    static let missing = "9223372036854775807"

    init(_ sort: SortOrder) {
        switch sort.key {
        case .lastName:
            prefix = ["last_key", "first_key"]
            descending = sort.descending
            indexSuffix = "last"
        case .firstName:
            prefix = ["first_key", "last_key"]
            descending = sort.descending
            indexSuffix = "first"
        case .balance, .age:
            let column = sort.key == .balance ? "balance_cents" : "age"
            prefix = ["coalesce(\(sort.descending ? "-" : "")\(column), \(Self.missing))", "last_key", "first_key"]
            descending = false
            indexSuffix = (sort.key == .balance ? "bal" : "age") + (sort.descending ? "_d" : "")
        }
    }

    /// The orders that need an index each (a descending name order uses its
    /// ascending one backwards).
    static let indexed: [SQLOrder] = [
        SQLOrder(.byLastName), SQLOrder(SortOrder(.firstName)),
        SQLOrder(SortOrder(.balance)), SQLOrder(SortOrder(.balance, descending: true)),
        SQLOrder(SortOrder(.age)), SQLOrder(SortOrder(.age, descending: true)),
    ]

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
