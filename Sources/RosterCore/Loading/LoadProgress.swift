import Synchronization

/// How far a load has come, shared between loader threads and the screen.
public final class LoadProgress: Sendable {
    /// Total size when known (a regular file), 0 for a stream.
    public let totalBytes: Atomic<Int> = Atomic(0)
    public let bytesRead: Atomic<Int> = Atomic(0)
    public let peopleLoaded: Atomic<Int> = Atomic(0)

    public init() {}

    public var snapshot: (bytes: Int, total: Int, people: Int) {
        (bytesRead.load(ordering: .relaxed), totalBytes.load(ordering: .relaxed), peopleLoaded.load(ordering: .relaxed))
    }
}
