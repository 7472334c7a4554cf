import RosterCore

/// Why the directory did not do what was asked, in a person's words.
///
/// `message` is Roster's own sentence (what happened, to what, by whom),
/// never the library's or the server's text; that text, with the result
/// code, is kept in `detail` for a screen that shows more on request (`?`).
/// Neither ever holds a password.
public struct LDAPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached (refused, no route, no such host,
        /// TLS failed).
        case cannotConnect
        /// The bind was refused (wrong password, unknown DN, a mechanism
        /// the server does not take).
        case authentication
        /// Access control said no (result 50).
        case insufficientAccess
        /// The entry, or the search base, is not there (result 32).
        case noSuchObject
        /// The server stopped at its size limit (result 4): what came is
        /// not the whole answer.
        case sizeLimitExceeded
        /// The server stopped at its time limit (result 3).
        case timeLimitExceeded
        /// No answer within Roster's own deadline for the operation.
        case timedOut
        /// The entry changed since it was read: the Assertion control
        /// failed (result 122). A conflict, nothing was changed.
        case assertionFailed
        /// The server is too busy, or unwilling just now (51, 52, 53).
        case busy
        /// The server cannot do what was asked (a control or ordering it
        /// does not offer, 12, 18, 76).
        case unsupported
        /// The connection went away in the middle (server stopped or
        /// killed, network cut).
        case connectionLost
        /// A synchronisation cookie the server can no longer resume from
        /// (result 4096): read everything again.
        case refreshRequired
        /// Stopped on request (the task was cancelled; the operation was
        /// abandoned).
        case cancelled
        /// Anything else (a schema violation, an entry that exists).
        case other
    }

    public let kind: Kind
    /// One line in Roster's words, no trailing period.
    public let message: String
    /// The result code and the library's or server's own text, for `?`.
    public let detail: String
    /// The LDAP result code (negative: libldap's own, such as -1 for a
    /// server that went away), when there was one.
    public let resultCode: Int32?

    public init(_ kind: Kind, _ message: String, detail: String = "", resultCode: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.detail = SecretRedaction.redact(detail)
        self.resultCode = resultCode
    }

    public var description: String { message }

    /// True when trying again later may work (a busy server, a lost
    /// connection, a deadline passed).
    public var isTransient: Bool {
        [.busy, .connectionLost, .timedOut, .timeLimitExceeded, .cannotConnect].contains(kind)
    }

    static func cancelled() -> LDAPError { LDAPError(.cancelled, "cancelled") }

    static func lost(_ detail: String = "") -> LDAPError {
        LDAPError(.connectionLost, "the connection to the directory was lost", detail: detail, resultCode: -1)
    }
}
