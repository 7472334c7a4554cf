import RosterCore

/// A repository over a connection for presenter tests: answers from
/// `base`, names itself "connection lost, … — TARGET" until a reconnect
/// works, and fails reconnects with `failure` while it is set.
public final class StubReconnectingRepository: DelegatingRepository, Reconnecting {
    public let base: any PeopleRepository
    private let state: Locked<(lost: Bool, failure: String?, attempts: Int, brokenUnnoticed: Bool)>

    public init(base: any PeopleRepository, failure: String? = nil) {
        self.base = base
        state = Locked((lost: true, failure: failure, attempts: 0, brokenUnnoticed: false))
    }

    /// Breaks the connection with nothing read since (a server restarted
    /// under an idle screen): it says it is fine until a read finds it lost.
    public func breakUnnoticed() { state.withLock { $0.brokenUnnoticed = true } }

    /// A read over the connection: one broken unnoticed fails, and marks it lost.
    public func checkConnection() -> Bool {
        state.withLock { state in
            if state.brokenUnnoticed { state.lost = true }
            return !state.lost
        }
    }

    /// How many times `reconnect` was asked.
    public var attempts: Int { state.withLock { $0.attempts } }

    /// Lets the next reconnect work (nil) or fail with `reason`.
    public func setFailure(_ reason: String?) { state.withLock { $0.failure = reason } }

    /// Loses the connection again (as a server restart would).
    public func loseConnection() { state.withLock { $0.lost = true } }

    public var isConnectionLost: Bool { state.withLock { $0.lost } }

    public func reconnect() throws(ReconnectFailure) {
        let failure = state.withLock { state -> String? in
            state.attempts += 1
            if state.failure == nil {
                state.lost = false
                state.brokenUnnoticed = false
            }
            return state.failure
        }
        if let failure { throw ReconnectFailure(target: base.sourceName, reason: failure) }
    }

    public var readFailure: String? { isConnectionLost ? "connection lost, r reconnects" : nil }
}
