import RosterCore

/// `roster query` over a table: the people a search matches who have an
/// email, in last-name order, in one statement over one connection. No
/// company summary is read and no second connection made, as browsing
/// needs: at a million people, those were most of the time a mail
/// client waited.
extension SQLPeopleRepository {
    /// The people of `table` in `target` matching `query` (everyone for an
    /// empty one) who have an email.
    public static func peopleWithEmail(_ target: DatabaseTarget, table name: String, matching query: SearchQuery) throws(DatabaseError) -> [Person] {
        switch target {
        case .postgres(let conninfo):
            let table = try PeopleTable(name: name, dialect: .postgres)
            let connection = try PostgresConnection(conninfo, askPassword: nil)
            try connection.setStatementTimeout(statementTimeout)
            try table.verify(connection, target: PostgresConnection.describe(conninfo))
            return try peopleWithEmail(matching: query, table: table, source: PostgresConnection.describe(conninfo), connection)
        case .sqlite(let path):
            let table = try PeopleTable(name: name, dialect: .sqlite)
            if let missing = missingFile(path) { throw missing }
            let connection = try SQLiteConnection(path: path, access: .readOnly, busyTimeout: SQLiteConnection.defaultBusyTimeout)
            try SQLiteSearchFunctions.register(on: connection)
            try table.verify(connection, target: path)
            return try peopleWithEmail(matching: query, table: table, source: path, connection)
        }
    }

    /// The fields a mail client's line shows: a person read with these alone.
    static let addressFields: [TextField] = [.email, .firstName, .lastName, .company]

    /// The matches found first (by the search's own indexes), then ordered
    /// as the file source orders the flat list by last name; of each, only
    /// `addressFields` are read (the rest of a person is most of a row).
    /// `source` names the database in a refusal of an org chart term.
    static func peopleWithEmail(matching query: SearchQuery, table: PeopleTable, source: String,
                                _ session: some PeopleDatabaseSession) throws(DatabaseError) -> [Person] {
        if query.asksOrgChart, let unanswered = try SQLOrgTerms(table: table).unanswered(query, sourceName: source, session.rows) {
            // The whole line is the reason, said as Roster words it.
            throw DatabaseError(.invalidTarget, unanswered)
        }
        if SQLDepthSets.asks(query) {
            // A depth is answered by the whole chart, which a mail client's quick lookup does not read.
            throw DatabaseError(.invalidTarget, "\(DisplayText.sanitized(source)) is a database: roster query does not answer depth "
                                + "(the screen and --list do)")
        }
        var statement = SQLStatement(table.dialect)
        let condition = query.terms.isEmpty ? "1 = 1" : SQLSearchFilter(table: table).condition(query, into: &statement)
        let columns = addressFields.map(PeopleTable.column(of:)).joined(separator: ", ")
        let sql = """
            WITH matches AS MATERIALIZED (SELECT \(columns), last_key, first_key, position FROM \(table.table) \
            WHERE \(PeopleTable.column(of: .email)) <> '' AND \(condition)) \
            SELECT \(columns) FROM matches ORDER BY last_key, first_key, position
            """
        return try session.rows(sql, statement.values).map { row in
            Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { field in
                addressFields.firstIndex(of: field).flatMap { row.text($0) } ?? ""
            }
        }
    }
}
