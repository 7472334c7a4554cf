import Dispatch
import Foundation
import RosterCore
import Synchronization

/// One connection's own thread and its one libldap session.
///
/// Every libldap call runs on the lane's serial Dispatch queue: never on
/// the main thread (which draws), never on Swift's cooperative pool (two
/// threads on this machine, which one blocked call would halve). A job
/// waits in `poll` on the server's socket and on the lane's wake-up pipe
/// together, so cancelling its task, which sets the job's flag and writes
/// one byte to the pipe, stops the wait at once: the job abandons its
/// operation (`ldap_abandon_ext`, from the lane's own thread, so no
/// libldap lock is waited on) and ends with `.cancelled`. The canceller
/// never waits for any of it.
///
/// `@unchecked Sendable`: `session` is only touched on `queue`
/// (`dispatchPrecondition` checks it in debug builds); the rest is locked
/// or atomic.
final class LDAPLane: @unchecked Sendable {
    private let queue: DispatchQueue
    private let wake: WakePipe
    /// Only on `queue`. Nil before connecting and after the connection was
    /// lost: jobs then fail at once until the next `connect`.
    private var session: LDAPHandle?
    /// Each operation's deadline for a reply.
    let operationTimeout: Duration
    /// The job on the lane now, if any.
    private let current = Locked<LDAPJob?>(nil)

    /// Whether a job is waiting for the server now (tests wait for it).
    var isWaitingOnServer: Bool { current.withLock { $0?.isWaiting ?? false } }

    /// Marks a lane's queue, so that a debug build can check where libldap
    /// is called from (`LDAPJobContext`).
    private static let laneKey = DispatchSpecificKey<String>()

    /// The label of the lane this code runs on, or nil off every lane.
    static var currentLabel: String? { DispatchQueue.getSpecific(key: laneKey) }

    init(label: String, operationTimeout: Duration) throws(LDAPError) {
        queue = DispatchQueue(label: "roster.ldap." + label)
        queue.setSpecific(key: Self.laneKey, value: "roster.ldap." + label)
        guard let wake = WakePipe() else {
            throw LDAPError(.other, "the directory connection could not be set up", detail: "pipe: " + Descriptor.describe(errno: errno))
        }
        self.wake = wake
        self.operationTimeout = operationTimeout
    }

    /// Runs `body` on the lane with a fresh session made by `connect`
    /// (the old one, if any, is closed first).
    func connect(_ makeSession: @escaping @Sendable () throws(LDAPError) -> LDAPHandle,
                 then body: @escaping @Sendable (LDAPJobContext) throws(LDAPError) -> Void) async throws(LDAPError) {
        try await schedule(deadline: operationTimeout) { job throws(LDAPError) in
            self.session = nil
            let handle = try makeSession()
            self.session = handle
            do throws(LDAPError) {
                try body(LDAPJobContext(handle: handle, job: job, wake: self.wake))
            } catch {
                self.session = nil
                throw error
            }
        }
    }

    /// Runs `body` with the session on the lane; cancelled with the task.
    /// `deadline`: how long each reply may take (nil: for ever, for a
    /// synchronisation that persists).
    func run<T: Sendable>(deadline: Duration?,
                          _ body: @escaping @Sendable (LDAPJobContext) throws(LDAPError) -> T) async throws(LDAPError) -> T {
        try await schedule(deadline: deadline) { job throws(LDAPError) in
            guard let handle = self.session else { throw LDAPError.lost("not connected") }
            do throws(LDAPError) {
                return try body(LDAPJobContext(handle: handle, job: job, wake: self.wake))
            } catch where error.kind == .connectionLost {
                self.session = nil
                throw error
            }
        }
    }

    /// Closes the session on the lane (an unbind is sent without waiting).
    func close() {
        queue.async { self.session = nil }
    }

    private func schedule<T: Sendable>(deadline: Duration?,
                                       _ body: @escaping @Sendable (LDAPJob) throws(LDAPError) -> T) async throws(LDAPError) -> T {
        let job = LDAPJob(timeout: deadline)
        let outcome: Result<T, LDAPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    dispatchPrecondition(condition: .onQueue(self.queue))
                    MainThreadReads.check("an LDAP operation")
                    guard !job.isCancelled else { return continuation.resume(returning: .failure(.cancelled())) }
                    self.current.withLock { $0 = job }
                    let outcome = Result { () throws(LDAPError) -> T in try body(job) }
                    self.current.withLock { $0 = nil }
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            job.cancel()
            wake.poke()
        }
        return try outcome.get()
    }
}

/// One job on a lane: whether it was cancelled, and its reply deadline.
final class LDAPJob: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let waiting = Atomic<Bool>(false)
    let timeout: Duration?

    init(timeout: Duration?) {
        self.timeout = timeout
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    var isWaiting: Bool { waiting.load(ordering: .acquiring) }

    /// Notes a wait for the server around `body`.
    func waiting(_ body: () -> Void) {
        waiting.store(true, ordering: .releasing)
        body()
        waiting.store(false, ordering: .releasing)
    }
}

/// What a job on the lane works with: the session, and waits that end on a
/// reply, a cancel, the deadline or a lost connection.
struct LDAPJobContext {
    let handle: LDAPHandle
    let job: LDAPJob
    let wake: WakePipe

    func send(_ request: LDAPRequest, controls: [LDAPControl] = []) throws(LDAPError) -> Int32 {
        assert(LDAPLane.currentLabel != nil, "libldap called off its connection's lane")
        guard !job.isCancelled else { throw LDAPError.cancelled() }
        return try handle.send(request, controls: controls)
    }

    /// The next reply to `id`, waiting for it. A cancel abandons the
    /// operation; so does a deadline passed (then `.timedOut`).
    func next(_ id: Int32) throws(LDAPError) -> LDAPReply {
        let clock = ContinuousClock()
        let deadline = job.timeout.map { clock.now + $0 }
        while true {
            if let reply = try handle.nextReply(for: id) { return reply }
            if job.isCancelled {
                handle.abandon(id)
                throw LDAPError.cancelled()
            }
            var waitMilliseconds: Int32 = -1
            if let deadline {
                let left = deadline - clock.now
                guard left > .zero else {
                    handle.abandon(id)
                    throw LDAPError(.timedOut, "the directory did not answer within " + Self.spoken(job.timeout ?? .zero))
                }
                let (seconds, attoseconds) = left.components
                waitMilliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            job.waiting { wake.wait(for: handle.descriptor, milliseconds: waitMilliseconds) }
        }
    }

    /// `duration` as a message says it: "30 s", "300 ms".
    static func spoken(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return seconds >= 1 ? "\(seconds) s" : "\(attoseconds / 1_000_000_000_000_000) ms"
    }

    /// Every reply to `id` up to its result, entries and intermediate
    /// messages handed to `each` as they come.
    func collect(_ id: Int32, _ each: (LDAPReply) throws(LDAPError) -> Void) throws(LDAPError) -> LDAPResult {
        while true {
            let reply = try next(id)
            if case .done(let result) = reply { return result }
            try each(reply)
        }
    }
}

/// A pipe whose one byte wakes a lane waiting on its socket.
final class WakePipe: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the lane; from any thread, never blocking (a full pipe is
    /// awake already).
    func poke() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Waits until `socket` has something to read (or hung up), the pipe
    /// was poked, or `milliseconds` passed (-1: no limit); empties the pipe.
    func wait(for socket: Int32, milliseconds: Int32) {
        // poll ignores a negative descriptor (no socket yet).
        var descriptors = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 2, milliseconds) > 0, descriptors[0].revents != 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
