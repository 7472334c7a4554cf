/// A database failure in a few words a user acts on, for the title bar and
/// the status line: never the library's own text (which stays one key away,
/// in the `?` help, as `DatabaseError.message`).
public enum ConnectionTrouble {
    /// "no server answers", "unknown host"…: why the server cannot be
    /// reached (or refused), short enough for a 40-column status line.
    public static func words(for error: DatabaseError) -> String {
        switch error.kind {
        case .authentication: return "user or password refused"
        case .passwordRequired: return "the server asks for a password"
        case .unknownDatabase: return "no such database"
        case .missingTable: return "the table is gone"
        case .timedOut: return "no answer in time"
        case .busy: return "another program is writing to it"
        case .staleSummary: return "the company summary is out of date"
        case .cancelled, .failed, .invalidTarget, .cannotConnect, .connectionLost: break
        }
        let text = error.message.lowercased()
        let known: [([String], String)] = [
            (["no such file or directory", "connection refused"], "no server answers"),
            (["could not translate host name", "name or service not known", "temporary failure in name resolution"], "unknown host"),
            (["timeout expired", "timed out", "stopped answering"], "no answer in time"),
            (["shutting down", "starting up", "in recovery", "not yet accepting"], "the server is starting or stopping"),
            (["too many connections", "too many clients"], "the server is full"),
            (["server closed the connection", "terminating connection", "connection was lost"], "the server closed the connection"),
        ]
        return known.first { $0.0.contains(where: text.contains) }?.1 ?? "the server cannot be reached"
    }
}
