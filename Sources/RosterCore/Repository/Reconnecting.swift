/// A repository over a connection that can break (a database server):
/// `r` in the list asks it to connect again.
///
/// A source read whole (a file) is not one: there is nothing to reconnect.
public protocol Reconnecting: AnyObject {
    /// Opens the connection(s) again and clears the problem the title
    /// showed; throws why not, the rows cached so far kept either way.
    func reconnect() throws(ReconnectFailure)
}

/// Why reconnecting did not work, naming the target (without secrets).
public struct ReconnectFailure: Error, Equatable, Sendable {
    public let target: String
    public let reason: String

    public init(target: String, reason: String) {
        self.target = target
        self.reason = reason
    }

    /// The status bar's line.
    public var message: String { "still cannot reach \(target): \(reason)" }
}
