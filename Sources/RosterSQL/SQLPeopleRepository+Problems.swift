import RosterCore

/// What the title says when a statement fails, in words a user acts on,
/// and the database's own words, kept for the `?` help.
extension SQLPeopleRepository {
    /// The title's reason while the server is away: the way back first.
    static let lostReason = "connection lost, r reconnects"

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

    /// Remembers why a statement failed, for the title bar.
    func report(_ error: any Error) {
        let reason: String
        switch (error as? DatabaseError)?.kind {
        case .connectionLost?, .cannotConnect?: reason = Self.lostReason
        case .timedOut?: reason = "query stopped after \(Self.statementTimeout.components.seconds) s"
        case .busy?: reason = "database busy: another program is writing to it"
        case .staleSummary?: reason = "company summary out of date: roster import rebuilds it"
        default: reason = "a query failed, ? says why"
        }
        // What only a reconnect or a new import heals stays; the rest (a
        // lock, a timeout) is cleared by the next statement that works.
        let kind = (error as? DatabaseError)?.kind
        let lasting = kind.map { [DatabaseError.Kind.connectionLost, .cannotConnect, .staleSummary].contains($0) } ?? false
        let isNew = problem.withLock { current in
            guard current?.lasting != true else { return false }
            current = (reason, lasting)
            return true
        }
        // The first failure says why; the fetches failing after it only repeat it.
        if isNew { detail.withLock { $0 = DisplayText.sanitized((error as? DatabaseError)?.message ?? "\(error)") } }
    }
}
