import Foundation
import Testing
import TestSupport
import RosterCore
import RosterTUI
@testable import RosterApp

/// Inside tmux a copy also goes to tmux's buffer, and no message claims
/// more than happened.
@MainActor
@Suite("tmux clipboard")
struct TmuxClipboardTests {
    @Test("outside tmux: OSC 52 only, and it says the text was sent to the terminal's clipboard")
    func outsideTmux() {
        let terminal = SpyClipboard()
        var handed: [[UInt8]] = []
        let clipboard = TmuxClipboard(terminal: terminal, environment: [:], loadBuffer: { handed.append($0); return true })
        #expect(clipboard.copy("ada@x.io") == .terminal)
        #expect(handed.isEmpty)
        #expect(ClipboardText.deliveredMessage("ada@x.io", .terminal) == "sent ada@x.io to the terminal's clipboard")
    }

    @Test("inside tmux: also handed to tmux, control characters removed; tmux's buffer only when it took the text")
    func insideTmux() {
        let terminal = SpyClipboard()
        var handed: [String] = []
        var tmuxTakesIt = true
        let clipboard = TmuxClipboard(terminal: terminal, environment: ["TMUX": "/tmp/tmux-0/default,1,0"],
                                      loadBuffer: { handed.append(String(decoding: $0, as: UTF8.self)); return tmuxTakesIt })
        #expect(clipboard.copy("ada@x.io\u{1B}]0;x\u{07}\u{9B}") == .tmuxBuffer)
        #expect(handed == ["ada@x.io]0;x"])
        #expect(terminal.copied == ["ada@x.io]0;x"])
        tmuxTakesIt = false
        #expect(clipboard.copy("b@x.io") == .terminal)
        terminal.succeeds = false
        #expect(clipboard.copy("b@x.io") == nil)
    }

    @Test("a child process gets its input on stdin, without a shell; a failing or missing program is false")
    func runsChild() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roster-run-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Platform.run(["tee", path], input: Array("a; rm -rf / $(x)\n".utf8)))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a; rm -rf / $(x)\n")
        #expect(!Platform.run(["false"], input: []))
        #expect(!Platform.run(["roster-no-such-program"], input: Array("x".utf8)))
        // A child that never reads and never ends is killed at the timeout.
        let clock = ContinuousClock()
        let start = clock.now
        #expect(!Platform.run(["sleep", "30"], input: Array(repeating: 0x61, count: 1_000_000), timeout: .milliseconds(300)))
        #expect(clock.now - start < .seconds(20), "killed at its timeout, long before its 30 s")
    }

    @Test("a child process inherits none of the app's descriptors beyond its standard three")
    func childInheritsNothing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roster-fds-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let held = open("/dev/null", O_RDONLY)  // open without close-on-exec, as a C library's may be
        defer { close(held) }
        #expect(held > 2)
        // `exec >` moves the shell's output for good (a plain `>` would
        // save the old one in a descriptor of the shell's own).
        #expect(Platform.run(["sh", "-c", "exec > \"$0\"; ls /proc/$$/fd", path], input: []))
        let listed = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        #expect(!listed.contains(held), "\(listed)")
        #expect(listed.allSatisfy { $0 <= 2 }, "\(listed)")
    }
}
