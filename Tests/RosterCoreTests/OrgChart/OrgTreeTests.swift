import Testing
@testable import RosterCore

@Suite("The org chart's tree")
struct OrgTreeTests {
    /// 0 at the top; 1 and 2 report to 0; 3 and 4 to 1; 5 to 3.
    static let small = OrgTree(managers: [-1, 0, 0, 1, 1, 3])

    @Test("reports in CSR form, depth, team and organisation sizes, the chain up")
    func counts() {
        let tree = Self.small
        #expect(tree.roots == [0])
        #expect(Array(tree.directReports(of: 0)) == [1, 2])
        #expect(Array(tree.directReports(of: 1)) == [3, 4])
        #expect(tree.directReports(of: 2).isEmpty)
        #expect(tree.reportOffsets == [0, 2, 4, 4, 5, 5, 5])
        #expect((0..<6).map(tree.teamSize) == [2, 2, 0, 1, 0, 0])
        #expect((0..<6).map(tree.organisationSize) == [5, 3, 0, 1, 0, 0])
        #expect((0..<6).map(tree.depth) == [0, 1, 1, 2, 2, 3])
        #expect(tree.managerChain(of: 5) == [3, 1, 0])
        #expect(tree.managerChain(of: 0).isEmpty)
        #expect(tree.isUnder(5, 1) && tree.isUnder(5, 0) && !tree.isUnder(2, 1) && !tree.isUnder(1, 1))
        #expect(tree.cycles.isEmpty && tree.problemCounts.isEmpty)
        #expect(tree.rootReason(of: 0) == .noManager && tree.rootReason(of: 3) == .hasManager)
    }

    @Test("reports and top people in the order asked: by keys, or by a comparison")
    func order() {
        let byKeys = OrgTree(managers: [-1, 0, 0, 1, 1, 3, -1], order: .keys([5, 3, 1, 0, 2, 0, 4]))
        #expect(byKeys.roots == [6, 0])
        #expect(Array(byKeys.directReports(of: 0)) == [2, 1])
        #expect(Array(byKeys.directReports(of: 1)) == [3, 4])
        #expect(byKeys.outline.entries == [6, 0, 2, 1, 3, 5, 4])
        let descending = OrgTree(managers: [-1, 0, 0, 0], order: .comparator { $0 > $1 })
        #expect(Array(descending.directReports(of: 0)) == [3, 2, 1])
    }

    @Test("a two-person loop: both at the top, flagged, named; their other reports stay under them")
    func twoCycle() {
        let tree = OrgTree(managers: [1, 0, 0, -1])
        #expect(tree.cycles == [[0, 1]])
        #expect(tree.roots == [0, 1, 3])
        #expect(tree.rootReason(of: 0) == .inCycle && tree.rootReason(of: 1) == .inCycle)
        #expect(tree.rootReason(of: 3) == .noManager)
        #expect(Array(tree.directReports(of: 0)) == [2])
        #expect(tree.problemCounts == [.inCycle: 2])
        #expect(tree.cycle(containing: 1) == [0, 1] && tree.cycle(containing: 2) == nil)
    }

    @Test("a three-person loop with a tail hanging off it: the loop found from the tail, the tail under its member")
    func cycleWithTail() {
        // 0 → 1 → 2 → 3 → 1: 0 hangs off the loop 1, 2, 3; 4 → 0 hangs off the tail.
        let tree = OrgTree(managers: [1, 2, 3, 1, 0])
        #expect(tree.cycles == [[1, 2, 3]])
        #expect(tree.roots == [1, 2, 3])
        #expect(tree.managerChain(of: 4) == [0, 1])
        #expect(tree.organisationSize(of: 1) == 2)
        #expect(tree.depth(of: 4) == 2)
        #expect(tree.rootReason(of: 0) == .hasManager)
    }

    @Test("loops are named from their lowest member, in reporting order, whatever member is met first")
    func cycleOrder() {
        // 5 → 3 → 4 → 5, and 2 → 0 → 2.
        let tree = OrgTree(managers: [2, -1, 0, 4, 5, 3])
        #expect(tree.cycles == [[0, 2], [3, 4, 5]])
    }

    @Test("a self-reference and a manager out of range are top people with their reason")
    func selfAndMissing() {
        let tree = OrgTree(managers: [0, 7, -1])
        #expect(tree.roots == [0, 1, 2])
        #expect(tree.rootReason(of: 0) == .selfReference)
        #expect(tree.rootReason(of: 1) == .missingManager)
        #expect(tree.problemCounts == [.selfReference: 1, .missingManager: 1])
    }

    @Test("from a resolution: missing, ambiguous and self-references become flagged top people")
    func fromResolution() {
        let index = orgDirectory([
            orgPerson("a", "Ann"), orgPerson("b", "Bo", manager: "a"), orgPerson("c", "Bo", manager: "zed"),
            orgPerson("d", "Di", manager: "bo"), orgPerson("e", "Ed", manager: "e"), orgPerson("f", "Fy", manager: "g"),
            orgPerson("g", "Gu", manager: "f"),
        ])
        let tree = OrgTree(ManagerResolution(index))
        #expect(tree.roots == [0, 2, 3, 4, 5, 6])
        #expect([2, 3, 4, 5, 6, 1].map(tree.rootReason) == [.missingManager, .ambiguousManager, .selfReference,
                                                            .inCycle, .inCycle, .hasManager])
        #expect(tree.cycles == [[5, 6]])
        #expect(tree.problemSummary
                == #"1 with a manager not here, 1 with an ambiguous manager ("bo" names 2 people), 1 their own manager, 1 loop of managers"#)
        #expect(Self.small.problemSummary == nil)
    }

    @Test("a chain a million deep: built without recursion, each depth and size right")
    func millionDeepChain() {
        let count = 1_000_000
        let tree = OrgTree(managers: (0..<count).map { Int32($0 - 1) })
        #expect(tree.depth(of: count - 1) == count - 1)
        #expect(tree.organisationSize(of: 0) == count - 1)
        #expect(tree.organisationSize(of: count / 2) == count / 2 - 1)
        #expect(tree.managerChain(of: count - 1).count == count - 1)
        #expect(tree.isUnder(count - 1, 0))
        var rows = OrgChartRows.allExpanded(tree.outline)
        #expect(rows.rowIndex(of: count - 1) == count - 1)
        #expect(rows.managerRow(of: count - 1) == count - 2)
        rows.toggle(row: 0)
        #expect(rows.count == 1)
        #expect(rows.open(at: count - 1) == count - 1, "everyone under the top was left open")
        #expect(rows.count == count)
    }

    @Test("a million people in one loop: found and broken, no hang")
    func millionLoop() {
        let count = 1_000_000
        let tree = OrgTree(managers: (0..<count).map { Int32(($0 + 1) % count) })
        #expect(tree.cycles.count == 1 && tree.cycles[0].count == count)
        #expect(tree.cycles[0].prefix(3) == [0, 1, 2])
        #expect(tree.roots.count == count)
    }
}
