import Testing
import TestSupport
@testable import RosterCore

@Suite("The org chart's visible rows")
struct OrgChartRowsTests {
    /// 0 at the top; 1 and 2 report to 0; 3 and 4 to 1; 5 to 3; 6 alone at the top.
    static let tree = OrgTree(managers: [-1, 0, 0, 1, 1, 3, -1])

    static func people(_ rows: OrgChartRows) -> [Int?] {
        rows.rows(0..<rows.count).map(\.person)
    }

    @Test("at first only the top people show, closed")
    func topOnly() {
        let rows = OrgChartRows(Self.tree.outline)
        #expect(Self.people(rows) == [0, 6])
        #expect(rows.row(0).hasChildren && !rows.row(0).isExpanded && !rows.row(1).hasChildren)
        #expect(rows.row(0).teamSize == 2 && rows.row(0).organisationSize == 5)
    }

    @Test("opening at a person expands their chain down to them, and nothing else")
    func openAtPerson() {
        var rows = OrgChartRows(Self.tree.outline)
        #expect(rows.open(at: 5) == 3)
        #expect(Self.people(rows) == [0, 1, 3, 5, 4, 2, 6])
        #expect(rows.rows(0..<rows.count).map(\.depth) == [0, 1, 2, 3, 2, 1, 0])
        #expect(rows.rows(0..<rows.count).map(\.isLastChild) == [false, false, false, true, true, true, true])
        #expect(rows.rowIndex(of: 4) == 4 && rows.rowIndex(of: 2) == 5)
    }

    @Test("Space closes and opens; the rows after move by what was hidden or shown")
    func toggle() {
        var rows = OrgChartRows(Self.tree.outline)
        rows.open(at: 5)
        rows.toggle(row: 1)
        #expect(Self.people(rows) == [0, 1, 2, 6])
        #expect(rows.rowIndex(of: 5) == nil)
        #expect(rows.nearestVisibleRow(toPosition: rows.outline.position(of: 5) ?? -1) == 1)
        rows.toggle(row: 1)
        #expect(Self.people(rows) == [0, 1, 3, 5, 4, 2, 6], "what was open under it opens again")
        rows.toggle(row: 6)
        #expect(Self.people(rows) == [0, 1, 3, 5, 4, 2, 6], "a person with no reports has nothing to open")
    }

    @Test("left goes to the manager, right to the first report of an open manager")
    func moves() {
        var rows = OrgChartRows(Self.tree.outline)
        rows.open(at: 5)
        #expect(rows.managerRow(of: 3) == 2)
        #expect(rows.managerRow(of: 4) == 1)
        #expect(rows.managerRow(of: 0) == nil)
        #expect(rows.firstReportRow(of: 1) == 2)
        #expect(rows.firstReportRow(of: 5) == nil, "no reports")
        rows.toggle(row: 1)
        #expect(rows.firstReportRow(of: 1) == nil, "closed: the screen opens it first")
    }

    @Test("tree lines: for each level, whether the line goes on past the row")
    func continuingLevels() {
        var rows = OrgChartRows(Self.tree.outline)
        rows.open(at: 5)
        let five = rows.outline.position(of: 5) ?? -1
        #expect(rows.continuingLevels(ofPosition: five) == [true, true], "1 has 2 after it, 3 has 4 after it")
        let four = rows.outline.position(of: 4) ?? -1
        #expect(rows.continuingLevels(ofPosition: four) == [true])
    }

    /// The rows worked out from scratch: each position whose managers are all open.
    static func rebuilt(_ rows: OrgChartRows) -> [OrgChartRow] {
        let outline = rows.outline
        return (0..<outline.count).filter { position in
            var manager = outline.manager(at: position)
            while let above = manager {
                if !rows.isExpanded(position: above) { return false }
                manager = outline.manager(at: above)
            }
            return true
        }.map(rows.row(atPosition:))
    }

    /// A forest of `count` people with loops, self-references and missing managers.
    static func randomTree(_ random: inout SeededRandom, count: Int) -> OrgTree {
        let managers = (0..<count).map { person -> Int32 in
            switch random.below(20) {
            case 0: return -1
            case 1: return Int32(random.below(count + 3))  // now and then a loop, itself, or out of range
            default: return person == 0 ? -1 : Int32(random.below(person))
            }
        }
        return OrgTree(managers: managers, order: .keys((0..<count).map { _ in Int32(random.below(50)) }))
    }

    @Test("after any run of opens, closes and openings at a person, the rows are what a rebuild gives",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func matchesRebuild(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let tree = Self.randomTree(&random, count: 1 + random.below(400))
        // The whole chart, or a search's (with its N not shown lines).
        let outline = seed % 2 == 0 ? tree.outline
            : tree.searchOutline(matching: (0..<tree.count).filter { _ in random.below(8) == 0 })
        var rows = random.below(2) == 0 ? OrgChartRows(outline) : OrgChartRows(outline) { _ in random.below(2) == 0 }
        for _ in 0..<200 {
            switch random.below(3) {
            case 0: rows.toggle(row: random.below(rows.count))
            case 1: _ = rows.open(at: random.below(tree.count))
            default: rows.setExpanded(false, position: random.below(outline.count))
            }
            let expected = Self.rebuilt(rows)
            #expect(rows.count == expected.count)
            #expect(rows.rows(0..<rows.count) == expected)
            for (index, row) in expected.enumerated() where index % 7 == 0 {
                #expect(rows.row(index) == row)
                #expect(rows.rowIndex(ofPosition: row.position) == index)
                if let person = row.person { #expect(rows.rowIndex(of: person) == index) }
            }
        }
    }
}
