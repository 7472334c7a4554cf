import Foundation
import Testing
import TestTraits

/// The org chart (`T`) on the real binary in tmux: a file whose people name
/// their manager by id, email and full name, one a manager not here.
@Suite("The org chart, end to end", .serialized, .blockingWork)
struct OrgChartEndToEndTests {
    static let people = """
        [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org", "company": "ANALYTICAL"},
         {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@example.org", "manager": "a1"},
         {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@example.org", "manager": "grace@example.org"},
         {"_id": "k4", "name": {"first": "Katherine", "last": "Johnson"}, "email": "kj@example.org", "manager": "Grace Hopper"},
         {"_id": "n5", "name": {"first": "Nell", "last": "Wall"}, "email": "nell@example.org", "manager": "Nobody Here"}]
        """

    static func temporary(_ text: String) throws -> String {
        let folder = NSTemporaryDirectory() + "roster-e2e-org-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/org.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    @Test("T opens the chart at the person, → opens a manager, ⏎ opens a person, Esc and q come back", arguments: [(24, 80), (12, 40)])
    func browse(rows: Int, columns: Int) throws {
        let path = try Self.temporary(Self.people)
        defer { Self.remove(path) }
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) --no-state \(TmuxSession.shellQuoted(path))",
                                      rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/5"))
        session.send("T")
        // The list starts at Ada (ANALYTICAL comes first): the chart opens on her, closed; Nell's manager is not here.
        #expect(session.waitFor("the chart at Ada") { $0.contains("org chart") && $0.contains("▸ Ada Lovelace") && $0.contains("Nell Wall") })
        #expect(session.waitFor(text: "1/2 · everyone"))
        if columns >= 80 { #expect(session.screen().contains("! 1 with a manager not here")) }
        session.send("Right")
        #expect(session.waitFor("Ada's team shown") { $0.contains("▾ Ada Lovelace") && $0.contains("▸ Grace Hopper") })
        session.send("Right", "Right")
        // Grace's reports in the list's order: Johnson before Turing.
        #expect(session.waitFor("Grace's team shown") {
            $0.contains("▾ Grace Hopper") && $0.contains("Katherine Johnson") && $0.contains("Alan Turing") && $0.contains("2/5")
        })
        session.send("j", "Enter")
        #expect(session.waitFor("Katherine's screen") { $0.contains("First name") && $0.contains("Katherine") })
        if rows >= 24 {
            #expect(session.waitFor("her manager and team") { $0.contains("Manager  Grace Hopper <grace@example.org>") && $0.contains("Reports  none") })
        }
        session.send("Escape")
        #expect(session.waitFor("back in the chart on Katherine") { $0.contains("org chart") && $0.contains("3/5") })
        session.send("q")
        #expect(session.waitFor("back in the list") { $0.contains("1/5") && !$0.contains("org chart") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("T on a person's screen opens the chart at them (q comes back to their screen); T on a person opened from the chart goes back to it, at them")
    func fromPersonsScreen() throws {
        let path = try Self.temporary(Self.people)
        defer { Self.remove(path) }
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) --no-state --sort last \(TmuxSession.shellQuoted(path))",
                                      rows: 24, columns: 80)
        #expect(session.waitFor(text: "1/5"))
        session.send("j", "Enter")
        #expect(session.waitFor("Grace's screen") { $0.contains("First name  Grace") })
        session.send("T")
        #expect(session.waitFor("the chart at Grace") { $0.contains("org chart") && $0.contains("▸ Grace Hopper") && $0.contains("2/3 · everyone") })
        session.send("Right", "Right")
        #expect(session.waitFor("at Katherine, Grace's first report") { $0.contains("▾ Grace Hopper") && $0.contains("3/5 · everyone") })
        session.send("Enter")
        #expect(session.waitFor("Katherine's screen over the chart") { $0.contains("First name  Katherine") })
        // E edits her there too (it did nothing on a screen opened from the chart); Esc comes back.
        session.send("E")
        #expect(session.waitFor("the form on Katherine") { $0.contains("Roster — Edit Katherine Johnson") })
        session.send("Escape")
        #expect(session.waitFor("Katherine's screen again") { $0.contains("First name  Katherine") })
        session.send("T")
        #expect(session.waitFor("back on the chart at Katherine") { $0.contains("org chart") && $0.contains("3/5 · everyone") })
        session.send("q")
        #expect(session.waitFor("Grace's screen, under the chart") { $0.contains("First name  Grace") })
        session.send("Escape")
        // One chart was opened, not a second over Katherine's screen: Esc is back in the list.
        #expect(session.waitFor("back in the list") { $0.contains("2/5") && $0.contains("last name") && !$0.contains("org chart") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("the sample has a chart: roster, then T, opens it at the list's first person under their company's head, as the README shows; its searches answer")
    func sample() throws {
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) --no-state", rows: 24, columns: 80)
        #expect(session.waitFor(text: "1/400"))
        session.send("T")
        #expect(session.waitFor(text: "2/43 · everyone"))
        let lines = session.screen().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasSuffix("400 people · 38 at the top") == true, "\(lines.first ?? "")")
        #expect(lines.dropFirst().prefix(5).map { $0.trimmingCharacters(in: .whitespaces) } == [
            "▾ Renée Vega  renee.vega@comgy.com  (5 reports · 5 in all)", "Frank Dillon  frank.dillon@comgy.io",
            "José Garza  jose.garza@comgy.org", "Tammy Noble  tammy.noble@comgy.co.uk", "Agnes Sanchez  agnes.sanchez@comgy.com",
        ])
        #expect(!session.screen().contains("!"), "no problem in the sample's chart")
        session.send("q")
        #expect(session.waitFor(text: "1/400"))
        session.send("q")
        #expect(session.exitStatus() == 0)
        // Three levels in a large company: its head, their managers, everyone else.
        let under = try runRoster(["--list", "--filter", #"under:"Boyd Joyner""#])
        #expect(under.status == 0 && under.output.split(separator: "\n").count == 27, "a heading and 26 people: \(under.output)")
        let direct = try runRoster(["--list", "--filter", "reports-to:boyd.joyner@lotro.io"])
        #expect(direct.status == 0 && direct.output.contains("Ulla Sharp") && direct.output.split(separator: "\n").count == 4)
        let managers = try runRoster(["--list", "--filter", "depth=1 company:lotro"])
        #expect(managers.output == direct.output, "the head's reports are the company's whole first level")
    }

    @Test("a file without manager fields says so on one screen, not an empty chart")
    func noManagers() throws {
        let path = try Self.temporary(#"[{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}}]"#)
        defer { Self.remove(path) }
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) --no-state \(TmuxSession.shellQuoted(path))",
                                      rows: 12, columns: 40)
        #expect(session.waitFor(text: "1/1"))
        session.send("T")
        #expect(session.waitFor("the one line in place of the chart") { $0.contains("No one in") && $0.contains("there is no org chart") })
        #expect(!session.screen().contains("⏎ person"), "no hint of a key that does nothing here")
        session.send("Escape")
        #expect(session.waitFor(text: "1/1"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("--list --tree prints the chart indented under each top person's company (a report in another company names it); --filter keeps the matches' chains")
    func treeList() throws {
        let path = try Self.temporary(Self.people.replacingOccurrences(of: "\"alan@example.org\",", with: "\"alan@example.org\", \"company\": \"BLETCHLEY\","))
        defer { Self.remove(path) }
        let listed = try runRoster(["--list", "--tree", path])
        #expect(listed.status == 0)
        #expect(listed.output == """
            ANALYTICAL — 1 at the top, 4 people in all
              Ada Lovelace <ada@example.org>
                Grace Hopper <grace@example.org>
                  Alan Turing <alan@example.org> [BLETCHLEY]
                  Katherine Johnson <kj@example.org>
            No company — 1 at the top, 1 person in all
              Nell Wall <nell@example.org>  ! manager not here: "Nobody Here"

            """)
        #expect(listed.error.contains("1 with a manager not here"))
        let filtered = try runRoster(["--list", "--tree", "--filter", "alan", path])
        #expect(filtered.status == 0)
        #expect(filtered.output.contains("    Grace Hopper <grace@example.org>\n      Alan Turing <alan@example.org> [BLETCHLEY]\n      1 not shown\n"),
                "\(filtered.output)")
        #expect(!filtered.output.contains("Katherine") && !filtered.output.contains("Nell"))
        // No match prints nothing, as --list does; a term that cannot be answered says why.
        let none = try runRoster(["--list", "--tree", "--filter", "zzzq", path])
        #expect(none.status == 0 && none.output.isEmpty, "\(none.output)")
        let unknown = try runRoster(["--list", "--tree", "--filter", "under:zed", path])
        #expect(unknown.status == 1 && unknown.error.contains("--filter could not be run: under:zed: nobody here has that"), "\(unknown.error)")
    }

    @Test("--tree of a file without managers says so (status 1); --tree without --list is a usage error")
    func treeListRefusals() throws {
        let path = try Self.temporary(#"[{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}}]"#)
        defer { Self.remove(path) }
        let plain = try runRoster(["--list", "--tree", path])
        #expect(plain.status == 1 && plain.output.isEmpty && plain.error.contains("has a \"manager\" field"))
        let alone = try runRoster(["--tree", path])
        #expect(alone.status == 2 && alone.error.contains("--tree goes with --list"))
    }
}
