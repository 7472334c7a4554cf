/// Runs work a screen needs off the main actor and hands its result back
/// on the main actor: how a screen over a database asks for what it shows
/// without ever waiting on it.
///
/// `read` is for a repository's reads (async: a database suspends the
/// task while its own threads wait on the server); `perform` is for work
/// that blocks its thread (a save, a reconnect, a file written).
///
/// The defaults run the work at once, on the main actor: for a source
/// that answers at once (a file in memory, whose reads start on the
/// caller's actor and never suspend: `PeopleRepository`), and for tests.
/// The app's scheduler runs reads in a task of their own, blocking work on
/// a thread of Dispatch's, and posts each result to the event loop.
@MainActor
public protocol BackgroundReading: AnyObject {
    func read<Value: Sendable>(_ work: nonisolated(nonsending) @escaping @Sendable () async -> Value,
                               then deliver: @escaping @MainActor @Sendable (Value) -> Void)
    func perform<Value: Sendable>(_ work: @escaping @Sendable () -> Value, then deliver: @escaping @MainActor @Sendable (Value) -> Void)
    /// Runs `work` on the main actor after `delay` (a read tried again).
    func after(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void)
}

extension BackgroundReading {
    /// Starts `work` on the main actor at once: when it never suspends (a
    /// source that answers at once), `deliver` has run before this returns.
    /// A debug build stops when a read suspends while the app's screen is
    /// up: its event loop holds the main thread, so a read resumed there
    /// would never be delivered.
    public func read<Value: Sendable>(_ work: nonisolated(nonsending) @escaping @Sendable () async -> Value,
                                      then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
        var delivered = false
        Task.immediate { @MainActor in
            deliver(await work())
            delivered = true
        }
        MainThreadReads.checkAnswered(delivered)
    }

    public func perform<Value: Sendable>(_ work: @escaping @Sendable () -> Value, then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
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
public final class ReadingNow: BackgroundReading {
    public init() {}
}

extension PeopleRepository {
    /// Where to read this source: at once when it answers at once (nothing
    /// to wait for, and no frame of "loading"), else through `reader`.
    @MainActor
    public func reads(through reader: BackgroundReading) -> BackgroundReading {
        readsAtOnce ? ReadingNow() : reader
    }
}
