import Foundation
import RosterCore
@testable import RosterLDAP
import TestServers

/// Who a test connects as.
enum TestAccount {
    case anonymous, admin, reader, external
}

extension TestSlapd {
    /// The server's address with `base` (default: the people), over TCP or
    /// the local socket.
    func url(base: String? = nil, overSocket: Bool = false) throws -> LDAPURL {
        try LDAPURL.parse((overSocket ? ldapiURL : ldapURL) + "/" + (base ?? peopleBase))
    }

    func connect(as account: TestAccount = .anonymous, overSocket: Bool = false,
                 options: LDAPConnectionOptions = LDAPConnectionOptions(networkTimeout: .seconds(120), operationTimeout: .seconds(300)))
        async throws -> LDAPConnection {
        let credentials: LDAPCredentials = switch account {
        case .anonymous: .anonymous
        case .admin: .simple(dn: adminDN, password: LDAPPassword(Array(Self.adminPassword.utf8)))
        case .reader: .simple(dn: readerDN, password: LDAPPassword(Array(Self.readerPassword.utf8)))
        case .external: .external
        }
        return try await LDAPConnection.open(try url(overSocket: overSocket || account == .external), credentials: credentials,
                                             options: options)
    }

    /// Everyone under `ou=People`, as a search.
    var everyone: LDAPSearch {
        LDAPSearch(base: peopleBase, filter: .equals("objectClass", "inetOrgPerson"), attributes: ["uid", "cn", "entryUUID", "entryCSN"])
    }
}

/// Values that arrive on another thread (a synchronisation's messages),
/// and a wait for one that matches, woken by each arrival.
final class Inbox<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var waiters: [(id: Int, CheckedContinuation<Void, Never>)] = []
        var nextWaiter = 0
    }

    private let state = Locked(State())

    var values: [Value] { state.withLock { $0.values } }

    func append(_ value: Value) {
        let waiters = state.withLock { state in
            state.values.append(value)
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.1.resume() }
    }

    /// Waits until `condition` holds for the values so far, at most
    /// `limit` (long: it only matters when the test fails, and the whole
    /// suite shares two cores); whether it did.
    func wait(within limit: Duration = .seconds(300), until condition: @escaping @Sendable ([Value]) -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: clock)
            self.wakeAll()
        }
        defer { timer.cancel() }
        while true {
            if condition(values) { return true }
            if clock.now >= deadline { return false }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if condition(state.values) { return true }
                    state.nextWaiter += 1
                    state.waiters.append((state.nextWaiter, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    private func wakeAll() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.1.resume() }
    }
}
