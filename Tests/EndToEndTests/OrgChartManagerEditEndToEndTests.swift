import Foundation
import Testing
import TestTraits

/// A manager changed in the form (`E`) on the real binary in tmux: the
/// check's refusal on the form, then the save, and the org chart (`T`)
/// showing the person moved.
@Suite("Changing a manager in the form, end to end", .serialized, .blockingWork)
struct OrgChartManagerEditEndToEndTests {
    static let people = """
        [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org"},
         {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@example.org", "manager": "a1"},
         {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@example.org", "manager": "grace@example.org"}]
        """

    @Test("E on Alan shows his manager; himself is refused on the form; Ada saved; T shows him in Ada's team")
    func moveInForm() throws {
        let path = try OrgChartEndToEndTests.temporary(Self.people)
        defer { OrgChartEndToEndTests.remove(path) }
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) --no-state \(TmuxSession.shellQuoted(path))",
                                      rows: 24, columns: 80)
        #expect(session.waitFor(text: "1/3"))
        session.send("j", "j")
        #expect(session.waitFor(text: "3/3"))
        session.send("E")
        #expect(session.waitFor("Alan's form with his manager") {
            $0.contains("Edit Alan Turing") && $0.contains("Manager         grace@example.org")
        })
        session.send("Up", "C-u")
        session.type("alan@example.org")
        session.send("Enter")
        #expect(session.waitFor(text: "not saved: Alan Turing cannot report to themselves"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.people)
        session.send("C-u")
        session.type("a1")
        session.send("Enter")
        #expect(session.waitFor("saved, back in the list") { $0.contains("saved to org.json") && !$0.contains("Edit Alan Turing") })
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""email": "alan@example.org", "manager": "a1"}"#))
        session.send("T")
        #expect(session.waitFor("Alan in Ada's team") {
            $0.contains("org chart") && $0.contains("Ada Lovelace  ada@example.org  (2 reports · 2 in all)")
        })
        session.send("q", "q")
        #expect(session.exitStatus() == 0)
    }
}
