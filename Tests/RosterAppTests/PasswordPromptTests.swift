import RosterCore
import Foundation
import Testing
import TestTraits
@testable import RosterApp
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// The hidden password line against a real pseudo-terminal: the prompt
/// shows, what is typed does not, and the terminal's modes come back.
@Suite("Password prompt", .serialized, .blockingWork)
struct PasswordPromptTests {
    /// A pseudo-terminal pair: `primary` is the keyboard and screen, `secondary` the terminal roster reads.
    final class PseudoTerminal: @unchecked Sendable {
        let primary: Int32
        let secondary: Int32

        /// glibc's pseudo-terminal calls, which its Swift module leaves out (they need _XOPEN_SOURCE).
        private static func function<Function>(_ name: String, as type: Function.Type) throws -> Function {
            guard let symbol = dlsym(nil, name) else { throw Failure(description: "no \(name)") }
            return unsafeBitCast(symbol, to: type)
        }

        init() throws {
            let openPrimary = try Self.function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
            let grant = try Self.function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
            let unlock = try Self.function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
            let name = try Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
            primary = openPrimary(O_RDWR | O_NOCTTY)
            guard primary >= 0, grant(primary) == 0, unlock(primary) == 0, let name = name(primary) else {
                throw Failure(description: "no pseudo-terminal")
            }
            secondary = open(name, O_RDWR | O_NOCTTY)
            guard secondary >= 0 else { throw Failure(description: "cannot open \(String(cString: name))") }
        }

        deinit {
            close(primary)
            close(secondary)
        }

        func type(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
        }

        /// What the terminal showed, read until `condition` holds (or 10 s pass).
        func screen(until condition: (String) -> Bool) -> String {
            var shown: [UInt8] = []
            let deadline = Date().addingTimeInterval(10)
            var buffer = [UInt8](repeating: 0, count: 256)
            while !condition(String(decoding: shown, as: UTF8.self)), Date() < deadline {
                var poller = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let count = read(primary, &buffer, buffer.count)
                if count > 0 { shown += buffer[0..<count] }
            }
            return String(decoding: shown, as: UTF8.self)
        }

        var echoes: Bool {
            var modes = termios()
            tcgetattr(secondary, &modes)
            return modes.c_lflag & tcflag_t(ECHO) != 0 && modes.c_lflag & tcflag_t(ICANON) != 0
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `body` on a thread of its own (it blocks reading the terminal;
    /// the cooperative pool must stay free) and returns a way to wait for it.
    private static func inThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> () -> Result {
        let done = DispatchSemaphore(value: 0)
        let box = Locked<Result?>(nil)
        Thread.detachNewThread {
            box.withLock { $0 = body() }
            done.signal()
        }
        return {
            done.wait()
            return box.withLock { $0! }
        }
    }

    /// Reads a hidden line on `terminal` in a thread; types `keys` once the prompt is up.
    private func answer(_ keys: String, on terminal: PseudoTerminal) -> (HiddenInput.Outcome, String) {
        let secondary = terminal.secondary
        let reading = Self.inThread { HiddenInput.readLine(prompt: "Password for ann@db/hr: ", terminal: secondary) }
        var shown = terminal.screen { $0.contains("Password for ann@db/hr: ") }
        terminal.type(keys)
        let outcome = reading()
        shown += terminal.screen { $0.contains("\n") }
        return (outcome, shown)
    }

    @Test("the prompt shows, the typed password never does, Backspace and Ctrl-U edit, echo comes back")
    func hiddenLine() throws {
        let terminal = try PseudoTerminal()
        #expect(terminal.echoes)
        let (outcome, shown) = answer("wrong\u{15}s3crét\u{7F}t\r", on: terminal)
        #expect(outcome == .line("s3crét"))
        #expect(shown.hasPrefix("Password for ann@db/hr: "))
        #expect(!shown.contains("s3cr"))
        #expect(!shown.contains("wrong"))
        #expect(terminal.echoes)
    }

    @Test("Ctrl-C gives up at once, with echo restored; the prompt object remembers it")
    func interrupted() throws {
        let terminal = try PseudoTerminal()
        let (outcome, _) = answer("abc\u{03}", on: terminal)
        #expect(outcome == .interrupted)
        #expect(terminal.echoes)
        let empty = answer("\u{04}", on: terminal)
        #expect(empty.0 == .interrupted)
        #expect(terminal.echoes)
    }

    @Test("PasswordPrompt.ask returns the line, or throws one line and marks an interrupt")
    func prompt() throws {
        let terminal = try PseudoTerminal()
        let descriptor = dup(terminal.secondary)
        let asked = Self.inThread { () -> (String?, DatabaseError?, Bool) in
            let prompt = PasswordPrompt(terminal: descriptor)
            do throws(DatabaseError) {
                let first = try prompt.ask("Password for ann@db/hr: ")
                _ = try prompt.ask("Password for ann@db/hr: ")
                return (first, nil, prompt.wasInterrupted)
            } catch {
                return (nil, error, prompt.wasInterrupted)
            }
        }
        _ = terminal.screen { $0.contains("Password for") }
        terminal.type("pw\n")
        _ = terminal.screen { $0.contains("Password for") }
        terminal.type("\u{03}")
        let (_, error, interrupted) = asked()
        #expect(error == DatabaseError(.cancelled, "PostgreSQL: no password given (the prompt was interrupted)"))
        #expect(interrupted)
        #expect(terminal.echoes)
    }
}
