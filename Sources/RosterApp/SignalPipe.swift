import Foundation
import RosterCore
import RosterResources
#if canImport(Glibc)
import Glibc
#endif

/// Turns every signal whose default action quietly ends the process into a
/// byte on a pipe that the event loop polls, so it is handled on the main
/// actor like a key: the terminal is restored and roster exits 128+N (the
/// handler itself only calls `write`, which is async-signal-safe). SIGQUIT
/// is among them: the runtime's backtrace would otherwise paint over the
/// screen. Crashes (SIGSEGV and the like) are `TerminalRescue`'s; a main
/// thread too stuck to answer is `SignalWatchdog`'s.
enum SignalPipe {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
                                   SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT]

    /// Installs the handlers; returns the end to poll, or -1.
    static func install(wakePipe: WakePipe) -> Int32 {
        writeEnd = wakePipe.writeEnd
        SignalWatchdog.install()
        for signalNumber in handled {
            Platform.setHandler(signalNumber, flags: SA_RESTART) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd, &byte, 1)
                SignalWatchdog.signalArrived(number)
            }
        }
        return wakePipe.readEnd
    }
}

/// A non-blocking pipe: background work and signal handlers write a byte
/// to wake the event loop out of `poll`.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32
    /// The byte that means "look at the mailbox" (signals use their numbers).
    static let mailByte: UInt8 = 0

    init() {
        var ends: [Int32] = [-1, -1]
        pipe(&ends)
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
    }

    func wake(_ byte: UInt8 = WakePipe.mailByte) {
        var byte = byte
        _ = write(writeEnd, &byte, 1)
    }

    /// Every byte waiting, without blocking.
    func drain() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}
