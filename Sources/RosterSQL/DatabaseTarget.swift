/// Where `roster import --into` (and later `roster TARGET`) points.
public enum DatabaseTarget: Sendable, Equatable {
    /// Any libpq connection string or URI.
    case postgres(conninfo: String)
    case sqlite(path: String)

    /// `postgres://…`, `postgresql://…` or `key=value …` is PostgreSQL;
    /// `sqlite:PATH`, or a path ending in `.db`, `.sqlite` or `.sqlite3`, is
    /// SQLite; anything else is nil (the caller says what it takes).
    public init?(_ text: String) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { return nil }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") || text.contains("=") {
            self = .postgres(conninfo: text)
        } else if [".db", ".sqlite", ".sqlite3"].contains(where: { text.hasSuffix($0) }) {
            self = .sqlite(path: text)
        } else {
            return nil
        }
    }

    /// How messages name the target: never with a password.
    public var displayName: String {
        switch self {
        case .postgres(let conninfo): return PostgresConnection.describe(conninfo)
        case .sqlite(let path): return path
        }
    }
}
