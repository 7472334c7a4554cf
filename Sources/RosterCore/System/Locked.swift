#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock: the shape of `Synchronization.Mutex`, on a pthread
/// mutex.
///
/// Why not `Mutex`: on Linux it hands a contended lock over inside the kernel
/// (a priority-inheriting futex), out of ThreadSanitizer's sight, so
/// `make sanitize` reported every contended `Mutex` as a data race (seen:
/// two searches meeting at the store's presence masks, the two halves of one
/// search). ThreadSanitizer intercepts pthread mutexes, so with this lock
/// its reports stay about real races. No lock in Roster is taken per
/// person, so the lock's own cost does not show.
public final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only read or written between lock and unlock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: sending Value) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
