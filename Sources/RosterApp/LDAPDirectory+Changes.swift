import Dispatch
import RosterCore
import RosterLDAP

/// Another client's changes applied to the people held, and the
/// connection lost and bound again.
extension LDAPDirectory {
    /// What the feed's `change` means for the app.
    enum ChangeOutcome: Equatable {
        /// Nothing to show.
        case none
        /// The people held changed: show them again.
        case peopleChanged
        /// The feed lost its connection: the server is gone, for now.
        case lost
        /// The feed reached the server again.
        case back
    }

    /// Applies `change` to the people held.
    func apply(_ change: LDAPChange) -> ChangeOutcome {
        switch change {
        case .changed, .deleted:
            let changed = state.withLock { state in
                // A reading of everyone under way may have read this entry before the change: it is made again on what it read.
                state.madeWhileReading?.append(change)
                return Self.take(change, in: &state)
            }
            return changed ? .peopleChanged : .none
        case .reloadNeeded:
            startReading(replacing: true)
            return .none
        case .interrupted(let error):
            state.withLock { state in
                state.isLost = true
                state.problem = error.message
            }
            return .lost
        case .caughtUp, .cookie:
            return state.withLock { $0.isLost } ? .back : .none
        }
    }

    /// Applies an entry changed or deleted to `state`; false when it changed nothing.
    static func take(_ change: LDAPChange, in state: inout State) -> Bool {
        switch change {
        case .changed(let entry, let uuid):
            let key = uuid?.description ?? key(of: entry)
            // At the version held already: a save of ours, read back when it was written.
            if let version = LDAPVersion(of: entry), state.places[key]?.version == version { return false }
            put(entry, key: key, in: &state)
            // Told before our own save's answer came (the feed's connection
            // can be the quicker): held, but not said as someone else's.
            if !state.writing.contains(key) { state.note = "changed in the directory; read again" }
            return true
        case .deleted(let uuid, let dn):
            guard let key = uuid?.description ?? dn.flatMap({ state.keyByDN[$0] }),
                  state.people.removeValue(forKey: key) != nil else { return false }
            if let dn { state.keyByDN[dn] = nil }
            state.changedSinceShown = true
            state.note = "deleted in the directory; read again"
            return true
        default:
            return false
        }
    }

    // MARK: Reconnecting

    var isConnectionLost: Bool { state.withLock { $0.isLost } }

    var problemDetail: String? { state.withLock { $0.problem } }

    /// Binds again; a reading of everyone the outage cut short starts over.
    /// Blocks while it connects (the watcher's thread, `r`'s reader).
    func reconnect() throws(ReconnectFailure) {
        switch wait({ [connection] () async throws(LDAPError) in try await connection.reconnect() }) {
        case .success:
            let incomplete = state.withLock { state in
                state.isLost = false
                state.problem = nil
                return !state.isComplete
            }
            if incomplete { startReading(replacing: true) }
        case .failure(let error):
            state.withLock { $0.problem = error.message }
            throw ReconnectFailure(target: name, reason: error.message, detail: error.detail)
        }
    }

    /// Asks the server who this connection is: true when it answered.
    func checkConnection() -> Bool {
        guard !isConnectionLost else { return false }
        switch wait({ [connection] () async throws(LDAPError) in _ = try await connection.whoAmI() }) {
        case .success: return true
        case .failure(let error):
            state.withLock { state in
                state.isLost = true
                state.problem = error.message
            }
            return false
        }
    }

    /// Runs `body` and waits for it, on a thread that may block (never the
    /// main thread, nor one of Swift's shared ones: the connection's own
    /// thread does the work, and the task's continuation needs one).
    func wait<Value: Sendable>(_ body: @escaping @Sendable () async throws(LDAPError) -> Value) -> Result<Value, LDAPError> {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Value, LDAPError>?>(nil)
        Task.detached {
            do throws(LDAPError) {
                let value = try await body()
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 } ?? .failure(LDAPError(.cancelled, "cancelled"))
    }
}
