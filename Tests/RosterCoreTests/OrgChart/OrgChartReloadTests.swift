import Testing
import TestSupport
@testable import RosterCore

/// People named by their records' `_id`s, numbered in the order given.
struct RecordPeople: OrgChartPeople {
    let ids: [String]
    func name(of person: Int) -> String { ids[person].uppercased() }
    func email(of person: Int) -> String { "" }
    func person(recordID: String) -> Int? { ids.firstIndex(of: recordID) }
    func recordID(of person: Int) -> String { ids[person] }
}

@Suite("The org chart read again when the source changes")
@MainActor
struct OrgChartReloadTests {
    /// a at the top; b and c under a; d and e under b; f under c.
    static let before = OrgChart(tree: OrgTree(managers: [-1, 0, 0, 1, 1, 2]), people: RecordPeople(ids: ["a", "b", "c", "d", "e", "f"]))
    /// Read again, numbered afresh: d has moved from b to c, e is gone, g is new under b.
    static let after = OrgChart(tree: OrgTree(managers: [2, 4, 5, 2, 5, -1]), people: RecordPeople(ids: ["f", "g", "c", "d", "b", "a"]))

    func make() -> (OrgChartPresenter, RecordingOrgChartView) {
        let presenter = OrgChartPresenter(interactor: StubOrgChartInteractor(.loaded(Self.before)), wireframe: RecordingOrgChartWireframe(),
                                          startingAt: 3)
        let view = RecordingOrgChartView()
        presenter.attach(view: view)
        return (presenter, view)
    }

    @Test("the person selected stays selected, under their new manager; the managers open stay open; the new person shows")
    func keepsPlace() throws {
        let (presenter, view) = make()
        #expect(view.lines == ["A (2 reports · 5 in all)", "  B (2 reports · 2 in all)", "    D", "    E", "  C (1 report · 1 in all)"])
        #expect(presenter.selectedPerson == 3)
        presenter.reload(from: StubOrgChartInteractor(.loaded(Self.after)))
        #expect(view.lines == ["A (2 reports · 5 in all)", "  C (2 reports · 2 in all)", "    F", "    D", "  B (1 report · 1 in all)", "    G"])
        #expect(presenter.selectedPerson == 3, "d, numbered 3 now, is still the one selected")
        #expect(view.last.selectedRow == 3)
    }

    @Test("a search shown is run again over the chart read again, and stays named")
    func keepsSearch() throws {
        let first = StubOrgChartInteractor(.loaded(Self.before))
        first.found = .success([4])
        let presenter = OrgChartPresenter(interactor: first, wireframe: RecordingOrgChartWireframe(), startingAt: nil)
        let view = RecordingOrgChartView()
        presenter.attach(view: view)
        presenter.search("e")
        #expect(view.lines == ["A (0 matching · 1 in all)", "  B (1 matching · 1 in all)", "    E", "    1 not shown", "  1 not shown"])
        let again = StubOrgChartInteractor(.loaded(Self.after))
        again.found = .success([1])
        presenter.reload(from: again)
        #expect(again.calls == [.load, .matches("e")], "the search is run again over what was read")
        #expect(view.last.filter == "e")
        #expect(view.lines == ["A (0 matching · 1 in all)", "  B (1 matching · 1 in all)", "    G", "  1 not shown"])
        presenter.search("")
        #expect(view.last.filter == nil && view.lines.first == "A (2 reports · 5 in all)", "Esc shows the whole chart read again")
    }

    @Test("a chart that can no longer be read says why in its place")
    func unreadable() {
        let (presenter, view) = make()
        presenter.reload(from: StubOrgChartInteractor(.unavailable("org.json could not be read again")))
        if case .message(let text) = view.last.content { #expect(text == "org.json could not be read again") } else { Issue.record("no message") }
        #expect(presenter.selectedPerson == nil)
    }
}
