/// One change to the people a feed watches, as the source applies it.
public enum LDAPChange: Sendable, Equatable {
    /// An entry added or changed: its attributes as they are now.
    case changed(LDAPEntry, uuid: LDAPEntryUUID?)
    /// An entry gone (its DN when the server said it).
    case deleted(LDAPEntryUUID?, dn: String?)
    /// Save this cookie: catching up from it resumes after the changes
    /// delivered so far.
    case cookie(LDAPSyncCookie)
    /// Everything up to now was delivered; changes from here on come as
    /// they happen.
    case caughtUp
    /// The feed cannot tell what changed (a cookie the server can no longer
    /// resume from, a present phase over entries the caller does not list,
    /// a fallback that resumed after a loss): read everyone again.
    case reloadNeeded
    /// The connection was lost (or could not be made); the feed tries again.
    case interrupted(LDAPError)
}

/// Turns a content synchronisation's messages (RFC 4533) into changes.
///
/// Deletions come three ways: one entry at a time (state `delete`), many
/// ids at once (`syncIdSet` with `refreshDeletes`), or, when the server
/// cannot replay its log (after a restart, for one), by a *present phase*:
/// it names every unchanged entry still there, and every other entry the
/// caller knew is gone. So the tracker keeps the ids the caller knows
/// (`known`, nil when it does not list them, as over a windowed list) and
/// what the current refresh named.
struct LDAPSyncTracker {
    private(set) var known: Set<LDAPEntryUUID>?
    private(set) var cookie: LDAPSyncCookie?
    /// Ids named present or sent changed since the refresh began; nil
    /// after it (changes then come live, and no present phase follows).
    private var namedInRefresh: Set<LDAPEntryUUID>? = []

    init(known: Set<LDAPEntryUUID>?, cookie: LDAPSyncCookie?) {
        self.known = known
        self.cookie = cookie
    }

    /// A new synchronisation starts (after a reconnect) with a refresh of
    /// its own: what the last one named means nothing to it.
    mutating func restart() {
        namedInRefresh = []
    }

    /// Starts from `cookie` (made for now) when the server gave none yet:
    /// a reconnect must resume from here, not from a later now.
    mutating func begin(at cookie: LDAPSyncCookie) {
        if self.cookie == nil { self.cookie = cookie }
    }

    /// The server can no longer resume: start over without a cookie.
    mutating func forgetCookie() {
        cookie = nil
        namedInRefresh = []
    }

    mutating func take(_ message: LDAPSyncMessage) -> [LDAPChange] {
        switch message {
        case .entry(.add, let uuid, let entry), .entry(.modify, let uuid, let entry):
            known?.insert(uuid)
            namedInRefresh?.insert(uuid)
            return [.changed(entry, uuid: uuid)]
        case .entry(.delete, let uuid, let entry):
            known?.remove(uuid)
            return [.deleted(uuid, dn: entry.dn)]
        case .entry(.present, let uuid, _):
            namedInRefresh?.insert(uuid)
            return []
        case .uuids(let uuids, deleted: true):
            uuids.forEach { known?.remove($0) }
            return uuids.map { .deleted($0, dn: nil) }
        case .uuids(let uuids, deleted: false):
            namedInRefresh?.formUnion(uuids)
            return []
        case .presentPhaseEnded:
            return endPresentPhase()
        case .deletePhaseEnded:
            return []
        case .refreshDone:
            namedInRefresh = nil
            return [.caughtUp]
        case .cookie(let newCookie):
            cookie = newCookie
            return [.cookie(newCookie)]
        }
    }

    /// Everyone known but neither present nor changed is gone. (A present
    /// phase outside a refresh is not in the protocol: reload rather than
    /// guess.)
    private mutating func endPresentPhase() -> [LDAPChange] {
        guard let known, let named = namedInRefresh else { return [.reloadNeeded] }
        let gone = known.subtracting(named)
        self.known = known.intersection(named)
        return gone.sorted { $0.description < $1.description }.map { .deleted($0, dn: nil) }
    }
}
