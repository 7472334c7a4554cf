import Foundation

/// The last way to see changes, for a server that offers neither content
/// synchronisation nor persistent search: every `interval`, the entries
/// whose `modifyTimestamp` is at or after the newest seen so far.
///
/// `modifyTimestamp` counts whole seconds, so the newest second is asked
/// for again each time; entries already reported at the same stamp are
/// not reported twice. Deletions leave no stamp: they are not seen.
struct LDAPPolling {
    let connection: LDAPConnection
    let search: LDAPSearch
    let interval: Duration

    /// Polls until cancelled or the connection fails. The first poll starts
    /// a minute back, so that a change made just before it, or under a
    /// clock a little off the server's, is not lost (it may come twice,
    /// which does no harm); after a loss (`resumed`) what was missed cannot
    /// be known.
    func run(resumed: Bool, _ onChange: @Sendable (LDAPChange) -> Void) async throws(LDAPError) {
        if resumed { onChange(.reloadNeeded) }
        var since = Self.stamp(Date(timeIntervalSinceNow: -60))
        var reportedAtSince: [String: String] = [:]
        var caughtUp = false
        while true {
            let changed = try await connection.readAll(pollSearch(since: since), pageSize: 500)
            let newest = changed.compactMap { $0.text("modifyTimestamp") }.max() ?? since
            for entry in changed where reportedAtSince[entry.dn] != Self.version(of: entry) {
                onChange(.changed(entry, uuid: LDAPEntryUUID(of: entry)))
            }
            if newest != since { reportedAtSince = [:] }
            for entry in changed where entry.text("modifyTimestamp") == newest {
                reportedAtSince[entry.dn] = Self.version(of: entry)
            }
            since = newest
            if !caughtUp { onChange(.caughtUp) }
            caughtUp = true
            do {
                try await Task.sleep(for: interval)
            } catch {
                throw LDAPError.cancelled()
            }
        }
    }

    private static func version(of entry: LDAPEntry) -> String {
        LDAPVersion(of: entry)?.value.text ?? ""
    }

    private func pollSearch(since: String) -> LDAPSearch {
        var polled = search.narrowed(by: .greaterOrEqual("modifyTimestamp", LDAPValue(since)))
        // The stamps are operational: asked for by name, beside what the
        // search asks for (nothing named: every user attribute, `*`).
        polled.attributes = (polled.attributes.isEmpty ? ["*"] : polled.attributes) + ["modifyTimestamp", "entryCSN", "entryUUID"]
        return polled
    }

    /// `date` as LDAP's GeneralizedTime, in UTC (`20240131235959Z`).
    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }
}
