/// Why a read of a source failed, as the screens say it: short words for a
/// title or status line, the source's own words for `?`, and whether the
/// same read may work later with nothing done by the user.
///
/// A read that fails throws this; it never answers with something that
/// looks like data (an empty list, a blank person), so that "nobody" and
/// "could not be read" can never be mistaken for each other.
public struct RepositoryError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The connection to the server is gone; the app reconnects on its
        /// own, and `r` tries at once.
        case connectionLost
        /// Waited past a timeout or on a lock another program holds.
        case waiting
        /// The task that asked was cancelled.
        case cancelled
        /// Nobody has that id any more.
        case notFound
        /// The source cannot be read as it is (a summary out of date, a
        /// statement the server refuses): the user has to act.
        case unreadable
    }

    public let kind: Kind
    /// A few words for a title or status line: "connection lost".
    public let reason: String
    /// What the source said, word for word (one line, secrets masked), for
    /// the `?` help; nil when it said nothing more.
    public let detail: String?

    public init(_ kind: Kind, reason: String, detail: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.detail = detail
    }

    /// True when the same read may work later on its own: after the
    /// reconnect the app makes by itself, or once a lock is released.
    public var healsOnRetry: Bool { kind == .connectionLost || kind == .waiting }

    public var description: String { reason }

    /// Nobody with that id.
    public static let notFound = RepositoryError(.notFound, reason: "no such person")

    /// The task that asked was cancelled (a newer keystroke's search took over).
    public static let cancelled = RepositoryError(.cancelled, reason: "cancelled")
}

extension Result {
    /// The outcome of `body`, which may suspend.
    public init(awaiting body: () async throws(Failure) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }

    /// The error, when this is a failure.
    public var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
