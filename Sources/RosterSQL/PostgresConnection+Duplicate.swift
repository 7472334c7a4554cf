import CLibpq
import Dispatch
import RosterCore

/// Second connections beside a browsing one (the change listener's, the
/// outbox's), and the deadline on the statements that set any new
/// connection up.
extension PostgresConnection {
    /// What a second connection to the same server, database and user
    /// needs, the same password among it (libpq's own parameters, never a
    /// string). Read at once, without the server: so a lane's session is
    /// held only for this, never while the second connection is made.
    public struct Parameters: Sendable {
        let pairs: [(String, String)]
    }

    /// This connection's parameters, for `init(duplicating:)`.
    public func parameters() throws(DatabaseError) -> Parameters {
        guard let options = PQconninfo(connection) else { throw DatabaseError(.cannotConnect, "PostgreSQL: out of memory while connecting") }
        defer { PQconninfoFree(options) }
        var pairs: [(String, String)] = []
        var option = options
        while let name = option.pointee.keyword {
            if let value = option.pointee.val { pairs.append((String(cString: name), String(cString: value))) }
            option += 1
        }
        return Parameters(pairs: pairs)
    }

    /// A second connection to the same server, database and user, with the
    /// same password: what a listener, or an outbox's sending, needs beside
    /// the browsing connection. Blocks (on the server) for up to its connect
    /// timeout and `setUpWithin`.
    public convenience init(duplicating parameters: Parameters) throws(DatabaseError) {
        try self.init(opened: try Self.connect(parameters.pairs, expandingDatabaseName: false))
    }

    /// How long the statements that set a new connection up may take
    /// before it is given up: a server frozen between the connect and
    /// them would keep them (no lane's deadline covers them) for ever.
    public static let setUpWithin: Duration = .seconds(10)

    /// Runs `body` (statements that set this connection up), giving the
    /// connection up (its socket shut: they fail as the connection lost)
    /// if it has not ended within `limit`.
    public func settingUp<T>(within limit: Duration = setUpWithin, _ body: (PostgresConnection) throws(DatabaseError) -> T)
        throws(DatabaseError) -> T {
        let isDone = Locked(false)
        let handle = cancelHandle
        DispatchQueue.global().asyncAfter(deadline: .now() + DispatchTimeInterval(limit)) {
            // Under the lock: once `body` is done the socket may be closed and its number reused.
            isDone.withLock { done in if !done { handle.abandonConnection() } }
        }
        defer { isDone.withLock { $0 = true } }
        return try body(self)
    }
}
