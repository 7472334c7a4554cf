import Foundation
import Testing
import TestTraits

/// The keys other programs taught, on the real binary in tmux at 80×24
/// and at 60×15: Ctrl-L, and a key that does nothing.
@Suite("Keys from other programs, end to end", .serialized, .blockingWork)
struct HabitKeysEndToEndTests {
    static let sizes = [(24, 80), (15, 60)]
    let binary = TmuxSession.shellQuoted(rosterBinary)
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/people.json")
        .standardized.path

    func bottom(_ session: TmuxSession) -> String {
        session.lines().last { !$0.isEmpty } ?? ""
    }

    @Test("Ctrl-L repaints a screen something else wrote on", arguments: sizes)
    func redraw(rows: Int, columns: Int) throws {
        let session = try TmuxSession(binary, rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/400"))
        let clean = session.screen()
        let tty = session.paneFlag("#{pane_tty}")
        let handle = try #require(FileHandle(forWritingAtPath: tty))
        // As another program (a `write`, a job in the background) would: at a place of its own.
        handle.write(Data("\u{1B}[5;3HGARBAGE-FROM-ELSEWHERE".utf8))
        try handle.close()
        #expect(session.waitFor(text: "GARBAGE-FROM-ELSEWHERE"))
        session.send("C-l")
        #expect(session.waitFor("the screen drawn whole again") { $0 == clean })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a key that does nothing says so, on the list and on the person's screen", arguments: sizes)
    func unusedKey(rows: Int, columns: Int) throws {
        let session = try TmuxSession(binary, rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/400"))
        session.send("x")
        #expect(session.waitFor(text: "x: no such key · ? help"))
        #expect(bottom(session).hasPrefix(" 1/400"), "the position stays")
        session.send("j")
        #expect(session.waitFor("the notice gone at the next key") { $0.contains("2/400") && !$0.contains("no such key") })
        session.send("Enter")
        #expect(session.waitFor(text: "First name"))
        session.send("C-x")
        #expect(session.waitFor(text: "Ctrl-X: no such key · ? help"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
