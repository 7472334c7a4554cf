import Foundation
import Testing
import TestSupport
import RosterCore

@Suite("Reconnecting on its own")
struct ConnectionWatcherTests {
    @Test("the waits double from 1 s to 4 s, then stay at 4 s (a server back is seen within 5 s); a connection that is back starts over")
    func backoff() {
        var backoff = ReconnectBackoff()
        var waits: [Int64] = []
        for _ in 0..<6 {
            waits.append(backoff.nextDelay.components.seconds)
            backoff.tried()
        }
        #expect(waits == [1, 2, 4, 4, 4, 4])
        backoff.reset()
        #expect(backoff.nextDelay == .seconds(1))
    }

    /// Polls `condition` until it holds or `timeout` passes.
    func eventually(timeout: Duration = .seconds(60), _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition()
    }

    /// A connection whose title shows a passing problem (a lock) until the
    /// check finds it over, after `failingChecks` checks.
    final class LockedConnection: Reconnecting, @unchecked Sendable {
        let state = Locked((checks: 0, failingChecks: 2, passing: true))
        var isConnectionLost: Bool { false }
        func reconnect() throws(ReconnectFailure) {}
        var hasPassingProblem: Bool { state.withLock { $0.passing } }
        func checkPassingProblem() -> Bool {
            state.withLock { state in
                state.checks += 1
                if state.checks > state.failingChecks { state.passing = false }
                return !state.passing
            }
        }
    }

    @Test("a passing problem (a lock) is checked on its own until it is over, then said recovered once: the title is not left saying busy")
    func passingProblemRecovers() {
        let connection = LockedConnection()
        let watcher = ConnectionWatcher(connection: connection, poll: .milliseconds(5))
        let reports = Locked<[ReconnectAttempt]>([])
        watcher.start { attempt in reports.withLock { $0.append(attempt) } }
        defer { watcher.stop() }
        #expect(eventually { reports.withLock { $0 } == [.recovered] })
        let checks = connection.state.withLock { $0.checks }
        #expect(checks == 3, "checked while it lasted, and not after")
        Thread.sleep(forTimeInterval: 0.05)  // ten polls: nothing more is checked or said
        #expect(connection.state.withLock { $0.checks } == checks)
        #expect(reports.withLock { $0 } == [.recovered])
    }

    @Test("a lost connection is tried with backoff until it is back, and again from the first wait when lost again")
    func watches() throws {
        let repository = StubReconnectingRepository(base: try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "postgres://db"),
                                                    failure: "no server")
        let delays: [Duration] = [.milliseconds(10), .milliseconds(20), .milliseconds(40)]
        let watcher = ConnectionWatcher(connection: repository, delays: delays, poll: .milliseconds(5))
        let reports = Locked<[ReconnectAttempt]>([])
        watcher.start { attempt in reports.withLock { $0.append(attempt) } }
        defer { watcher.stop() }

        let failure = ReconnectFailure(target: "postgres://db", reason: "no server")
        #expect(eventually { reports.withLock { $0.count } >= 4 })
        #expect(Array(reports.withLock { $0 }.prefix(4)) == [
            .lost, .failed(failure, nextTry: .milliseconds(20)), .failed(failure, nextTry: .milliseconds(40)),
            .failed(failure, nextTry: .milliseconds(40)),
        ])

        repository.setFailure(nil)
        #expect(eventually { reports.withLock { $0.last } == .reconnected })
        #expect(!repository.isConnectionLost)
        let attempts = repository.attempts

        // Lost again: the first try comes after the first wait again.
        reports.withLock { $0.removeAll() }
        repository.setFailure("no server")
        repository.loseConnection()
        #expect(eventually { reports.withLock { $0.count } >= 2 })
        #expect(Array(reports.withLock { $0 }.prefix(2)) == [.lost, .failed(failure, nextTry: .milliseconds(20))], "said lost once, then tried")
        #expect(repository.attempts > attempts)
    }

    @Test("a connection that is not lost is never tried")
    func quietWhileConnected() throws {
        let repository = StubReconnectingRepository(base: try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "postgres://db"))
        try repository.reconnect()
        let watcher = ConnectionWatcher(connection: repository, delays: [.milliseconds(1)], poll: .milliseconds(1))
        let polls = Locked(0)
        watcher.start { _ in polls.withLock { $0 += 1 } }
        // A lost connection is noticed within a few polls: the quiet before it counted nothing.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(polls.withLock { $0 } == 0)
        #expect(repository.attempts == 1)
        repository.loseConnection()
        #expect(eventually { polls.withLock { $0 } == 2 }, "said lost, then tried")
        watcher.stop()
    }

    @Test("tryNow ends the wait: a lost connection is tried at once, not after the backoff's minute")
    func tryNow() throws {
        let repository = StubReconnectingRepository(base: try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "postgres://db"))
        let watcher = ConnectionWatcher(connection: repository, delays: [.seconds(600)], poll: .seconds(600))
        let reports = Locked<[ReconnectAttempt]>([])
        watcher.start { attempt in reports.withLock { $0.append(attempt) } }
        defer { watcher.stop() }
        #expect(eventually { reports.withLock { $0 } == [.lost] })
        #expect(repository.attempts == 0, "waiting its first ten minutes")
        watcher.tryNow()
        #expect(eventually { reports.withLock { $0 } == [.lost, .reconnected] })
        #expect(repository.attempts == 1)
    }
}
