import Foundation
import RosterCore
import Testing

/// A program Roster starts gets every signal unblocked and at its default,
/// whatever the starting thread blocks.
@Suite("the signals a started program gets")
struct SpawnAttributesTests {
    /// Starts `sleep 60` from a thread that blocks SIGTERM (as Dispatch's
    /// worker threads do), sends it SIGTERM, and says how it ended: by the
    /// signal, or still running after `patience` tenths of a second (then killed).
    static func endOfSleepTermed(withDefaults: Bool, patience: Int) -> String {
        let result = Locked("")
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            var child: pid_t = 0
            let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sleep", "60"].map { (word: String) in strdup(word) } + [nil]
            defer { argv.forEach { free($0) } }
            let spawned = withDefaults
                ? SpawnAttributes.withDefaultSignals { posix_spawn(&child, "/bin/sleep", nil, $0, argv, environ) }
                : posix_spawn(&child, "/bin/sleep", nil, nil, argv, environ)
            guard spawned == 0 else { return result.withLock { $0 = "not started" } }
            kill(child, SIGTERM)
            var status: Int32 = 0
            for _ in 0..<patience {
                if waitpid(child, &status, WNOHANG) == child {
                    return result.withLock { $0 = (status & 0x7F) == SIGTERM ? "terminated" : "ended \(status)" }
                }
                usleep(100_000)
            }
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
            result.withLock { $0 = "still running" }
        }
        thread.start()
        done.wait()
        return result.withLock { $0 }
    }

    @Test("a program started from a thread that blocks SIGTERM still ends on SIGTERM")
    func unblocked() {
        #expect(Self.endOfSleepTermed(withDefaults: true, patience: 300) == "terminated")
    }

    @Test("without them it would not: the test above can fail")
    func inheritedMaskBlocks() {
        #expect(Self.endOfSleepTermed(withDefaults: false, patience: 10) == "still running")
    }
}
