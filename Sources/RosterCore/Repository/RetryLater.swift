/// Reads that failed for a passing reason (a lock held by another
/// program, a statement that ran out of time) are tried again on their own,
/// a little later, for as long as the screen still wants them: a lock
/// released shows its rows without a key pressed.
@MainActor
public enum RetryLater {
    /// How long to wait before trying again.
    public static let delay: Duration = .seconds(2)

    /// Runs `work` on the main actor after `delay`, through `reader`.
    public static func run(using reader: BackgroundReading, _ work: @escaping @MainActor @Sendable () -> Void) {
        reader.after(delay, work)
    }
}
