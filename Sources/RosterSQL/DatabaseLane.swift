import RosterCore
import Dispatch
import Foundation
import Synchronization

/// What the SQL repository needs of a connection: statements with bound
/// values, and a way for another thread to stop the one running. The seam
/// between the one repository and its two kinds of database.
protocol PeopleDatabaseSession: AnyObject {
    func rows(_ sql: String, _ parameters: [SQLValue]) throws(DatabaseError) -> [SQLRow]
    /// Each row of one query, its columns' text as the library holds it
    /// where it can (`SQLColumnText`): for reading many rows.
    func forEachTextRow(_ sql: String, _ parameters: [SQLValue], _ body: (SQLColumnText) -> Void) throws(DatabaseError)
    var interrupter: any StatementInterrupter { get }
    /// Connects again after the server went away, with this statement timeout.
    func reconnect(statementTimeout: Duration) throws(DatabaseError)
}

/// Stops the statement a connection is running, from any thread.
protocol StatementInterrupter: Sendable {
    /// Asks the statement to stop; false when the request itself had no
    /// answer within `patience` (the server is not answering).
    func interruptStatement(within patience: Duration) -> Bool
    /// Gives the connection up: whatever waits on it wakes with the
    /// connection lost.
    func abandonConnection()
}

extension PostgresCancelHandle: StatementInterrupter {
    func interruptStatement(within patience: Duration) -> Bool { cancel(within: patience) }
}

extension SQLiteInterruptHandle: StatementInterrupter {
    func interruptStatement(within patience: Duration) -> Bool {
        interrupt()
        return true
    }

    /// A file has no server to stop answering; its lock waits end with
    /// the busy timeout.
    func abandonConnection() {}
}

extension PostgresConnection: PeopleDatabaseSession {
    func rows(_ sql: String, _ parameters: [SQLValue]) throws(DatabaseError) -> [SQLRow] { try execute(sql, parameters) }
    var interrupter: any StatementInterrupter { cancelHandle }

    func reconnect(statementTimeout: Duration) throws(DatabaseError) {
        try reset()
        // The lane has no deadline for a reconnect: this statement has its own.
        try settingUp { connection throws(DatabaseError) in try connection.setStatementTimeout(statementTimeout) }
    }
}

extension PeopleDatabaseSession {
    func forEachTextRow(_ sql: String, _ parameters: [SQLValue], _ body: (SQLColumnText) -> Void) throws(DatabaseError) {
        for row in try rows(sql, parameters) { row.withColumnText(body) }
    }
}

extension SQLiteConnection: PeopleDatabaseSession {
    func rows(_ sql: String, _ parameters: [SQLValue]) throws(DatabaseError) -> [SQLRow] { try query(sql, parameters) }
    var interrupter: any StatementInterrupter { interruptHandle }

    /// A file has no server to lose: nothing to do.
    func reconnect(statementTimeout: Duration) throws(DatabaseError) {}
}

/// One connection and the one thread at a time that may use it.
///
/// `sync` runs on the caller's thread (a window of rows: a keyset seek of a
/// millisecond or two); `run` runs on the lane's own Dispatch queue, never
/// on Swift's cooperative pool (libpq and SQLite block their thread), and
/// stops the statement when the calling task is cancelled (`PQcancel`,
/// `sqlite3_interrupt`), throwing `CancellationError`. Every statement also
/// stops after `timeout`, failing with a `.timedOut` error.
///
/// A server that stops answering (a frozen host, a network cut: no reply,
/// not even a closed socket) would keep a statement, and its cancel, waiting
/// for ever. So the lane has a deadline of its own: a cancel that the server
/// does not take within `patience`, or a statement still running `patience`
/// after its timeout, gives the connection up (its socket is shut). The
/// statement then fails as `.connectionLost`, and the lane is down until
/// `reconnect`, as after any loss.
///
/// `@unchecked Sendable`: the session is only touched under `lock`; the
/// rest is behind a `Locked`.
final class DatabaseLane: @unchecked Sendable {
    private let session: any PeopleDatabaseSession
    private let interrupter: any StatementInterrupter
    private let lock = NSLock()
    private let queue: DispatchQueue
    /// Where this lane's statement timeouts fire.
    private let timing: DispatchQueue
    let timeout: Duration
    /// How long the server may take to answer a cancel, or to stop after
    /// its timeout, before the connection is given up.
    let patience: Duration

    /// The job using the session, and what was done to stop it.
    private struct Running {
        let job: Int
        var cancelled = false
        var timedOut = false
        /// The server did not answer: the connection was given up.
        var abandoned = false
    }

    private struct State {
        var nextJob = 0
        var running: Running?
        /// Jobs cancelled before they started.
        var cancelledEarly: Set<Int> = []
    }

    private let state = Locked(State())
    /// Where cancellations are sent to the server, one lane's at a time.
    private static let interrupting = DispatchQueue(label: "roster.database.interrupt")
    /// Whether a statement is running now (tests wait for one to start).
    var isRunningStatement: Bool { state.withLock { $0.running != nil } }
    /// The server went away: statements fail at once, without waiting for
    /// the session (a reconnect may hold it for seconds, and the screen
    /// asks for rows every frame), until `reconnect` works.
    private let isDown = Atomic<Bool>(false)
    /// Whether the server went away under this lane (a statement failed
    /// with the connection lost), until `reconnect` works: shared by every
    /// repository read over the lane (a save's re-read makes a new one).
    var isConnectionDown: Bool { isDown.load(ordering: .acquiring) }
    /// The temporary tables made on this session, and which repository
    /// (its `serial`) filled each; forgotten when the session is made again.
    private let sessionTables = Locked<[String: Int]>([:])

    /// Whether the temporary table `name` on this session was filled by the repository `serial`.
    func holds(_ name: String, filledBy serial: Int) -> Bool { sessionTables.withLock { $0[name] == serial } }

    /// The temporary table `name` on this session was filled by the repository `serial`.
    func noteFilled(_ name: String, by serial: Int) { sessionTables.withLock { $0[name] = serial } }
    /// Every statement run, when `isRecording` (tests look at their plans).
    let recorded = Locked<[(sql: String, values: [SQLValue])]>([])
    let isRecording = Atomic<Bool>(false)

    init(_ session: any PeopleDatabaseSession, label: String, timeout: Duration,
         patience: Duration = PostgresConnection.cancelPatience) {
        self.session = session
        interrupter = session.interrupter
        queue = DispatchQueue(label: "roster.database." + label)
        timing = DispatchQueue(label: "roster.database.timeout." + label)
        self.timeout = timeout
        self.patience = patience
    }

    /// Runs `body` with the session on this thread (never the main thread
    /// while the screen is up: `MainThreadReads`).
    func sync<T>(_ body: (any PeopleDatabaseSession) throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        MainThreadReads.check("a database statement")
        try checkUp()
        return try syncEvenIfDown(body)
    }

    /// Connects the session again; statements run again once it has.
    /// No deadline of the lane's: the connect timeout bounds it, and the
    /// socket changes under it.
    func reconnect(statementTimeout: Duration) throws(DatabaseError) {
        MainThreadReads.check("a reconnect")
        try syncEvenIfDown(limited: false) { session throws(DatabaseError) in try session.reconnect(statementTimeout: statementTimeout) }
        sessionTables.withLock { $0 = [:] }
        isDown.store(false, ordering: .releasing)
    }

    private func checkUp() throws(DatabaseError) {
        if isDown.load(ordering: .acquiring) { throw DatabaseError(.connectionLost, "the connection was lost") }
    }

    private func syncEvenIfDown<T>(limited: Bool = true, _ body: (any PeopleDatabaseSession) throws(DatabaseError) -> T)
        throws(DatabaseError) -> T {
        let job = state.withLock { state in
            state.nextJob += 1
            return state.nextJob
        }
        do {
            return try perform(job, limited: limited, body)
        } catch let error as DatabaseError {
            throw error
        } catch {
            // Only `run`'s jobs are cancelled; a timeout is a DatabaseError.
            throw DatabaseError(.cancelled, "cancelled")
        }
    }

    /// Runs `body` with the session on the lane's queue; cancelled with the task.
    func run<T: Sendable>(_ body: @escaping @Sendable (any PeopleDatabaseSession) throws(DatabaseError) -> T) async throws -> T {
        try Task.checkCancellation()
        try checkUp()
        let job = state.withLock { state in
            state.nextJob += 1
            return state.nextJob
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.async {
                    continuation.resume(with: Result { try self.perform(job, body) })
                }
            }
        } onCancel: {
            // Off the cancelling thread (the main actor, when a keystroke
            // replaces a search): `PQcancel` opens a connection of its own,
            // which a server that stopped answering makes wait.
            Self.interrupting.async { self.interrupt(job, timedOut: false) }
        }
    }

    /// Stops `job` if it is running (or keeps it from starting).
    ///
    /// A job counts as running a moment before its statement reaches the
    /// server, and a cancel that arrives before the statement is ignored
    /// there: so the request is made again every `reinterruptEvery` until
    /// the job has ended.
    private func interrupt(_ job: Int, timedOut: Bool) {
        let sent = state.withLock { state -> Bool in
            guard var running = state.running, running.job == job else {
                if !timedOut { state.cancelledEarly.insert(job) }
                return false
            }
            guard !running.abandoned else { return false }
            if timedOut { running.timedOut = true } else { running.cancelled = true }
            // Under the lock: the job cannot finish and the next one start
            // before the request is made, so it never stops the wrong one.
            if !interrupter.interruptStatement(within: patience) {
                interrupter.abandonConnection()
                running.abandoned = true
            }
            state.running = running
            return !running.abandoned
        }
        guard sent else { return }
        Self.interrupting.asyncAfter(deadline: .now() + Self.reinterruptEvery) { [weak self] in
            guard let self, self.state.withLock({ $0.running?.job == job }) else { return }
            self.interrupt(job, timedOut: timedOut)
        }
    }

    static let reinterruptEvery: DispatchTimeInterval = .milliseconds(250)

    /// Stops the statement running now, if one is, without waiting for it
    /// to end (the app is quitting: nobody wants its rows, and a server
    /// waiting on a lock for it stops waiting). It fails as cancelled.
    /// `sent` is left once the request is made. Takes no lock: a cancel
    /// still waiting on a server that stopped answering holds `state`.
    func interruptRunning(sent: DispatchGroup) {
        // The job is taken now: a later one, started once this one ended, is
        // not stopped; one already asked to stop is not asked again.
        let job = runningJob.load(ordering: .acquiring)
        guard job != 0, stoppedJob.exchange(job, ordering: .acquiringAndReleasing) != job else { return }
        sent.enter()
        Self.interrupting.async {
            self.interrupt(job, timedOut: false)
            sent.leave()
        }
    }

    /// Roster is quitting: the statement running now is stopped, as
    /// `interruptRunning`, and no statement runs after it (one queued
    /// behind it would wait on the server again, after Roster is gone).
    func close(sent: DispatchGroup) {
        isClosed.store(true, ordering: .releasing)
        interruptRunning(sent: sent)
    }

    private let isClosed = Atomic<Bool>(false)

    /// The job running now (0: none), read without `state`'s lock.
    private let runningJob = Atomic<Int>(0)
    /// The last job `interruptRunning` stopped.
    private let stoppedJob = Atomic<Int>(0)

    /// Gives the connection up if `job` still runs (its server took the
    /// cancel, or none came, but the statement never ended).
    private func abandon(_ job: Int) {
        state.withLock { state in
            guard var running = state.running, running.job == job, !running.abandoned else { return }
            interrupter.abandonConnection()
            running.abandoned = true
            state.running = running
        }
    }

    private func perform<T>(_ job: Int, limited: Bool = true, _ body: (any PeopleDatabaseSession) throws(DatabaseError) -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let cancelledEarly = state.withLock { state in
            state.running = Running(job: job)
            runningJob.store(job, ordering: .releasing)
            let early = state.cancelledEarly.contains(job) || isClosed.load(ordering: .acquiring)
            state.cancelledEarly = state.cancelledEarly.filter { $0 > job }
            return early
        }
        let timer = DispatchWorkItem { [weak self] in self?.interrupt(job, timedOut: true) }
        let lastResort = DispatchWorkItem { [weak self] in self?.abandon(job) }
        if limited {
            // A serial queue of its own: the global queues' few threads can
            // all be blocked elsewhere, and then the timeout would never fire.
            timing.asyncAfter(deadline: .now() + DispatchTimeInterval(timeout), execute: timer)
            timing.asyncAfter(deadline: .now() + DispatchTimeInterval(timeout + patience), execute: lastResort)
        }
        defer {
            timer.cancel()
            lastResort.cancel()
        }
        let outcome: Result<T, DatabaseError> = cancelledEarly ? .failure(DatabaseError(.cancelled, "cancelled")) : Result { () throws(DatabaseError) -> T in
            try body(isRecording.load(ordering: .relaxed) ? RecordingSession(session) { sql, values in
                self.recorded.withLock { $0.append((sql, values)) }
            } : session)
        }
        let finished = state.withLock { state in
            defer {
                state.running = nil
                runningJob.store(0, ordering: .releasing)
            }
            return state.running
        }
        if finished?.abandoned == true {
            isDown.store(true, ordering: .releasing)
            if finished?.cancelled == true { throw CancellationError() }
            let waited = (finished?.timedOut == true ? timeout : .zero) + patience
            throw DatabaseError(.connectionLost, "the server stopped answering (nothing came back in \(waited.components.seconds) s)")
        }
        if cancelledEarly || finished?.cancelled == true { throw CancellationError() }
        switch outcome {
        case .success(let value):
            return value
        case .failure(let error) where finished?.timedOut == true:
            throw DatabaseError(.timedOut, "the query ran longer than \(timeout.components.seconds) s and was stopped (\(error.message))")
        case .failure(let error):
            if error.kind == .connectionLost { isDown.store(true, ordering: .releasing) }
            throw error
        }
    }
}

/// A session that notes each statement before running it.
private final class RecordingSession: PeopleDatabaseSession {
    let session: any PeopleDatabaseSession
    let record: (String, [SQLValue]) -> Void

    init(_ session: any PeopleDatabaseSession, record: @escaping (String, [SQLValue]) -> Void) {
        self.session = session
        self.record = record
    }

    func rows(_ sql: String, _ parameters: [SQLValue]) throws(DatabaseError) -> [SQLRow] {
        record(sql, parameters)
        return try session.rows(sql, parameters)
    }

    var interrupter: any StatementInterrupter { session.interrupter }

    func reconnect(statementTimeout: Duration) throws(DatabaseError) {
        try session.reconnect(statementTimeout: statementTimeout)
    }
}
