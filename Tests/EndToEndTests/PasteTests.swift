import Foundation
import Testing

/// A paste into the search prompt, as tmux sends it (bracketed, since the
/// app asks for that): shown at once, searched once, and the app answers.
@Suite("End to end: paste", .serialized, .blockingWork)
struct PasteEndToEndTests {
    let binary = TmuxSession.shellQuoted(rosterBinary)

    @Test("a 94 KB paste into / shows in the prompt within seconds; the next keys answer; q quits with 0")
    func hugePaste() throws {
        let session = try TmuxSession(binary)
        #expect(session.waitFor(text: "1/400"))
        let words = (0..<19_500).map { "w\($0 % 977)" }.joined(separator: "\n") + " LASTWORD"
        #expect(words.utf8.count > 94_000)
        let path = NSTemporaryDirectory() + "roster-paste-\(UUID().uuidString).txt"
        try words.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        session.send("/")
        #expect(session.waitFor(text: "↑ history"))
        _ = try session.tmux(["load-buffer", path])
        _ = try session.tmux(["paste-buffer", "-p"])
        #expect(session.waitFor(text: "LASTWORD", timeout: 10))
        session.send("BSpace")
        #expect(session.waitFor("the Backspace after it", timeout: 10) { $0.split(separator: "\n").last?.contains("LASTWOR ") == true })
        session.send("Escape")
        #expect(session.waitFor(text: "⏎ open", timeout: 10))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
