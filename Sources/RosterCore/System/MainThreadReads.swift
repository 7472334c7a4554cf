import Foundation

/// Whether a blocking read (a database statement) may run on the main
/// thread now. The app forbids it while its screen is up, where the main
/// thread draws and answers keys; a debug build then stops at any that
/// does (as swift-nio checks its event loop's thread), so a read that would
/// freeze the screen is found by the end-to-end tests, which run the debug
/// binary. A release build checks nothing.
public enum MainThreadReads {
    private static let forbidden = Locked(false)

    /// The screen is up: blocking reads belong off the main thread.
    public static func forbid() { forbidden.withLock { $0 = true } }

    /// The screen is gone (the command line's modes read on the main thread).
    public static func allow() { forbidden.withLock { $0 = false } }

    /// Stops a debug build when `what` blocks the main thread while forbidden.
    public static func check(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        assert(!(Thread.isMainThread && forbidden.withLock { $0 }),
               "\(what()) on the main thread while the screen is up: read it through the screen's reader", file: file, line: line)
    }

    /// Stops a debug build when a read of a source that answers at once
    /// did not (`answered` is false) while the screen is up.
    public static func checkAnswered(_ answered: Bool, file: StaticString = #fileID, line: UInt = #line) {
        assert(answered || !forbidden.withLock { $0 },
               "a read of a source that answers at once suspended: read it through the screen's reader", file: file, line: line)
    }
}
