import Foundation

/// Another process holding an SQLite file with `BEGIN EXCLUSIVE` (Python's
/// sqlite3), as a program that writes to it would: readers wait on its lock.
/// `release()` ends it with SIGKILL (the test runner's children may ignore
/// SIGTERM, an ignored signal being inherited). It holds the lock until then
/// or until the test process is gone (its standard input closes), never for
/// a fixed time: under a sanitizer a test can take minutes to reach its read.
public final class SQLiteLockHolder {
    private let process = Process()
    /// Its standard input: open while this holder lives.
    private let untilReleased = Pipe()

    public struct NotHeld: Error {}

    /// Returns once the lock is held.
    public init(_ path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                             + "c.execute('BEGIN EXCLUSIVE')\nprint('held', flush=True)\nsys.stdin.read()", path]
        let said = Pipe()
        process.standardOutput = said
        process.standardInput = untilReleased
        try process.run()
        guard said.fileHandleForReading.availableData.starts(with: Array("held".utf8)) else { throw NotHeld() }
    }

    /// Ends the holder, and with it the lock.
    /// Releasing twice does nothing more (its pid may be another's by then).
    public func release() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
