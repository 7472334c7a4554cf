import RosterSQL

/// Opens the database `roster TARGET` names, ready to browse: connected
/// (asking for a password on the terminal if the server wants one) and its
/// tables checked, or one line saying why not. The SQL repositories take
/// the connection it returns; `OfflineFallback` decides what an
/// unreachable server leaves to show.
enum DatabaseOpener {
    static func postgres(_ conninfo: String, table: String, prompt: PasswordPrompt?) throws(DatabaseError) -> PostgresConnection {
        let connection = try PasswordPrompt.connect(conninfo, prompt: prompt)
        try PeopleTable(name: table, dialect: .postgres).verify(connection, target: DatabaseTarget.postgres(conninfo: conninfo).displayName)
        return connection
    }

    /// Read-only: browsing never writes the file.
    static func sqlite(_ path: String, table: String) throws(DatabaseError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, access: .readOnly)
        try PeopleTable(name: table, dialect: .sqlite).verify(connection, target: path)
        return connection
    }
}
