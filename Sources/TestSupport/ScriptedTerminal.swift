import RosterCore
import RosterTUI
#if canImport(Glibc)
import Glibc
#endif

/// A terminal for event-loop tests: it draws on a `MemoryScreen` and
/// plays a script of keys, resizes, checks and waits, in order.
///
/// Checks and waits are looked at only when the loop waits for input, so
/// after it has drawn the frame for the keys before them. A `waitUntil`
/// step holds the steps after it until its condition holds (the loop's
/// wait wakes for its own messages, and every few milliseconds to look
/// again), so keys can follow what background work did without sleeping.
/// A condition that never holds ends the run after `timeout` with Ctrl-C
/// and is named in `timedOut`; so does a script that runs out while the
/// app goes on.
@MainActor
public final class ScriptedTerminal: TerminalInput {
    public enum Step {
        case key(Key)
        /// The terminal takes this size, then the loop reads a resize key.
        case resize(rows: Int, columns: Int)
        /// Nothing more is played until `condition` holds.
        case waitUntil(String, @MainActor () -> Bool)
        /// Records `description` in `failures` unless `condition` holds now.
        case check(String, @MainActor () -> Bool)
        /// Does something the test needs done at this point (lets a held search go).
        case perform(@MainActor () -> Void)
    }

    public let screen: MemoryScreen
    /// What is still to be played.
    public var script: [Step] = []
    private let timeout: Duration
    private let clock = ContinuousClock()
    /// When the step at the head of the script began to wait.
    private var waitingSince: ContinuousClock.Instant?
    /// What the run gave up waiting for, if it did.
    public private(set) var timedOut: String?
    /// The checks that did not hold.
    public private(set) var failures: [String] = []
    public private(set) var repaints = 0
    public private(set) var suspensions = 0

    /// Generous by default: under the sanitizers the two threads of the
    /// cooperative pool can be held by other tests for seconds.
    public init(rows: Int = 24, columns: Int = 80, timeout: Duration = .seconds(600)) {
        screen = MemoryScreen(rows: rows, columns: columns)
        self.timeout = timeout
    }

    /// `text` typed a character at a time.
    public static func type(_ text: String) -> [Step] {
        text.map { .key(.character($0)) }
    }

    public func waitForInput(orReadable wakeDescriptor: Int32, timeout: Duration?) -> Bool {
        if playUntilInput() { return true }
        // Wake for the loop's messages, and every 5 ms (sooner than any
        // timeout the loop asks for) to look at a condition again.
        var descriptor = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 5) >= 0 || errno == EINTR
    }

    /// The key at the head of the script; nil at a check or a wait, so the
    /// loop draws before they are looked at.
    public func readKey() -> Key? {
        switch script.first {
        case .key(let key)?:
            script.removeFirst()
            return key
        case .resize(let rows, let columns)?:
            script.removeFirst()
            screen.resize(rows: rows, columns: columns)
            return .resize
        case .waitUntil?, .check?, .perform?, nil:
            return nil
        }
    }

    public func repaintAll() {
        repaints += 1
    }

    public func suspend() {
        suspensions += 1
    }

    /// Plays checks, actions and the waits whose conditions hold; true
    /// when input (a key or a resize) is next.
    private func playUntilInput() -> Bool {
        while true {
            switch script.first {
            case nil:
                return giveUpAfterTimeout("more keys (the script ran out before the app ended)")
            case .key?, .resize?:
                return true
            case .check(let description, let condition)?:
                if !condition() { failures.append(description) }
            case .perform(let action)?:
                action()
            case .waitUntil(let description, let condition)?:
                guard condition() else { return giveUpAfterTimeout(description) }
                waitingSince = nil
            }
            script.removeFirst()
        }
    }

    /// False while still within the timeout; past it, puts Ctrl-C next.
    private func giveUpAfterTimeout(_ description: String) -> Bool {
        let since = waitingSince ?? clock.now
        waitingSince = since
        guard clock.now - since > timeout, timedOut == nil else { return false }
        timedOut = description
        script = [.key(.control("c"))]
        return true
    }
}
