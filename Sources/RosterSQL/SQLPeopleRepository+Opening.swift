import RosterCore

/// Opening a table, in two steps: connecting, which may ask for a password
/// and so happens before the screen starts, and reading, which checks the
/// table's shape and reads its company summary and so may wait on a lock
/// another session holds: the app does it behind its loading screen.
extension SQLPeopleRepository {
    /// A table connected to but not read yet.
    public final class Connected: @unchecked Sendable {
        // Unchecked: the connections are used by one thread at a time
        // (`read()` is called once, then the repository's lanes own them).
        let table: PeopleTable
        let target: String
        let browse: any PeopleDatabaseSession & AnyObject
        let search: any PeopleDatabaseSession & AnyObject
        private let verify: () throws(DatabaseError) -> Void

        init(table: PeopleTable, target: String, browse: any PeopleDatabaseSession & AnyObject,
             search: any PeopleDatabaseSession & AnyObject, verify: @escaping () throws(DatabaseError) -> Void) {
            self.table = table
            self.target = target
            self.browse = browse
            self.search = search
            self.verify = verify
        }

        /// The target, without password.
        public var name: String { target }

        /// Checks the table's shape and reads its summary: the repository.
        /// May wait on a lock up to the statement timeout (PostgreSQL) or
        /// the busy timeout (SQLite), and may be called again after such a
        /// failure (`DatabaseError.isWaitingOnOthers`). `statementTimeout`
        /// ends the repository's statements (a test under a sanitizer gives
        /// slow ones longer).
        public func read(statementTimeout: Duration = SQLPeopleRepository.statementTimeout) throws(DatabaseError) -> SQLPeopleRepository {
            try verify()
            return try SQLPeopleRepository(table: table, target: target, browse: browse, search: search, statementTimeout: statementTimeout)
        }
    }

    /// Opens the table `name` of the PostgreSQL database `conninfo` (two
    /// connections: browsing, searching), after checking its shape
    /// (`PeopleTable.verify`). When the server wants a password,
    /// `askPassword` is asked once; the second connection reuses the answer.
    public static func open(postgres conninfo: String, table name: String = "people",
                            askPassword: ((String) throws(DatabaseError) -> String)? = nil) throws(DatabaseError) -> SQLPeopleRepository {
        try connect(postgres: conninfo, table: name, askPassword: askPassword).read()
    }

    /// Opens the table `name` of the SQLite file at `path`, read-only;
    /// a statement waits up to `busyTimeout` on another writer's lock.
    public static func open(sqlite path: String, table name: String = "people", busyTimeout: Duration = SQLiteConnection.defaultBusyTimeout,
                            statementTimeout: Duration = statementTimeout) throws(DatabaseError) -> SQLPeopleRepository {
        try connect(sqlite: path, table: name, busyTimeout: busyTimeout).read(statementTimeout: statementTimeout)
    }

    /// The two connections to the PostgreSQL database `conninfo`, with
    /// their statement timeout set; nothing read from the table yet.
    public static func connect(postgres conninfo: String, table name: String = "people",
                               askPassword: ((String) throws(DatabaseError) -> String)? = nil) throws(DatabaseError) -> Connected {
        let table = try PeopleTable(name: name, dialect: .postgres)
        var asking: ((String) throws(DatabaseError) -> String)?
        if let askPassword {
            let once = PasswordOnce(askPassword)
            asking = { prompt throws(DatabaseError) in try once.answer(prompt) }
        }
        let browse = try PostgresConnection(conninfo, askPassword: asking)
        let search = try PostgresConnection(conninfo, askPassword: asking)
        for connection in [browse, search] { try connection.setStatementTimeout(statementTimeout) }
        let target = PostgresConnection.describe(conninfo)
        return Connected(table: table, target: target, browse: browse, search: search) { () throws(DatabaseError) in
            try table.verify(browse, target: target)
        }
    }

    /// The two read-only connections to the SQLite file at `path` (which
    /// SQLite opens without reading it); each opens the file again when
    /// another program replaces it (`SQLiteFileSession`).
    public static func connect(sqlite path: String, table name: String = "people",
                               busyTimeout: Duration = SQLiteConnection.defaultBusyTimeout) throws(DatabaseError) -> Connected {
        let table = try PeopleTable(name: name, dialect: .sqlite)
        if let missing = missingFile(path) { throw missing }
        let open = { () throws(DatabaseError) -> SQLiteConnection in
            let connection = try SQLiteConnection(path: path, access: .readOnly, busyTimeout: busyTimeout)
            try SQLiteSearchFunctions.register(on: connection)
            return connection
        }
        let browse = try SQLiteFileSession(open)
        let search = try SQLiteFileSession(open)
        return Connected(table: table, target: path, browse: browse, search: search) { () throws(DatabaseError) in
            try table.verify(browse.connection, target: path)
        }
    }
}

/// Asks for a password the first time one is wanted and gives the same
/// answer after: two connections, one prompt.
private final class PasswordOnce {
    private let ask: (String) throws(DatabaseError) -> String
    private var typed: String?

    init(_ ask: @escaping (String) throws(DatabaseError) -> String) {
        self.ask = ask
    }

    func answer(_ prompt: String) throws(DatabaseError) -> String {
        if let typed { return typed }
        let password = try ask(prompt)
        typed = password
        return password
    }
}
