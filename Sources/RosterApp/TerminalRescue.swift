import Foundation
import RosterCore
import RosterResources
#if canImport(Glibc)
import Glibc
#endif

/// Restores the terminal if the process dies on a fatal signal (a trap
/// or a crash), where no Swift code can run `endwin`: the handler writes a
/// precomputed reset sequence and the saved terminal modes, then lets the
/// signal take its course.
enum TerminalRescue {
    /// On the heap, not a `termios` global: Swift lays `termios` out in 57
    /// bytes but `tcgetattr` writes C's 60 (tail padding), which overflowed
    /// the global (found by AddressSanitizer). `allocate` uses the stride, 60.
    nonisolated(unsafe) private static let savedModes: UnsafeMutablePointer<termios> = {
        let modes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        modes.initialize(to: termios())
        return modes
    }()
    nonisolated(unsafe) private static var hasSavedModes = false
    /// The terminal whose modes were saved (standard input, or /dev/tty
    /// when the data comes on standard input).
    nonisolated(unsafe) private static var terminal: Int32 = STDIN_FILENO
    /// Mouse reporting off (every protocol `--mouse` may have turned on) and
    /// bracketed paste off, leave the alternate screen, show the cursor,
    /// reset attributes and keypad mode.
    static let resetSequence: StaticString = "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1005l\u{1B}[?1006l\u{1B}[?1015l\u{1B}[?2004l\u{1B}[?1049l\u{1B}[?25h\u{1B}[0m\u{1B}[?1l\u{1B}>"

    /// Writes the reset sequence and puts the saved modes back: only
    /// async-signal-safe calls, no ncurses (another thread may be in it).
    static func restoreTerminal() {
        _ = write(STDOUT_FILENO, resetSequence.utf8Start, resetSequence.utf8CodeUnitCount)
        if hasSavedModes { _ = tcsetattr(terminal, TCSANOW, savedModes) }
    }

    static func install(terminalDescriptor: Int32) {
        terminal = terminalDescriptor
        hasSavedModes = tcgetattr(terminalDescriptor, savedModes) == 0
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS] {
            Platform.setHandler(signalNumber, flags: Int32(truncatingIfNeeded: SA_RESETHAND)) { number in
                TerminalRescue.restoreTerminal()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }
}
