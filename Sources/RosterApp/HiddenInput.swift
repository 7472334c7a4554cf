import Foundation
import RosterCore
import RosterResources
#if canImport(Glibc)
import Glibc
#endif

/// Reads a line the terminal must not show (a password): echo off, keys
/// read one at a time so that Ctrl-C is seen at once, and the terminal's
/// modes put back on every way out — the line, Ctrl-C, Ctrl-D, an error,
/// and SIGTERM, SIGHUP or SIGQUIT arriving meanwhile (their handlers
/// restore the modes, then let the signal end the process as it would).
enum HiddenInput {
    enum Outcome: Equatable {
        case line(String)
        /// Ctrl-C (or Ctrl-D on an empty line): the user gave up.
        case interrupted
        /// The terminal could not be read or set up, with why.
        case failed(String)
    }

    /// Opens the controlling terminal (`/dev/tty`), whatever stdin and
    /// stdout are; -1 when there is none.
    static func openTerminal() -> Int32 {
        open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    }

    /// Writes `prompt` to `descriptor` (a terminal), reads one hidden line.
    static func readLine(prompt: String, terminal descriptor: Int32) -> Outcome {
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        defer { saved.deallocate() }
        saved.initialize(to: termios())
        guard tcgetattr(descriptor, saved) == 0 else { return .failed(Descriptor.describe(errno: errno)) }
        var quiet = saved.pointee
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG)
        withUnsafeMutableBytes(of: &quiet.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        let previousHandlers = RestoreOnSignal.install(saved: saved.pointee, descriptor: descriptor)
        defer {
            _ = tcsetattr(descriptor, TCSANOW, saved)
            RestoreOnSignal.uninstall(previousHandlers)
            _ = Descriptor.writeAll(Array("\n".utf8), to: descriptor)
        }
        // Echo goes off before the prompt shows: keys typed as soon as it does stay hidden.
        guard tcsetattr(descriptor, TCSANOW, &quiet) == 0, Descriptor.writeAll(Array(prompt.utf8), to: descriptor) else {
            return .failed(Descriptor.describe(errno: errno))
        }
        var typed: [UInt8] = []
        defer { for index in typed.indices { typed[index] = 0 } }
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return count == 0 ? .interrupted : .failed(Descriptor.describe(errno: errno)) }
            switch byte {
            case 0x0A, 0x0D: return .line(String(decoding: typed, as: UTF8.self))
            case 0x03: return .interrupted
            case 0x04 where typed.isEmpty: return .interrupted
            case 0x7F, 0x08:
                // One character back: its continuation bytes, then its lead byte.
                while let last = typed.popLast(), last & 0xC0 == 0x80 {}
            case 0x15: typed.removeAll()
            default: if byte >= 0x20 || byte == 0x09 { typed.append(byte) }
            }
        }
    }

    /// While the line is read, the signals that would end the process
    /// first put the terminal's modes back (`tcsetattr` is async-signal-safe).
    private enum RestoreOnSignal {
        nonisolated(unsafe) private static let modes: UnsafeMutablePointer<termios> = .allocate(capacity: 1)
        nonisolated(unsafe) private static var descriptor: Int32 = -1
        private static let signals: [Int32] = [SIGTERM, SIGHUP, SIGQUIT]

        static func install(saved: termios, descriptor terminal: Int32) -> [sigaction] {
            modes.initialize(to: saved)
            descriptor = terminal
            return signals.map { number in
                Platform.setHandler(number, flags: Int32(truncatingIfNeeded: SA_RESETHAND)) { number in
                    _ = tcsetattr(RestoreOnSignal.descriptor, TCSANOW, RestoreOnSignal.modes)
                    signal(number, SIG_DFL)
                    raise(number)
                }
            }
        }

        static func uninstall(_ previous: [sigaction]) {
            Platform.restoreHandlers(signals, previous)
        }
    }
}
