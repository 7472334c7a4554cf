import RosterCore

/// Why a database could not do what was asked, as one line a person can read.
///
/// Both libraries report in their own words; this keeps their text but
/// never its line breaks, tabs or doubled spaces (libpq ends messages with a
/// newline and adds `DETAIL:` lines), and sorts the failures a user can act
/// on into kinds, so that callers decide without matching text.
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached, or refused for a reason not below.
        case cannotConnect
        /// The server refused the password (or the user).
        case authentication
        /// The server asks for a password and none was given.
        case passwordRequired
        /// The server went away in the middle (killed, restarted, network).
        case connectionLost
        case unknownDatabase
        case missingTable
        /// Cancelled on request (`PQcancel`, `sqlite3_interrupt`).
        case cancelled
        /// Ran past the statement timeout.
        case timedOut
        /// Waited past the busy timeout on a lock another program holds
        /// (SQLite: a writer's transaction).
        case busy
        /// The company summary disagrees with the rows (the table was
        /// edited outside Roster): a window would misfile people.
        case staleSummary
        /// The target itself cannot be read (a malformed URI or connection
        /// string): a usage error, said in Roster's words.
        case invalidTarget
        /// Anything else: bad SQL, a constraint, a full disk, a broken file.
        case failed
    }

    public let kind: Kind
    /// One line, no trailing period, no newline, and never a password
    /// (`SecretRedaction`), whatever the library's text quoted.
    public let message: String
    /// PostgreSQL's five-character SQLSTATE, or SQLite's result code as text.
    public let code: String?

    public init(_ kind: Kind, _ message: String, code: String? = nil) {
        self.kind = kind
        self.message = SecretRedaction.redact(Self.oneLine(message))
        self.code = code
    }

    public var description: String { message }

    /// True when the statement gave up waiting on someone else (a lock
    /// another session holds, a server too busy to answer in time): the
    /// same statement may work if tried again later.
    public var isWaitingOnOthers: Bool { kind == .timedOut || kind == .busy }

    /// `text` on one line: lines joined with "; ", runs of blanks as one.
    static func oneLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: { $0.isNewline }).map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        }
        return lines.filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
