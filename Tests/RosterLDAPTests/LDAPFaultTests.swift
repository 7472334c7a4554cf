import Foundation
@testable import RosterLDAP
import TestServers
import Testing

/// Faults made for real on a server of the test's own: a frozen slapd
/// (SIGSTOP) that answers nothing, a killed one (`kill -9`), a restarted
/// one. A cancelled operation returns at once whatever the server does,
/// and the connection stays usable.
@Suite struct LDAPFaultTests {
    private func smallServer() async throws -> TestSlapd {
        var configuration = TestSlapd.Configuration()
        configuration.people = 10
        return try await TestSlapd.started(configuration)
    }

    /// Waits until `connection` has an operation waiting for the server.
    private func waitUntilWaiting(_ connection: LDAPConnection) async throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while !connection.isWaitingOnServer {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// SIGSTOP stops a many-threaded slapd only once the thread the
    /// kernel gave it runs: until then its other threads answer. The
    /// freeze must have taken hold of every thread when it returns.
    @Test func aFrozenServerHasStoppedEveryThreadWhenFreezeReturns() async throws {
        let server = try await smallServer()
        let pid = try #require(server.processID)
        for _ in 0..<20 {
            server.freeze()
            let states = Self.threadStates(of: pid)
            server.thaw()
            #expect(!states.isEmpty && states.allSatisfy { $0 == "T" }, "thread states \(states)")
        }
    }

    /// The state letter of each of `pid`'s threads (`/proc/PID/task/*/stat`).
    private static func threadStates(of pid: pid_t) -> [Character] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)
            // The state follows the command's closing parenthesis.
            return stat.flatMap { $0.range(of: ") ", options: .backwards) }.flatMap { stat?[$0.upperBound...].first }
        }
    }

    @Test func aCancelledSearchOnAFrozenServerReturnsAtOnceAndTheConnectionLivesOn() async throws {
        let server = try await smallServer()
        // No deadline of the connection's own could end the wait instead.
        let connection = try await server.connect(options: LDAPConnectionOptions(operationTimeout: .seconds(3600)))
        server.freeze()
        let search = Task { try await connection.search(server.everyone) }
        try await waitUntilWaiting(connection)
        search.cancel()
        // The server is still frozen: nothing it could say ends the wait.
        let outcomes = Inbox<Result<[LDAPEntry], any Error>>()
        Task { outcomes.append(await search.result) }
        #expect(await outcomes.wait { !$0.isEmpty })
        #expect((outcomes.values.first?.error as? LDAPError)?.kind == .cancelled)
        server.thaw()
        #expect(try await connection.search(server.everyone).count == 10)
    }

    @Test func aTaskCancelledBeforeItsTurnSendsNothing() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let search = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await connection.search(server.everyone)
        }
        #expect(((await search.result).error as? LDAPError)?.kind == .cancelled)
        #expect(try await connection.whoAmI() == "")
    }

    @Test func aServerThatStopsAnsweringTimesOut() async throws {
        let server = try await smallServer()
        let connection = try await server.connect(options: LDAPConnectionOptions(networkTimeout: .seconds(120), operationTimeout: .milliseconds(300)))
        server.freeze()
        let error = await #expect(throws: LDAPError.self) { try await connection.search(server.everyone) }
        #expect(error?.kind == .timedOut)
        #expect(error?.message == "the directory did not answer within 300 ms")
        #expect(error?.isTransient == true)
        server.thaw()
    }

    @Test func aKilledServerIsALostConnectionUntilReconnected() async throws {
        let server = try await smallServer()
        let connection = try await server.connect(as: .admin)
        let listening = Task {
            try await connection.synchronize(server.everyone, mode: .refreshAndPersist, from: nil) { _ in }
        }
        try await waitUntilWaiting(connection)
        server.kill()
        #expect(((await listening.result).error as? LDAPError)?.kind == .connectionLost)
        let error = await #expect(throws: LDAPError.self) { try await connection.whoAmI() }
        #expect(error?.kind == .connectionLost)
        #expect(error?.message == "the connection to the directory was lost")
        try await server.restarted()
        try await connection.reconnect()
        #expect(try await connection.whoAmI() == server.adminDN)
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
