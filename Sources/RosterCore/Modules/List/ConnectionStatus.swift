/// How the list's source stands with its server, for the status bar's
/// `r reconnect` and the `?` help's last problem: nil for a source read
/// whole (a file) or a local database file.
public struct ConnectionStatus: Equatable, Sendable {
    /// The server went away: `r` is the way back.
    public var isLost: Bool
    /// What the server or library said last, word for word (no password).
    public var detail: String?

    public init(isLost: Bool, detail: String? = nil) {
        self.isLost = isLost
        self.detail = detail
    }

    /// A local file has nothing to reconnect, but what it said last (a
    /// lock held by another program) is still one key away.
    public init?(_ repository: any PeopleRepository) {
        guard let connection = repository.connection else { return nil }
        let detail = connection.problemDetail
        guard !connection.isLocal || detail != nil else { return nil }
        self.init(isLost: !connection.isLocal && connection.isConnectionLost, detail: detail)
    }

    /// What `r` says over a source with nothing to reconnect.
    public static let nothingToReconnect = "nothing to reconnect: a local file"

    /// What `r` says over a database file: it reads what the screen shows again.
    public static let readAgain = "read again (a local file: nothing to reconnect)"
}
