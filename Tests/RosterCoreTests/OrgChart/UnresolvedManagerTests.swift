import Testing
@testable import RosterCore

@Suite("A manager reference that names no one or several people, in words")
struct UnresolvedManagerTests {
    /// Two Ann Lees; Cy names "Ann Lee", Di "Zed" (no one), Ed himself, Fy Cy.
    static let tree = OrgTree(ManagerResolution(orgDirectory([
        orgPerson("a", "Ann Lee"), orgPerson("b", "Ann Lee"), orgPerson("c", "Cy", manager: "Ann Lee"),
        orgPerson("d", "Di", manager: "Zed"), orgPerson("e", "Ed", manager: "e"), orgPerson("f", "Fy", manager: "c"),
    ])))

    @Test("a person's line says the reason first, then what the reference was and how many it names")
    func personWords() {
        #expect(Self.tree.problem(of: 2) == #"manager ambiguous: "Ann Lee" names 2 people"#)
        #expect(Self.tree.problem(of: 3) == #"manager not here: "Zed""#)
        #expect(Self.tree.problem(of: 4) == "own manager")
        #expect(Self.tree.problem(of: 5) == nil, "a manager found is no problem")
        #expect(Self.tree.problem(of: 0) == nil, "nor is no manager at all")
        let reordered = Self.tree.inOrder(.keys([5, 4, 3, 2, 1, 0]))
        #expect(reordered.problem(of: 2) == #"manager ambiguous: "Ann Lee" names 2 people"#, "kept when the chart is put in the list's order")
    }

    @Test("the reference as the record spelled it, any case; a loop and a chart made of numbers keep their few words")
    func asSpelled() {
        let tree = OrgTree(ManagerResolution(orgDirectory([
            orgPerson("a", "Bo"), orgPerson("b", "Bo"), orgPerson("c", "Cy", manager: "bo"),
            orgPerson("d", "Di", manager: "e"), orgPerson("e", "Ed", manager: "d"),
        ])))
        #expect(tree.problem(of: 2) == #"manager ambiguous: "bo" names 2 people"#)
        #expect(tree.problem(of: 3) == "in a loop of managers")
        let numbers = OrgTree(managers: [-1, 9])
        #expect(numbers.problem(of: 1) == "manager not here", "no reference to quote")
    }

    @Test("the reference is made safe for the terminal, trimmed, and cut to 40 cells; the count grouped")
    func safeAndShort() {
        let hostile = UnresolvedManager.words(for: .ambiguous(reference: "  Ann\u{1B}[2J Lee ", people: 1_200))
        #expect(hostile == "manager ambiguous: \"Ann\u{241B}[2J Lee\" names 1,200 people")
        let long = String(repeating: "x", count: 60)
        let words = UnresolvedManager.words(for: .missing(reference: long))
        #expect(words == "manager not here: \"" + String(repeating: "x", count: 39) + "…\"")
        #expect(UnresolvedManager.words(for: .selfReference) == nil && UnresolvedManager.words(for: .none) == nil)
    }

    @Test("the title's problems name the ambiguous reference most people gave, and how many other references there are")
    func titleWords() {
        #expect(Self.tree.problemSummary
                == #"1 with a manager not here, 1 with an ambiguous manager ("Ann Lee" names 2 people), 1 their own manager"#)
        // Ann Lee twice and Bo Wu three times over: Cy and Di name Bo Wu, Fy "bo  wu" (the same, spelled
        // otherwise); Ed names Ann Lee.
        let several = OrgTree(ManagerResolution(orgDirectory([
            orgPerson("a", "Ann Lee"), orgPerson("b", "Ann Lee"), orgPerson("g", "Bo Wu"), orgPerson("h", "Bo Wu"),
            orgPerson("i", "Bo Wu"), orgPerson("e", "Ed", manager: "Ann Lee"), orgPerson("c", "Cy", manager: "Bo Wu"),
            orgPerson("d", "Di", manager: "Bo Wu"), orgPerson("f", "Fy", manager: "bo  wu"),
        ])))
        #expect(several.problemSummary == #"4 with an ambiguous manager ("Bo Wu" names 3 people, and 1 other reference)"#)
        // One each: the first person's reference.
        let tie = OrgTree(ManagerResolution(orgDirectory([
            orgPerson("a", "Ann Lee"), orgPerson("b", "Ann Lee"), orgPerson("g", "Bo Wu"), orgPerson("h", "Bo Wu"),
            orgPerson("c", "Cy", manager: "Bo Wu"), orgPerson("e", "Ed", manager: "Ann Lee"),
        ])))
        #expect(tie.problemSummary == #"2 with an ambiguous manager ("Bo Wu" names 2 people, and 1 other reference)"#)
    }
}
