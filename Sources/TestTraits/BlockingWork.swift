import Testing

/// Marks a suite whose tests block a thread while they wait (a database
/// statement, a tmux round trip, a child process) instead of suspending.
///
/// The cooperative pool has one thread per core, two on our machines, so two
/// such tests in flight delay every async test in the run; the waits of the
/// async tests (EventPump, ScriptedTerminal) allow 600 s for that reason
/// (180 s ran out once under ThreadSanitizer).
/// The trait runs the test where Swift Testing puts it. Moving marked tests
/// onto dedicated threads (`withTaskExecutorPreference` with a thread-owning
/// `TaskExecutor`) halved the suite's time here, but hung a sanitizer run on
/// CI twice with every test in flight stopped, so it was taken out; the
/// marks stay so that the blocking suites are named in one way, for the next
/// attempt.
public struct BlockingWorkTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await function()
    }
}

extension Trait where Self == BlockingWorkTrait {
    /// The suite's tests block a thread while they wait.
    public static var blockingWork: Self { Self() }
}
