import CLibpq

/// What libpq's failures mean for the user: each mapped to a kind the
/// screens act on (a lost connection reconnects; a timeout says so).
extension PostgresConnection {
    /// The connection's own error (it is broken, or refused to send).
    func connectionFailure() -> DatabaseError {
        let message = Self.lastMessage(connection)
        if PQstatus(connection) != CONNECTION_OK {
            return DatabaseError(.connectionLost, "PostgreSQL: the connection was lost (\(message))")
        }
        return DatabaseError(.failed, "PostgreSQL: " + message)
    }

    func error(_ result: OpaquePointer?) -> DatabaseError {
        if PQstatus(connection) != CONNECTION_OK { return connectionFailure() }
        let state = Self.field(result, "C")
        let message = Self.field(result, "M") ?? Self.lastMessage(connection)
        let kind: DatabaseError.Kind
        switch state {
        // No SQLSTATE: libpq's own error ("server closed the connection
        // unexpectedly", "no connection to the server"); class 08, and the
        // server shutting down or restarting (57P01-57P03): the connection
        // is gone, whatever PQstatus says yet. The same state as any loss:
        // banner, reconnect on its own, and `r`.
        case nil, "57P01", "57P02", "57P03": kind = .connectionLost
        case let code? where code.hasPrefix("08"): kind = .connectionLost
        // Both a cancel and a timeout are 57014; only the text tells them apart.
        case "57014": kind = message.contains("timeout") ? .timedOut : .cancelled
        case "42P01": kind = .missingTable
        case "3D000": kind = .unknownDatabase
        case "28P01", "28000": kind = .authentication
        default: kind = .failed
        }
        return DatabaseError(kind, "PostgreSQL: " + message, code: state)
    }

    static func field(_ result: OpaquePointer?, _ code: Unicode.Scalar) -> String? {
        PQresultErrorField(result, Int32(code.value)).map { String(cString: $0) }
    }

    static func lastMessage(_ connection: OpaquePointer) -> String {
        PQerrorMessage(connection).map { String(cString: $0) } ?? "unknown error"
    }

    /// libpq says `connection to server on socket "…" failed: FATAL:  …`;
    /// the part after `FATAL:` is what the user can act on.
    static func connectionError(_ connection: OpaquePointer) -> DatabaseError {
        let raw = DatabaseError.oneLine(lastMessage(connection))
        let reason = raw.firstRange(of: "FATAL: ").map { String(raw[$0.upperBound...]) } ?? raw
        if PQconnectionNeedsPassword(connection) == 1 {
            // "connection to server on socket "…" failed: fe_sendauth: no password supplied"
            let missing = raw.ranges(of: "failed: ").last.map { String(raw[$0.upperBound...]) } ?? reason
            return DatabaseError(.passwordRequired,
                                 "PostgreSQL: \(missing) (the server asks for a password: give it in ~/.pgpass, PGPASSWORD, "
                                 + "or run roster on a terminal to be asked)")
        }
        let kind: DatabaseError.Kind
        if reason.contains("password authentication failed") || reason.contains("authentication failed") {
            kind = .authentication
        } else if reason.hasPrefix("database "), reason.hasSuffix(" does not exist") {
            kind = .unknownDatabase
        } else {
            kind = .cannotConnect
        }
        return DatabaseError(kind, "PostgreSQL: " + reason)
    }
}
