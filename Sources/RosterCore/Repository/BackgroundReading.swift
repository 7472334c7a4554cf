/// Runs a blocking read of a source off the main actor and hands its result
/// back on the main actor: how a screen over a database asks for what it
/// shows without ever waiting on it.
///
/// The default runs the read at once, on the caller's actor: for tests'
/// schedulers over sources that answer at once. The app's scheduler runs
/// reads on a thread of Dispatch's and posts the result to the event loop.
@MainActor
public protocol BackgroundReading: AnyObject {
    func read<Value: Sendable>(_ work: @escaping @Sendable () -> Value, then deliver: @escaping @MainActor @Sendable (Value) -> Void)
    /// Runs `work` on the main actor after `delay` (a read tried again).
    func after(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void)
}

extension BackgroundReading {
    public func read<Value: Sendable>(_ work: @escaping @Sendable () -> Value, then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
        deliver(work())
    }

    /// A task on the main actor: for tests, whose main actor is free. (The
    /// app's event loop holds the main thread, so its scheduler posts to
    /// the mailbox instead.)
    public func after(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in
            try? await Task.sleep(for: delay)
            work()
        }
    }
}

/// Reads while asked, on the main actor: a screen whose source answers at
/// once (a file in memory) needs nothing else.
public final class ReadingAtOnce: BackgroundReading {
    public init() {}
}

extension PeopleRepository {
    /// Where to read this source: at once when it answers at once (nothing
    /// to wait for, and no frame of "loading"), else through `reader`.
    @MainActor
    public func reads(through reader: BackgroundReading) -> BackgroundReading {
        readsAtOnce ? ReadingAtOnce() : reader
    }
}
