import Foundation
import RosterCore
@testable import RosterLDAP
import TestServers
import Testing

/// Another client's changes, live and after a lost connection, from a real
/// slapd (syncprov): each arrives once, and a saved cookie catches up
/// exactly what was missed. The server is killed for real (`kill -9`).
@Suite struct LDAPChangeFeedTests {
    private func feed(_ server: TestSlapd, base: String, retryEvery: Duration = .milliseconds(100)) throws -> LDAPChangeFeed {
        LDAPChangeFeed(url: try server.url(base: base), credentials: .anonymous,
                       search: LDAPSearch(base: base, filter: .equals("objectClass", "inetOrgPerson"),
                                          attributes: ["uid", "title", "entryUUID", "entryCSN"]),
                       options: LDAPConnectionOptions(networkTimeout: .seconds(120), operationTimeout: .seconds(300)), retryEvery: retryEvery)
    }

    private func changedTitles(_ changes: [LDAPChange]) -> [String] {
        changes.compactMap { change in
            guard case .changed(let entry, _) = change else { return nil }
            return "\(entry.text("uid") ?? "?")=\(entry.text("title") ?? "")"
        }
    }

    @Test func anotherClientsChangeArrivesLive() async throws {
        let server = try await TestSlapd.shared()
        let others = "ou=Others," + server.suffix
        let admin = try await server.connect(as: .admin)
        let dn = "uid=live-\(getpid()),\(others)"
        try await admin.add(dn, [LDAPAttribute("objectClass", ["inetOrgPerson"]), LDAPAttribute("cn", ["Live"]), LDAPAttribute("sn", ["Live"])])
        let inbox = Inbox<LDAPChange>()
        let liveFeed = try feed(server, base: others)
        let watcher = Task { await liveFeed.run(from: nil, known: nil) { inbox.append($0) } }
        #expect(await inbox.wait { $0.contains(.caughtUp) })
        try await admin.modify(dn, [.replace("title", with: ["Moved"])])
        #expect(await inbox.wait { self.changedTitles($0).contains("live-\(getpid())=Moved") })
        watcher.cancel()
        await watcher.value
    }

    @Test func aSavedCookieCatchesUpExactlyWhatWasMissedAcrossAKilledServer() async throws {
        var configuration = TestSlapd.Configuration()
        configuration.people = 30
        let server = try await TestSlapd.started(configuration)
        let people = server.peopleBase
        let known = Set(try await (try await server.connect()).readAll(server.everyone).compactMap(LDAPEntryUUID.init(of:)))
        let dn = { (index: Int) in TestDirectoryLDIF.dn(ofPerson: index, suffix: server.suffix) }
        let first = Inbox<LDAPChange>()
        let firstFeed = try feed(server, base: people)
        let watcher = Task { await firstFeed.run(from: nil, known: known) { first.append($0) } }
        #expect(await first.wait { $0.contains(.caughtUp) })
        try await (try await server.connect(as: .admin)).modify(dn(1), [.replace("title", with: ["Seen live"])])
        // The change's cookie comes with it but is handed on just after it:
        // wait for that too, or the cookie saved may be an earlier one.
        #expect(await first.wait { values in
            guard let change = values.firstIndex(where: { self.changedTitles([$0]) == ["p000001=Seen live"] }) else { return false }
            return values[change...].contains { if case .cookie = $0 { true } else { false } }
        })
        let saved = first.values.compactMap { change -> LDAPSyncCookie? in
            if case .cookie(let cookie) = change { return cookie }
            return nil
        }.last
        server.kill()
        #expect(await first.wait { $0.contains { if case .interrupted = $0 { true } else { false } } })
        watcher.cancel()
        await watcher.value

        try await server.restarted()
        let admin = try await server.connect(as: .admin)
        try await admin.modify(dn(2), [.replace("title", with: ["Changed away"])])
        let doomed = try #require(try await admin.read(dn(3), attributes: ["entryUUID"]))
        let deletedUUID = try #require(LDAPEntryUUID(of: doomed))
        try await admin.delete(dn(3))
        try await admin.add("uid=p000031,\(people)", [LDAPAttribute("objectClass", ["inetOrgPerson"]), LDAPAttribute("cn", ["New"]),
                                                      LDAPAttribute("sn", ["New"]), LDAPAttribute("title", ["Added away"])])

        let second = Inbox<LDAPChange>()
        let cookie = try #require(saved)
        let secondFeed = try feed(server, base: people)
        let catchUp = Task { await secondFeed.run(from: cookie, known: known) { second.append($0) } }
        #expect(await second.wait { $0.contains(.caughtUp) })
        catchUp.cancel()
        await catchUp.value
        #expect(changedTitles(second.values).sorted() == ["p000002=Changed away", "p000031=Added away"])
        let deleted = second.values.compactMap { change -> LDAPEntryUUID? in
            if case .deleted(let uuid, _) = change { return uuid }
            return nil
        }
        #expect(deleted == [deletedUUID])
        #expect(!second.values.contains(.reloadNeeded))
    }

    @Test func aFeedThatReconnectsByItselfDeliversEachChangeOnce() async throws {
        var configuration = TestSlapd.Configuration()
        configuration.people = 20
        let server = try await TestSlapd.started(configuration)
        let known = Set(try await (try await server.connect()).readAll(server.everyone).compactMap(LDAPEntryUUID.init(of:)))
        let inbox = Inbox<LDAPChange>()
        let reconnecting = try feed(server, base: server.peopleBase)
        let watcher = Task { await reconnecting.run(from: nil, known: known) { inbox.append($0) } }
        #expect(await inbox.wait { $0.contains(.caughtUp) })
        server.kill()
        try await server.restarted()
        let admin = try await server.connect(as: .admin)
        let dn = { (index: Int) in TestDirectoryLDIF.dn(ofPerson: index, suffix: server.suffix) }
        try await admin.modify(dn(5), [.replace("title", with: ["After restart"])])
        #expect(await inbox.wait { self.changedTitles($0).contains("p000005=After restart") })
        // A later change seen means the earlier one will not come again.
        try await admin.modify(dn(6), [.replace("title", with: ["Later"])])
        #expect(await inbox.wait { self.changedTitles($0).contains("p000006=Later") })
        #expect(changedTitles(inbox.values) == ["p000005=After restart", "p000006=Later"])
        #expect(!inbox.values.contains { if case .deleted = $0 { true } else { false } })
        watcher.cancel()
        await watcher.value
    }

    @Test func aCookieTheServerCannotResumeFromAsksForAReloadOrSendsEveryone() async throws {
        let stale = LDAPSyncCookie("rid=000,csn=20000101000000.000000Z#000000#000#000000")
        var configuration = TestSlapd.Configuration()
        configuration.people = 3
        configuration.refreshRequiredForStaleCookies = true
        let hinting = try await TestSlapd.started(configuration)
        let inbox = Inbox<LDAPChange>()
        let hintingFeed = try feed(hinting, base: hinting.peopleBase)
        let watcher = Task { await hintingFeed.run(from: stale, known: []) { inbox.append($0) } }
        #expect(await inbox.wait { $0.contains(.caughtUp) })
        #expect(inbox.values == [.reloadNeeded, .caughtUp])
        watcher.cancel()
        await watcher.value

        // syncprov's default: everyone comes again, as changed.
        let server = try await TestSlapd.shared()
        let others = "ou=Others," + server.suffix
        let everyone = Inbox<LDAPChange>()
        let staleFeed = try feed(server, base: others)
        let resending = Task { await staleFeed.run(from: stale, known: []) { everyone.append($0) } }
        #expect(await everyone.wait { $0.contains(.caughtUp) })
        #expect(Set(changedTitles(everyone.values)).isSuperset(of: ["odd1=", "odd2="]))
        #expect(!everyone.values.contains(.reloadNeeded))
        resending.cancel()
        await resending.value
    }

    @Test func pollingSeesAChangeWhereNothingBetterIsOffered() async throws {
        let server = try await TestSlapd.shared()
        let others = "ou=Others," + server.suffix
        let admin = try await server.connect(as: .admin)
        let (watched, sentinel) = ("polled-\(getpid())", "sentinel-\(getpid())")
        for uid in [watched, sentinel] {
            try await admin.add("uid=\(uid),\(others)", [LDAPAttribute("objectClass", ["inetOrgPerson"]), LDAPAttribute("cn", ["P"]),
                                                      LDAPAttribute("sn", ["P"])])
        }
        let inbox = Inbox<LDAPChange>()
        // Every user attribute (no list): the stamps are asked for besides.
        let polling = LDAPChangeFeed(url: try server.url(base: others), credentials: .anonymous, search: LDAPSearch(base: others))
        let watcher = Task { await polling.run(from: nil, known: nil, method: .polling(every: .milliseconds(100))) { inbox.append($0) } }
        #expect(await inbox.wait { $0.contains(.caughtUp) })
        try await admin.modify("uid=\(watched),\(others)", [.replace("title", with: ["Polled"])])
        #expect(await inbox.wait { self.changedTitles($0).contains("\(watched)=Polled") })
        // A later poll (the one that sees the sentinel) does not tell the
        // first change again.
        try await admin.modify("uid=\(sentinel),\(others)", [.replace("title", with: ["Later"])])
        #expect(await inbox.wait { self.changedTitles($0).contains("\(sentinel)=Later") })
        #expect(changedTitles(inbox.values).filter { $0 == "\(watched)=Polled" }.count == 1)
        watcher.cancel()
        await watcher.value
    }
}
