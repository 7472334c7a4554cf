/// How a content synchronisation runs.
public enum LDAPSyncMode: Sendable, Equatable {
    /// Catch up to now, then end.
    case refreshOnly
    /// Catch up, then keep the search open and receive each change as it
    /// happens, until cancelled or the connection is lost.
    case refreshAndPersist
}

/// One change a Persistent Search reports.
public struct LDAPPersistentChange: Sendable, Equatable {
    public enum Kind: Int, Sendable {
        case add = 1, delete = 2, modify = 4, rename = 8
    }

    public let kind: Kind
    /// The entry as it is now (for a delete, as it was).
    public let entry: LDAPEntry
    /// The DN before a rename.
    public let previousDN: String?
}

extension LDAPConnection {
    /// Content Synchronization (RFC 4533) of `search`'s entries from
    /// `cookie` (nil: from the start, everyone sent): each message goes to
    /// `onMessage` as it arrives, on the connection's thread. In
    /// `.refreshAndPersist` mode it returns only when the task is
    /// cancelled (`.cancelled`) or the connection is lost. A cookie the
    /// server can no longer resume from is `.refreshRequired` (read
    /// everything again, then synchronise without a cookie).
    public func synchronize(_ search: LDAPSearch, mode: LDAPSyncMode, from cookie: LDAPSyncCookie?,
                            onMessage: @escaping @Sendable (LDAPSyncMessage) -> Void) async throws(LDAPError) {
        let deadline = mode == .refreshOnly ? options.operationTimeout : nil
        try await lane.run(deadline: deadline) { [identity] context throws(LDAPError) in
            let control = LDAPControl.sync(mode: mode, cookie: cookie)
            let result = try context.collect(try context.send(.search(search), controls: [control])) { reply throws(LDAPError) in
                try Self.decoded { () throws(BER.Malformed) in
                    switch reply {
                    case .entry(let entry, let controls): try LDAPSyncMessage.decode(entry: entry, controls: controls).forEach(onMessage)
                    case .intermediate(LDAPOID.syncInfo, let value?, _): try LDAPSyncMessage.decode(info: value).forEach(onMessage)
                    default: break
                    }
                }
            }
            if result.code == 4096 {
                throw LDAPError(.refreshRequired, "the directory can no longer catch up from where Roster left off",
                                detail: LDAPHandle.describe(result.code) + " " + result.diagnostic, resultCode: result.code)
            }
            guard result.succeeded else { throw LDAPError.result(result, .reading(search.base, by: identity)) }
            try Self.decoded { () throws(BER.Malformed) in try LDAPSyncMessage.decode(done: result.controls).forEach(onMessage) }
        }
    }

    /// A cookie that synchronises from now on (OpenLDAP): made from the
    /// `contextCSN` of the naming context `base` lies in. Read it *before*
    /// reading everyone, so that no change made meanwhile is missed (one
    /// made in between comes twice, which does no harm). Nil from a server
    /// that keeps no `contextCSN`.
    public func syncCookieForNow(base: String) async throws(LDAPError) -> LDAPSyncCookie? {
        guard let context = try await rootDSE().namingContext(of: base),
              let csns = try await read(context, attributes: ["contextCSN"])?["contextCSN"].compactMap(\.text), !csns.isEmpty else {
            return nil
        }
        return LDAPSyncCookie("rid=000,csn=" + csns.joined(separator: ";"))
    }

    /// A Persistent Search (draft-ietf-ldapext-psearch) over `search`'s
    /// entries: each change from now on goes to `onChange`, until the task
    /// is cancelled or the connection is lost. Nothing is caught up after a
    /// loss; the caller reads again.
    public func persistentSearch(_ search: LDAPSearch,
                                 onChange: @escaping @Sendable (LDAPPersistentChange) -> Void) async throws(LDAPError) {
        try await lane.run(deadline: nil) { [identity] context throws(LDAPError) in
            let result = try context.collect(try context.send(.search(search), controls: [.persistentSearch()])) { reply throws(LDAPError) in
                guard case .entry(let entry, let controls) = reply else { return }
                let change = try Self.decoded { () throws(BER.Malformed) in try LDAPPersistentChange.decode(entry, controls) }
                if let change { onChange(change) }
            }
            guard result.succeeded else { throw LDAPError.result(result, .reading(search.base, by: identity)) }
        }
    }
}

extension LDAPPersistentChange {
    /// The change an entry's Entry Change Notification control tells;
    /// nil when it carries none (an entry sent without a change).
    static func decode(_ entry: LDAPEntry, _ controls: [LDAPControl]) throws(BER.Malformed) -> LDAPPersistentChange? {
        guard let value = controls.first(LDAPOID.entryChangeNotification)?.value else { return nil }
        var outer = BERReader(value)
        var sequence = try outer.constructed()
        guard let kind = Kind(rawValue: try sequence.enumerated()) else { throw BER.Malformed(reason: "an unknown change type") }
        let previous = try sequence.optional(BER.octetString) { reader throws(BER.Malformed) in try reader.string() }
        return LDAPPersistentChange(kind: kind, entry: entry, previousDN: previous)
    }
}
