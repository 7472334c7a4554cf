import Testing
@testable import RosterCore

@Suite("roster --list --tree as text")
struct OrgChartTextTests {
    static func label(_ row: OrgChartRow) -> String {
        "P\(row.person ?? -1)" + (row.teamSize > 0 ? " (\(row.teamSize) reports, \(row.organisationSize) in all)" : "")
    }

    @Test("the whole chart, two spaces a level, each person under their manager")
    func indented() {
        let rows = OrgChartRows.allExpanded(OrgTree(managers: [-1, 0, 0, 1, 1, 3, -1]).outline)
        #expect(OrgChartText(style: .indented).text(rows, line: Self.label) == """
            P0 (2 reports, 5 in all)
              P1 (2 reports, 3 in all)
                P3 (1 reports, 1 in all)
                  P5
                P4
              P2
            P6

            """)
    }

    @Test("tree lines, a search's matches inside their chains with N not shown")
    func treeLines() {
        let tree = OrgSearchTests.tree
        let rows = OrgChartRows.openToMatches(tree.searchOutline(matching: [7, 5]))
        #expect(OrgChartText(style: .treeLines).text(rows) { "P\($0.person ?? -1)" } == """
            P0
            ├─ P1
            │  ├─ P5
            │  └─ 1 not shown
            ├─ P2
            │  └─ P6
            │     ├─ P7
            │     └─ 1 not shown
            └─ 1 not shown
            1 not shown

            """)
    }

    @Test("top people under a header per group (their company), counting them and everyone in their trees")
    func groups() {
        let companies = ["ACME", "ACME", "ACME", "Beta", "Beta"]
        let rows = OrgChartRows.allExpanded(OrgTree(managers: [-1, 0, -1, 2, -1]).outline)
        let text = OrgChartText(style: .treeLines) { companies[$0] }.text(rows) { "P\($0.person ?? -1)" }
        #expect(text == """
            ACME — 2 at the top, 4 people in all
              P0
              └─ P1
              P2
              └─ P3
            Beta — 1 at the top, 1 person in all
              P4

            """)
    }

    @Test("a chain deeper than the indentation goes says each deeper row's level instead", arguments: [
        OrgChartText.Style.indented, .treeLines,
    ])
    func deepChain(style: OrgChartText.Style) {
        let deepest = OrgChartText.deepestIndentation
        let rows = OrgChartRows.allExpanded(OrgTree(managers: (0..<(deepest + 3)).map { Int32($0 - 1) }).outline)
        let lines = OrgChartText(style: style).text(rows) { "P\($0.person ?? -1)" }.split(separator: "\n")
        #expect(lines.count == deepest + 3)
        let indentation = String(repeating: "  ", count: deepest)
        #expect(lines[deepest + 1] == indentation + "[level \(deepest + 1)] P\(deepest + 1)")
        #expect(lines[deepest + 2] == indentation + "[level \(deepest + 2)] P\(deepest + 2)")
        #expect(lines[deepest].hasSuffix("P\(deepest)") && !lines[deepest].contains("level"))
    }

    @Test("only what is open is written; large output comes in pieces, in order")
    func piecesInOrder() {
        let count = 30_000
        let tree = OrgTree(managers: (0..<count).map { Int32($0 == 0 ? -1 : ($0 - 1) / 3) })
        var rows = OrgChartRows(tree.outline)
        #expect(OrgChartText(style: .indented).text(rows) { "P\($0.person ?? -1)" } == "P0\n")
        rows = OrgChartRows.allExpanded(tree.outline)
        var pieces = 0
        var bytes: [UInt8] = []
        OrgChartText(style: .treeLines).write(rows, appendLine: { row, output in
            output.append(contentsOf: "P\(row.person ?? -1)".utf8)
        }, emit: { pieces += 1; bytes += $0 })
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(pieces > 1)
        #expect(lines.count == count)
        #expect(lines.map { Int($0.drop { !$0.isNumber }) ?? -1 } == tree.outline.entries.map(Int.init))
    }
}
