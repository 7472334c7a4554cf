import Foundation
import Testing

/// The form in the real binary, in tmux: a person whose names are both
/// cleared is not saved (they used to vanish from the list, `1 skipped`),
/// and it says so as `roster add` and `update` do.
@Suite("End to end: nobody is saved without a name", .serialized, .blockingWork)
struct NamelessEditEndToEndTests {
    @Test("E, both names cleared, ⏎: not saved, at the first name, the file untouched; a name typed saves; U names the person",
          arguments: [(24, 80), (15, 60)])
    func formRefuses(_ rows: Int, _ columns: Int) throws {
        let file = try EditingEndToEndTests.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let session = try EditingEndToEndTests.open(file, rows: rows, columns: columns)
        session.send("j", "j", "E")
        #expect(session.waitFor(text: "Edit Tammy Noble"))
        session.send("C-u", "Tab", "C-u", "Enter")
        #expect(session.waitFor(text: "not saved: a first or last name is needed"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "nothing written")
        // The refusal put the cursor at the first name: a space there is no name either.
        session.send(" ", "Enter")
        #expect(session.waitFor("still refused: a name of a space") { $0.contains("not saved: a first or last name is needed") && $0.contains("•") })
        session.send("C-u", "Tab")
        session.type("Noble")
        session.send("Enter")
        #expect(session.waitFor(text: "saved to "))
        #expect(try EditingEndToEndTests.changedLines(file) == ["   \"first\": \"\","])
        session.send("U")
        #expect(session.waitFor(text: "undone: Noble's first name put back"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "the old bytes again")
        #expect(!session.screen().contains("skipped"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
