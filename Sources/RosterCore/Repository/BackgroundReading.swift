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
}

extension BackgroundReading {
    public func read<Value: Sendable>(_ work: @escaping @Sendable () -> Value, then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
        deliver(work())
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
