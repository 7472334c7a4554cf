import Foundation
import Testing
import TestTraits

/// The person's screen's chain of managers, F's counts by manager and the
/// chart kept live, on the real binary in tmux over a file.
@Suite("The org chart: the chain, counts by manager, the live chart, end to end", .serialized, .blockingWork)
struct OrgChartLiveEndToEndTests {
    static let people = OrgChartEndToEndTests.people

    /// How far in `name`'s line starts on `screen` (its level in the chart), nil when not shown.
    func indent(of name: String, in screen: String) -> Int? {
        screen.split(separator: "\n").first { $0.contains(name) }.map { line in
            line.prefix { $0 == " " }.count
        }
    }

    /// Roster over a new file of `people`, showing the one person `searching` finds (everyone when nil).
    func open(searching: String?, rows: Int, columns: Int) throws -> (TmuxSession, String) {
        let path = try OrgChartEndToEndTests.temporary(Self.people)
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) --no-state \(TmuxSession.shellQuoted(path))",
                                      rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/5"))
        if let searching {
            session.send("/", searching, "Enter")
            #expect(session.waitFor(text: "1/1"))
        }
        return (session, path)
    }

    @Test("another program moves someone to a new manager, adds and deletes people: the open chart shows it without a key, what was open kept open",
          arguments: [(24, 80), (15, 60)])
    func liveChart(rows: Int, columns: Int) throws {
        let (session, path) = try open(searching: "Katherine", rows: rows, columns: columns)
        defer { OrgChartEndToEndTests.remove(path) }
        session.send("T")
        // Opened at Katherine: her chain open down to her, under Grace.
        #expect(session.waitFor("Katherine under Grace") {
            $0.contains("▾ Grace Hopper") && indent(of: "Katherine Johnson", in: $0) == 7 && $0.contains("3/5")
        })
        // Another program moves Katherine to Ada, adds Margaret under Grace, deletes Nell.
        let moved = """
            [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org", "company": "ANALYTICAL"},
             {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@example.org", "manager": "a1"},
             {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@example.org", "manager": "grace@example.org"},
             {"_id": "k4", "name": {"first": "Katherine", "last": "Johnson"}, "email": "kj@example.org", "manager": "a1"},
             {"_id": "m6", "name": {"first": "Margaret", "last": "Hamilton"}, "email": "mh@example.org", "manager": "g2"}]
            """
        try moved.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(session.waitFor("Katherine moved under Ada, still selected; Grace still open; Margaret in, Nell out") { screen in
            indent(of: "Katherine Johnson", in: screen) == 5 && screen.contains("▾ Grace Hopper")
                && screen.contains("Margaret Hamilton") && !screen.contains("Nell Wall") && screen.contains("org chart")
        })
        let selected = session.screen().split(separator: "\n").last.map(String.init) ?? ""
        #expect(selected.contains("/5 · everyone"))
        session.send("Enter")
        #expect(session.waitFor("Enter opens Katherine, the one still selected") { $0.contains("Roster — Katherine Johnson") })
        session.send("Escape")
        #expect(session.waitFor(text: "org chart"))
        session.send("q")
        #expect(session.waitFor("back in the list, its search kept") { !$0.contains("org chart") && $0.contains("1 of 5 people") })
        session.send("Escape")
        #expect(session.waitFor("the list read again too") { $0.contains("Hamilton") && !$0.contains("Nell") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("the person's screen names the chain of managers; Tab and Enter open one, Esc comes back", arguments: [(24, 80), (15, 60)])
    func chain(rows: Int, columns: Int) throws {
        let (session, path) = try open(searching: "Turing", rows: rows, columns: columns)
        defer { OrgChartEndToEndTests.remove(path) }
        session.send("Enter")
        #expect(session.waitFor(text: "Roster — Alan Turing"))
        // End again until the chart is read: a small screen's last fields are the chart's rows.
        #expect(session.waitFor("Alan's chain: Grace, then Ada at the top") { screen in
            if !screen.contains("Chain  ") { session.send("End") }
            return screen.contains("Chain  Grace Hopper › Ada Lovelace")
        })
        // S-Tab from the email wraps to the last stop: Ada, the top of the chain (Alan has no reports).
        session.send("BTab", "BTab", "BTab", "BTab", "Enter")
        #expect(session.waitFor("Ada's screen") { $0.contains("Roster — Ada Lovelace") })
        session.send("End")
        #expect(session.waitFor("her team") { $0.contains("Reports  1 (3 in all)") && $0.contains("Grace Hopper") })
        session.send("Escape")
        #expect(session.waitFor("back on Alan") { $0.contains("Roster — Alan Turing") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("F counts by manager: each manager's team size, (none) for those at the top; Enter lists a team")
    func countsByManager() throws {
        let (session, path) = try open(searching: nil, rows: 24, columns: 80)
        defer { OrgChartEndToEndTests.remove(path) }
        session.send("F")
        #expect(session.waitFor(text: "counts by company"))
        session.send("F")
        #expect(session.waitFor("team sizes") { screen in
            let lines = screen.split(separator: "\n").map(String.init)
            return screen.contains("counts by manager")
                && lines.contains { $0.hasPrefix(" Grace Hopper") && $0.contains(" 2 ") }
                && lines.contains { $0.hasPrefix(" Ada Lovelace") && $0.contains(" 1 ") }
                && lines.contains { $0.hasPrefix(" (none)") && $0.contains(" 2 ") }
        })
        session.send("j", "Enter")
        #expect(session.waitFor("Grace's team listed") { screen in
            screen.contains("counts by manager › Grace Hopper") && screen.contains("Alan Turing") && screen.contains("Katherine Johnson")
                && !screen.contains("Nell Wall")
        })
        session.send("Escape")
        #expect(session.waitFor(text: "counts by manager"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
