import Testing
import TestSupport
@testable import RosterCore

@Suite("A search keeps the org chart")
struct OrgSearchTests {
    /// 0 at the top; 1, 2, 3 report to 0; 4, 5 to 1; 6 to 2; 7, 8 to 6; 9 alone at the top.
    static let tree = OrgTree(managers: [-1, 0, 0, 0, 1, 1, 2, 6, 6, -1])

    static func lines(_ rows: OrgChartRows) -> [String] {
        rows.rows(0..<rows.count).map { row in
            let indent = String(repeating: "  ", count: row.depth)
            switch row.entry {
            case .person(let person): return indent + "P\(person)" + (row.isContext ? " (context)" : "")
                + (row.hasChildren ? " team \(row.teamSize) org \(row.organisationSize)" : "")
            case .notShown(let count): return indent + "\(count) not shown"
            }
        }
    }

    @Test("matches inside their chains, managers as context, N not shown per branch and at the top; counts of matches")
    func matchesInChains() {
        let rows = OrgChartRows.openToMatches(Self.tree.searchOutline(matching: [7, 5]))
        #expect(Self.lines(rows) == [
            "P0 (context) team 0 org 2",
            "  P1 (context) team 1 org 1",
            "    P5",
            "    1 not shown",
            "  P2 (context) team 0 org 1",
            "    P6 (context) team 1 org 1",
            "      P7",
            "      1 not shown",
            "  1 not shown",
            "1 not shown",
        ])
    }

    @Test("a match whose reports all miss stays closed on its N not shown; opened, it shows it")
    func matchingManager() {
        var rows = OrgChartRows.openToMatches(Self.tree.searchOutline(matching: [1]))
        #expect(Self.lines(rows) == ["P0 (context) team 1 org 1", "  P1 team 0 org 0", "  2 not shown", "1 not shown"])
        #expect(!rows.row(1).isExpanded)
        rows.toggle(row: 1)
        #expect(Self.lines(rows)[2] == "    2 not shown")
    }

    @Test("a manager and a report both matching: the manager is no context, and counts both")
    func nestedMatches() {
        let rows = OrgChartRows.openToMatches(Self.tree.searchOutline(matching: [0, 6, 8]))
        #expect(Self.lines(rows) == [
            "P0 team 0 org 2", "  P2 (context) team 1 org 2", "    P6 team 1 org 1", "      P8", "      1 not shown",
            "  2 not shown", "1 not shown",
        ])
    }

    @Test("nothing matching: one line for everyone at the top; everyone matching: the whole chart")
    func noneAndAll() {
        #expect(Self.lines(OrgChartRows.openToMatches(Self.tree.searchOutline(matching: []))) == ["2 not shown"])
        let all = OrgChartRows.openToMatches(Self.tree.searchOutline(matching: 0..<10))
        #expect(all.rows(0..<all.count).compactMap(\.person) == Self.tree.outline.entries.map(Int.init))
        #expect(all.row(0).organisationSize == Self.tree.organisationSize(of: 0))
    }

    @Test("a person is found in a search's chart (the screen opens at them), and one left out is not")
    func findPerson() {
        var rows = OrgChartRows(Self.tree.searchOutline(matching: [7, 5]))
        #expect(rows.count == 2)
        #expect(rows.open(at: 7) == 4, "P0, P1 (closed), P2, P6, P7")
        #expect(rows.rowIndex(of: 7) == 4)
        #expect(rows.rowIndex(of: 6) == 3)
        #expect(rows.rowIndex(of: 8) == nil)
        #expect(rows.outline.position(of: 3) == nil)
    }

    @Test("on random charts: every match and its managers shown, nothing else but N not shown lines that add up",
          arguments: [11, 12, 13, 14])
    func randomSearches(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let tree = OrgChartRowsTests.randomTree(&random, count: 1 + random.below(300))
        let matches = Set((0..<tree.count).filter { _ in random.below(10) == 0 })
        let outline = tree.searchOutline(matching: matches)
        let shown = Set((0..<outline.count).compactMap(outline.person(at:)))
        let expected = matches.union(matches.flatMap(tree.managerChain))
        #expect(shown == expected)
        for position in 0..<outline.count {
            let person = outline.person(at: position)
            let team = person.map(tree.teamSize) ?? 0
            let reportsHere = (position + 1..<outline.end(of: position)).filter { outline.manager(at: $0) == position }
            let hidden = reportsHere.reduce(0) { total, child in
                if case .notShown(let count) = outline.entry(at: child) { return total + count }
                return total + 1
            }
            #expect(hidden == team, "each report shown or counted as not shown")
            if let person {
                #expect(outline.isContext(at: position) == !matches.contains(person))
                let under = (0..<tree.count).filter { matches.contains($0) && tree.isUnder($0, person) }.count
                #expect(outline.organisationSize(at: position) == under)
            }
        }
    }
}
