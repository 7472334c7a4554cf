import Foundation
import Testing
import TestTraits

/// `reports-to:X`, `under:X` and `depth` on the real binary: the list's
/// search and `--filter` over a JSON file whose people name their managers.
@Suite("Org chart queries, end to end", .serialized, .blockingWork)
struct OrgQueryEndToEndTests {
    static func file() throws -> String {
        try OrgChartEndToEndTests.temporary(OrgChartEndToEndTests.people)
    }

    @Test("/ under:\"Ada Lovelace\" narrows the list to her organisation, the status bar names the filter; a person nobody is is said under the prompt",
          arguments: [(24, 80), (15, 60)])
    func searchUnder(rows: Int, columns: Int) throws {
        let path = try Self.file()
        defer { OrgChartEndToEndTests.remove(path) }
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) --no-state \(TmuxSession.shellQuoted(path))",
                                      rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/5"))
        session.send("/")
        session.send(#"under:"Ada Lovelace""#)
        #expect(session.waitFor("Ada's organisation: Grace, Alan, Katherine") { screen in
            screen.contains("Grace") && screen.contains("Turing") && screen.contains("Johnson")
                && !screen.contains("Nell") && !screen.contains("Lovelace  ")
        })
        session.send("Enter")
        #expect(session.waitFor("the filter named in the status bar") { $0.contains("1/3") && $0.contains(#"filter: under:"Ada Lovelace""#) })
        // Narrowed further with a plain term: Grace's reports but Alan.
        session.send("/")
        session.send(" -turing")
        #expect(session.waitFor("Alan left out") { $0.contains("Johnson") && !$0.contains("Turing") })
        session.send("Enter")
        #expect(session.waitFor(text: "1/2"))
        session.send("/", "C-u")
        session.send("under:zed")
        #expect(session.waitFor("why, under the prompt") { $0.contains("search failed: under:zed: nobody here has that _id") })
        session.send("Escape")
        #expect(session.waitFor("the filter kept") { $0.contains(#"filter: under:"Ada Lovelace" -turing"#) || $0.contains("filter: under:") })
        session.send("Escape")
        #expect(session.waitFor("everyone again") { $0.contains("5 people") && !$0.contains("filter:") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("--list --filter takes reports-to:, under: and depth as / does; a person nobody is, and a file without managers, fail in one line")
    func listFilter() throws {
        let path = try Self.file()
        defer { OrgChartEndToEndTests.remove(path) }
        let reports = try runRoster(["--list", "--filter", "reports-to:grace@example.org", path])
        #expect(reports.status == 0)
        #expect(reports.output.contains("Katherine Johnson") && reports.output.contains("Alan Turing") && !reports.output.contains("Grace"))
        let deep = try runRoster(["--list", "--filter", "depth>=2 -name:alan", path])
        #expect(deep.status == 0 && deep.output.contains("Katherine Johnson") && !deep.output.contains("Turing"))
        let nobody = try runRoster(["--list", "--filter", "under:zed", path])
        #expect(nobody.status == 1 && nobody.output.isEmpty)
        #expect(nobody.error.contains("under:zed: nobody here has that _id, email, DN or name"))
        let plain = try OrgChartEndToEndTests.temporary(#"[{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}}]"#)
        defer { OrgChartEndToEndTests.remove(plain) }
        let none = try runRoster(["--list", "--filter", "under:a1", plain])
        #expect(none.status == 1 && none.error.contains(#"has no managers (no "manager" field)"#))
        let query = try runRoster(["query", "--no-cache", path, "under:a1", "email:kj"])
        #expect(query.status == 0 && query.output.contains("kj@example.org"))
    }
}
