import Foundation
import Testing
import TestServers
import TestTraits

/// The org chart (`T`) of a PostgreSQL table on the real binary in tmux:
/// `roster import` keeps each person's manager, the chart resolves them,
/// and a manager changed by another process (`roster update … manager=`)
/// moves the person in the open chart; a change that would make a loop is
/// refused, nothing saved.
@Suite("The org chart of a database, end to end", .serialized, .blockingWork)
struct OrgChartDatabaseEndToEndTests {
    let environment = ["PGPASSWORD": TestPostgres.password]

    /// Roster on a new PostgreSQL database `OrgChartEndToEndTests.people`
    /// were imported into, its list shown; and the database's target.
    private func opened() throws -> (TmuxSession, String) {
        let file = try OrgChartEndToEndTests.temporary(OrgChartEndToEndTests.people)
        defer { OrgChartEndToEndTests.remove(file) }
        let server = try TestPostgres.server()
        let target = "postgres://postgres@/\(try server.makeDatabase())?host=\(server.socketDirectory)"
        let imported = try runRoster(["import", file, "--into", target], environment: environment)
        #expect(imported.status == 0, "\(imported.error)")
        let session = try TmuxSession("env PGPASSWORD=\(TestPostgres.password) \(TmuxSession.shellQuoted(rosterBinary)) --no-state "
                                      + TmuxSession.shellQuoted(target))
        #expect(session.waitFor(text: "1/5"))
        return (session, target)
    }

    @Test("the chart opens over PostgreSQL; another process's manager change moves the person in it; a loop is refused")
    func liveChart() throws {
        let (session, target) = try opened()
        session.send("T")
        #expect(session.waitFor("the chart at Ada") { $0.contains("org chart") && $0.contains("▸ Ada Lovelace") && $0.contains("Nell Wall") })
        if !session.screen().contains("! 1 with a manager not here") { Issue.record("the problem in the title: \(session.screen())") }
        session.send("Right", "Right", "Right")
        #expect(session.waitFor("Grace's team shown") {
            $0.contains("Ada Lovelace") && $0.contains("(1 report · 3 in all)") && $0.contains("▾ Grace Hopper")
                && $0.contains("Katherine Johnson") && $0.contains("Alan Turing")
        })
        // Alan now reports to Ada, by her _id: another process's save.
        let moved = try runRoster(["update", target, "t3", "manager=a1"], environment: environment)
        #expect(moved.status == 0, "\(moved.error)")
        #expect(moved.error.contains("Alan Turing: manager grace@example.org → a1"))
        #expect(session.waitFor("Alan moved under Ada in the open chart") {
            $0.contains("Ada Lovelace") && $0.contains("(2 reports · 3 in all)") && $0.contains("Grace Hopper") && $0.contains("(1 report · 1 in all)")
        })
        // Ada cannot report to Alan: he reports to her.
        let loop = try runRoster(["update", target, "a1", "manager=alan@example.org"], environment: environment)
        #expect(loop.status == 1)
        #expect(loop.error == "roster: \(target): Ada Lovelace cannot report to Alan Turing: Alan Turing reports to Ada Lovelace; nothing changed\n")
        session.send("q", "q")
        #expect(session.exitStatus() == 0)
    }

    /// The person's screen asks the table for the one person (their chain
    /// up, their team, then everyone under them), not everyone's chart; it
    /// follows another process's manager change while open.
    @Test("the person's screen over PostgreSQL: the chain, the team and its size; Enter opens a manager; another's change shows; a save comes back to it")
    func personsScreen() throws {
        let (session, target) = try opened()
        session.send("/", "Turing", "Enter")
        #expect(session.waitFor(text: "1/1"))
        session.send("Enter")
        #expect(session.waitFor("Alan's manager and chain") {
            $0.contains("Roster — Alan Turing") && $0.contains("Manager  Grace Hopper <grace@example.org>")
                && $0.contains("Chain  Grace Hopper › Ada Lovelace") && $0.contains("Reports  none")
        })
        session.send("BTab", "BTab", "BTab", "BTab", "Enter")
        #expect(session.waitFor("Ada's team, counted") {
            $0.contains("Roster — Ada Lovelace") && $0.contains("Manager  — (at the top)") && $0.contains("Reports  1 (3 in all)")
        })
        session.send("Escape")
        #expect(session.waitFor(text: "Roster — Alan Turing"))
        // Alan now reports to Ada, by her _id: another process's save reaches his open screen.
        let moved = try runRoster(["update", target, "t3", "manager=a1"], environment: environment)
        #expect(moved.status == 0, "\(moved.error)")
        #expect(session.waitFor("Alan under Ada") {
            $0.contains("Roster — Alan Turing") && $0.contains("Manager  Ada Lovelace <ada@example.org>") && $0.contains("Chain  Ada Lovelace")
        })
        // A save from his form comes back to his screen (the table's rows are read after the list's frame).
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit Alan Turing"))
        session.send("C-u")
        session.type("alan@saved.example")
        session.send("Enter")
        #expect(session.waitFor("his screen, saved") { $0.contains("Roster — Alan Turing") && $0.contains("alan@saved.example") })
        session.send("q", "q")
        #expect(session.exitStatus() == 0)
    }
}
