import Foundation
import Testing
import TestServers

/// `D y` in the real binary, in tmux, in every arrangement of the list and
/// over every kind of source: the selection goes to the next person (the
/// one before, at the end), so that `D y D y` deletes neighbours, never
/// someone far away (the flat list went from 400/401 to 19/400).
@Suite("End to end: after a delete the selection is on the next person", .serialized, .blockingWork)
struct DeleteSelectionEndToEndTests {
    enum Arrangement: String, CaseIterable, CustomTestStringConvertible {
        case grouped, flat, flatByAnotherColumn, reversed, filtered, companyList
        var testDescription: String { rawValue }
    }

    /// Roster on `target` in tmux, its rows read, in `arrangement`.
    static func open(_ target: String, environment: String, _ arrangement: Arrangement) throws -> TmuxSession {
        let session = try TmuxSession("env \(environment)\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(target))")
        #expect(session.waitFor(text: "1/400"))
        #expect(session.waitFor(text: "Frank Dillon"), "the rows read (a database's come after the frame)")
        switch arrangement {
        case .grouped: break
        case .flat: session.send("c")
        case .flatByAnotherColumn: session.send("c", "s")
        case .reversed: session.send("S")
        case .filtered:
            session.send("/")
            session.type("an")
            session.send("Enter")
            #expect(session.waitFor(text: "filter: an"))
        case .companyList:
            session.send("Tab")
            #expect(session.waitFor(text: "companies"))
            session.send("j", "j", "j", "j", "j", "Enter")
            #expect(session.waitFor(text: "Esc overview"))
        }
        #expect(session.waitFor("the arrangement shown") { screen in
            switch arrangement {
            case .flat: screen.contains("last name ↑, flat")
            case .flatByAnotherColumn: screen.contains(", flat") && !screen.contains("last name ↑")
            case .reversed: screen.contains("last name ↓")
            default: true
            }
        })
        return session
    }

    /// Where the selection is (row, of how many), and who `D` names there
    /// (the question then answered no).
    static func selected(_ session: TmuxSession) -> (row: Int, count: Int, name: String)? {
        session.send("D")
        var asked = ""
        guard session.waitFor("D's question", { screen in
            asked = screen.split(separator: "\n").last.map(String.init) ?? ""
            return asked.contains("? (y/n)")
        }) else { return nil }
        session.send("n")
        guard session.waitFor("the question answered", { !$0.contains("? (y/n)") }),
              let (row, count) = EditingEndToEndTests.position(in: session.screen()),
              let name = asked.firstMatch(of: /Delete (.+)\? \(y\/n\)/)?.1 else { return nil }
        return (row, count, String(name))
    }

    /// Deletes the selected person, then says where the selection landed.
    static func deleteSelected(_ session: TmuxSession, leaving count: Int) -> (row: Int, count: Int, name: String)? {
        session.send("D")
        #expect(session.waitFor(text: "? (y/n)"))
        session.send("y")
        // (The message takes the status line's room for one frame: the next shows the position.)
        guard session.waitFor(text: "deleted from"), let landed = selected(session) else { return nil }
        #expect(landed.count == count)
        return landed
    }

    /// In the middle and at the end of `arrangement`: each delete leaves
    /// the selection on the row after (before, at the end), on the person
    /// who was there.
    static func check(_ session: TmuxSession, _ arrangement: Arrangement) {
        session.send("j", "j")
        guard let third = selected(session) else {
            Issue.record("no selection")
            return
        }
        session.send("j")
        guard let fourth = selected(session) else {
            Issue.record("no selection")
            return
        }
        session.send("k")
        #expect(selected(session)?.name == third.name)
        let afterFirst = deleteSelected(session, leaving: third.count - 1)
        #expect(afterFirst?.row == third.row && afterFirst?.name == fourth.name, "\(arrangement): \(String(describing: afterFirst))")
        session.send("G", "k")
        guard let beforeLast = selected(session) else {
            Issue.record("no selection")
            return
        }
        session.send("j")
        let last = selected(session)
        #expect(last?.row == beforeLast.row + 1 && last?.row == last?.count)
        let afterLast = deleteSelected(session, leaving: third.count - 2)
        #expect(afterLast?.row == beforeLast.row && afterLast?.name == beforeLast.name, "\(arrangement): \(String(describing: afterLast))")
    }

    @Test("a file, in every arrangement: D y leaves the selection on the next person, or the one before at the end",
          arguments: Arrangement.allCases)
    func file(_ arrangement: Arrangement) throws {
        let (target, environment, cleanUp) = try ConflictEndToEndTests.source(.json)
        defer { cleanUp() }
        let session = try Self.open(target, environment: environment, arrangement)
        Self.check(session, arrangement)
        session.send("q")
    }

    @Test("SQLite and PostgreSQL, flat and in a company's list: the same", arguments: [ConflictEndToEndTests.Kind.sqlite, .postgres],
          [Arrangement.flat, .companyList])
    func database(_ kind: ConflictEndToEndTests.Kind, _ arrangement: Arrangement) throws {
        let (target, environment, cleanUp) = try ConflictEndToEndTests.source(kind)
        defer { cleanUp() }
        let session = try Self.open(target, environment: environment, arrangement)
        Self.check(session, arrangement)
        session.send("q")
    }
}
