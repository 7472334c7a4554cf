import RosterCore

/// What the title says when a statement fails, in words a user acts on,
/// and the database's own words, kept for the `?` help.
extension SQLPeopleRepository {
    /// The title's reason while the server is away: the way back first.
    static let lostReason = "connection lost, r reconnects"

    /// Why a statement failed since opening, if one did: a caller that
    /// must not end quietly with less (`--list`, `--export`) checks it.
    ///
    /// A lost connection is the lanes' to say, as they are shared by every
    /// repository read over them: one that went down under another
    /// repository (the one a re-read replaced) counts, and a loss heard of
    /// here is over once they are connected again, whichever repository
    /// the reconnect went through (the watcher's is the first one read).
    public var failure: String? {
        if lanesDown { return Self.lostReason }
        return problem.withLock { $0.flatMap { $0.reason == Self.lostReason ? nil : $0.reason } }
    }

    private var lanesDown: Bool { browse.isConnectionDown || searching.isConnectionDown }

    /// What the database said last when a statement failed (masked of
    /// passwords, one line): the `?` help shows it, never the title.
    public var problemDetail: String? { detail.withLock { $0 } }

    /// A search or a read worked: a passing problem (a lock, a timeout) is
    /// over, and what the database said about it is no longer news.
    func statementWorked() {
        let cleared = problem.withLock { current in
            guard current?.lasting == false else { return false }
            current = nil
            return true
        }
        if cleared { detail.withLock { $0 = nil } }
    }

    public var hasPassingProblem: Bool { problem.withLock { $0?.lasting == false } }

    public func checkPassingProblem() -> Bool {
        do {
            _ = try browse.sync { session throws(DatabaseError) in
                try session.rows("SELECT 1 FROM \(table.table) LIMIT 1", [])
            }
        } catch {
            return false
        }
        statementWorked()
        return true
    }

    /// Remembers why a statement failed, for the title bar, and says it
    /// as the read's error.
    @discardableResult
    func report(_ error: any Error) -> RepositoryError {
        let reason = Self.reason(for: error)
        // What only a reconnect or a new import heals stays; the rest (a
        // lock, a timeout) is cleared by the next statement that works.
        let kind = (error as? DatabaseError)?.kind
        let lasting = kind.map { [DatabaseError.Kind.connectionLost, .cannotConnect, .staleSummary].contains($0) } ?? false
        let lanesDown = lanesDown
        let isNew = problem.withLock { current in
            // A loss is kept until it is over (a reconnect), and then is no longer news.
            guard current?.lasting != true || (current?.reason == Self.lostReason && !lanesDown) else { return false }
            current = (reason, lasting)
            return true
        }
        // The first failure says why; the fetches failing after it only repeat it.
        let said = DisplayText.sanitized((error as? DatabaseError)?.message ?? "\(error)")
        if isNew { detail.withLock { $0 = said } }
        return RepositoryError(Self.readKind(for: kind), reason: reason, detail: said)
    }

    /// The title's words for `error`.
    static func reason(for error: any Error) -> String {
        switch (error as? DatabaseError)?.kind {
        case .connectionLost?, .cannotConnect?: return lostReason
        case .timedOut?: return "query stopped after \(statementTimeout.components.seconds) s"
        case .busy?: return "database busy: another program is writing to it"
        case .staleSummary?: return "company summary out of date: roster import rebuilds it"
        default: return "a query failed, ? says why"
        }
    }

    /// What a failure of `kind` is to a screen.
    static func readKind(for kind: DatabaseError.Kind?) -> RepositoryError.Kind {
        switch kind {
        case .connectionLost?, .cannotConnect?: return .connectionLost
        case .timedOut?, .busy?: return .waiting
        case .cancelled?: return .cancelled
        default: return .unreadable
        }
    }
}
