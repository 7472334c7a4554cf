import Foundation
import RosterCore
import RosterSQL
import Testing
import TestSupport
import TestTraits

/// Opening is two steps: connecting never reads the table (so it never
/// waits on a lock another session holds on it), and reading it waits on
/// the lock, gives up as "waiting on others", and works once it is gone.
@Suite(.blockingWork) struct OpeningTests {
    /// Runs `read` on a thread of its own; `outcome` is nil while it runs.
    final class Reading: Sendable {
        let outcome = Locked<Result<SQLPeopleRepository, DatabaseError>?>(nil)

        init(_ connected: SQLPeopleRepository.Connected) {
            Thread.detachNewThread { [outcome] in
                let result = Result { () throws(DatabaseError) -> SQLPeopleRepository in try connected.read() }
                outcome.withLock { $0 = result }
            }
        }

        /// The outcome, waited for up to `limit` (nil: still running).
        func wait(limit: Duration = .seconds(60)) -> Result<SQLPeopleRepository, DatabaseError>? {
            let deadline = ContinuousClock.now + limit
            while outcome.withLock({ $0 }) == nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            return outcome.withLock { $0 }
        }
    }

    /// Polls `condition` every 10 ms for up to `limit`.
    static func eventually(limit: Duration = .seconds(30), _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    @Test func postgresConnectsPastALockedTableAndReadsItOnceTheLockIsGone() throws {
        let imported = try SQLRepositoryFixture.importing(json: Fixtures.seedJSON, into: .postgres)
        let locker = try PostgresConnection(imported.target)
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE people, people_companies IN ACCESS EXCLUSIVE MODE")
        // Reading the table here would wait out the 10 s statement timeout and throw.
        let connected = try SQLPeopleRepository.connect(postgres: imported.target)
        let reading = Reading(connected)
        #expect(try Self.eventually { try locker.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").first?.int(0) ?? 0 > 0 },
                "the read waits on the lock")
        #expect(reading.outcome.withLock { $0 } == nil)
        try locker.execute("COMMIT")
        guard case .success(let repository)? = reading.wait() else {
            Issue.record("the read did not work once the lock was gone: \(String(describing: reading.outcome.withLock { $0 }))")
            return
        }
        #expect(repository.personCount == 6)
    }

    @Test func sqliteConnectsPastAWritersLockAndSaysItWaitedOnOthers() throws {
        let imported = try SQLRepositoryFixture.importing(json: Fixtures.seedJSON, into: .sqlite)
        defer { try? FileManager.default.removeItem(atPath: imported.target) }
        let writer = try SQLiteConnection(path: imported.target, access: .readWrite)
        try writer.execute("BEGIN EXCLUSIVE")
        let connected = try SQLPeopleRepository.connect(sqlite: imported.target)
        let busy = #expect(throws: DatabaseError.self) { try connected.read() }
        #expect(busy?.kind == .busy)
        #expect(busy?.isWaitingOnOthers == true)
        try writer.execute("ROLLBACK")
        #expect(try connected.read().personCount == 6, "the same connections read it once the writer is done")
    }
}
