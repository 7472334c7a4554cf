import RosterCore
import CLibpq
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Asks the server to cancel the statement its connection is running, from
/// any thread (`PQcancel` is thread-safe and opens a connection of its own),
/// and gives the connection up when the server no longer answers.
///
/// The cancel object is replaced when its connection is reset (`reset`);
/// it stays valid after its connection closes (a late cancel is harmless:
/// it names the old server process, which no new statement runs in).
public final class PostgresCancelHandle: Sendable {
    /// One connection's cancel object and socket. A class, so that a cancel
    /// still waiting on a frozen server keeps its object alive after the
    /// connection was reset and the handle moved on to a new one.
    private final class Request: @unchecked Sendable {
        /// `PQcancel` only reads it, from any thread.
        let pointer: OpaquePointer
        let socket: Int32

        init(_ pointer: OpaquePointer, socket: Int32) {
            self.pointer = pointer
            self.socket = socket
        }

        deinit { PQfreeCancel(pointer) }

        func send() -> Bool {
            var message = [CChar](repeating: 0, count: 256)
            return PQcancel(pointer, &message, Int32(message.count)) == 1
        }
    }

    private let request: Locked<Request>

    init(_ request: OpaquePointer, socket: Int32) {
        self.request = Locked(Request(request, socket: socket))
    }

    func replace(with newRequest: OpaquePointer, socket: Int32) {
        let replacement = Request(newRequest, socket: socket)
        request.withLock { $0 = replacement }
    }

    /// Requests the cancel and waits for the server to take it; the running
    /// statement then fails with a `.cancelled` error. Returns whether the
    /// request reached the server (it is ignored if nothing was running).
    @discardableResult
    public func cancel() -> Bool {
        request.withLock { $0 }.send()
    }

    /// Requests the cancel, waiting at most `patience` for the server to
    /// take it. False when it did not in time: a server that stopped
    /// answering (a frozen host, a network cut) keeps a cancel request
    /// waiting for ever, so it waits on a thread of its own, left behind.
    public func cancel(within patience: Duration) -> Bool {
        let current = request.withLock { $0 }
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = current.send()
            answered.signal()
        }
        return answered.wait(timeout: .now() + DispatchTimeInterval(patience)) == .success
    }

    /// Shuts the connection's socket, from any thread: whatever waits on
    /// the server wakes at once with the connection lost, and libpq closes
    /// it. Only while a statement of this connection runs (its socket is
    /// then open and cannot be another file's).
    public func abandonConnection() {
        request.withLock { _ = shutdown($0.socket, Int32(SHUT_RDWR)) }
    }
}
