import RosterCore
import CLibpq

/// Asks the server to cancel the statement its connection is running, from
/// any thread (`PQcancel` is thread-safe and opens a connection of its own).
///
/// The cancel object is replaced when its connection is reset (`reset`);
/// it stays valid after its connection closes (a late cancel is harmless).
public final class PostgresCancelHandle: Sendable {
    /// `PQcancel` is thread-safe; the object is only used and replaced under the lock.
    private struct Request: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let request: Locked<Request>

    init(_ request: OpaquePointer) {
        self.request = Locked(Request(pointer: request))
    }

    deinit {
        request.withLock { PQfreeCancel($0.pointer) }
    }

    func replace(with newRequest: OpaquePointer) {
        let replacement = Request(pointer: newRequest)
        request.withLock { request in
            PQfreeCancel(request.pointer)
            request = replacement
        }
    }

    /// Requests the cancel; the running statement then fails with a
    /// `.cancelled` error. Returns whether the request reached the server
    /// (it is ignored if nothing was running).
    @discardableResult
    public func cancel() -> Bool {
        var message = [CChar](repeating: 0, count: 256)
        return request.withLock { PQcancel($0.pointer, &message, Int32(message.count)) == 1 }
    }
}
