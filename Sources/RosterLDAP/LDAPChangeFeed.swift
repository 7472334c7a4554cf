import RosterCore

/// Another client's changes to the people, as they happen, on a connection
/// of the feed's own: by Content Synchronization (RFC 4533,
/// refreshAndPersist) where the server offers it, else by Persistent
/// Search, else by polling `modifyTimestamp`. After a lost connection it
/// connects again (every `retryEvery`) and catches up from its last
/// cookie: exactly what was missed comes, nothing twice.
public final class LDAPChangeFeed: Sendable {
    public enum Method: Sendable, Equatable {
        case contentSync
        case persistentSearch
        /// Asks every `interval` for entries whose `modifyTimestamp` moved
        /// (deletions are not seen this way: `reloadNeeded` now and then).
        case polling(every: Duration)
    }

    public let url: LDAPURL
    public let search: LDAPSearch
    private let credentials: LDAPCredentials
    private let options: LDAPConnectionOptions
    private let retryEvery: Duration

    /// Watches `search`'s entries (its attributes are what changes carry;
    /// ask for `entryUUID` and `entryCSN` to tell entries and versions).
    public init(url: LDAPURL, credentials: LDAPCredentials, search: LDAPSearch,
                options: LDAPConnectionOptions = LDAPConnectionOptions(label: "changes"), retryEvery: Duration = .seconds(1)) {
        self.url = url
        self.credentials = credentials
        self.search = search
        self.options = options
        self.retryEvery = retryEvery
    }

    /// Delivers changes to `onChange` until the task is cancelled, from
    /// `cookie` (nil: from now), `known` being the entries the caller holds
    /// (nil when it does not list them all). `onChange` runs on the feed's
    /// connection thread, one change at a time, and must not block.
    /// `method` nil takes the best the server offers.
    public func run(from cookie: LDAPSyncCookie?, known: Set<LDAPEntryUUID>?, method: Method? = nil,
                    onChange: @escaping @Sendable (LDAPChange) -> Void) async {
        let tracker = Locked(LDAPSyncTracker(known: known, cookie: cookie))
        var resumed = false
        while !Task.isCancelled {
            do throws(LDAPError) {
                let connection = try await LDAPConnection.open(url, credentials: credentials, options: options)
                defer { connection.close() }
                var chosen = method
                if chosen == nil { chosen = Self.best(for: try await connection.rootDSE()) }
                switch chosen ?? .contentSync {
                case .contentSync:
                    try await synchronize(connection, tracker, onChange)
                case .persistentSearch:
                    if resumed { onChange(.reloadNeeded) }
                    onChange(.caughtUp)
                    try await connection.persistentSearch(search) { onChange(Self.change($0)) }
                case .polling(let interval):
                    try await LDAPPolling(connection: connection, search: search, interval: interval).run(resumed: resumed, onChange)
                }
            } catch where error.kind == .cancelled || Task.isCancelled {
                return
            } catch where error.kind == .refreshRequired {
                tracker.withLock { $0.forgetCookie() }
                onChange(.reloadNeeded)
                continue
            } catch {
                onChange(.interrupted(error))
            }
            resumed = true
            try? await Task.sleep(for: retryEvery)
        }
    }

    /// One synchronisation, from the tracker's cookie or (none) from now.
    private func synchronize(_ connection: LDAPConnection, _ tracker: Locked<LDAPSyncTracker>,
                             _ onChange: @escaping @Sendable (LDAPChange) -> Void) async throws(LDAPError) {
        var cookie = tracker.withLock { tracker in
            tracker.restart()
            return tracker.cookie
        }
        if cookie == nil, let now = try await connection.syncCookieForNow(base: search.base) {
            tracker.withLock { $0.begin(at: now) }
            cookie = now
        }
        try await connection.synchronize(search, mode: .refreshAndPersist, from: cookie) { message in
            tracker.withLock { $0.take(message) }.forEach(onChange)
        }
    }

    static func best(for root: LDAPRootDSE) -> Method {
        if root.offersContentSync { return .contentSync }
        if root.offersPersistentSearch { return .persistentSearch }
        return .polling(every: .seconds(1))
    }

    static func change(_ change: LDAPPersistentChange) -> LDAPChange {
        let uuid = LDAPEntryUUID(of: change.entry)
        return change.kind == .delete ? .deleted(uuid, dn: change.entry.dn) : .changed(change.entry, uuid: uuid)
    }
}
