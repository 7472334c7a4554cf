import Synchronization

/// How far a load has come, shared between loader threads and the screen.
public final class LoadProgress: Sendable {
    /// Total size when known (a regular file), 0 for a stream.
    public let totalBytes: Atomic<Int> = Atomic(0)
    public let bytesRead: Atomic<Int> = Atomic(0)
    public let peopleLoaded: Atomic<Int> = Atomic(0)
    /// What a load with no bytes to count (a database) is doing, in a
    /// user's words ("reading the company summary"); nil for a file.
    public let stage = Locked<String?>(nil)

    public init() {}

    /// Bytes read never exceed the total shown beside them (a file that
    /// grew while read is still "483 MB of 483 MB").
    public var snapshot: (bytes: Int, total: Int, people: Int) {
        let total = totalBytes.load(ordering: .relaxed)
        let read = bytesRead.load(ordering: .relaxed)
        return (total > 0 ? min(read, total) : read, total, peopleLoaded.load(ordering: .relaxed))
    }
}
