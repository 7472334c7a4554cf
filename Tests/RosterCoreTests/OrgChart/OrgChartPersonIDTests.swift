import Testing
import TestSupport
@testable import RosterCore

/// People a database numbers by row id: chart person n is `PersonID` 100 + n.
private struct RowNumberedPeople: OrgChartPeople {
    func name(of person: Int) -> String { "P\(person)" }
    func email(of person: Int) -> String { "" }
    func person(recordID: String) -> Int? { nil }
    func personID(of person: Int) -> Int { 100 + person }
    func person(withID id: Int) -> Int? { id >= 100 ? id - 100 : nil }
}

/// A chart whose people are numbered otherwise than the list's (`PersonID`s)
/// opens at, finds and opens the right people.
@Suite("The org chart of people numbered by row id")
@MainActor
struct OrgChartPersonIDTests {
    /// 0 at the top; 1 and 2 report to 0; 3 to 1.
    static let chart = OrgChart(tree: OrgTree(managers: [-1, 0, 0, 1]), people: RowNumberedPeople())

    @Test("the list's person, a search's matches and Enter go through PersonIDs")
    func personIDs() {
        let interactor = StubOrgChartInteractor(.loaded(Self.chart))
        let wireframe = RecordingOrgChartWireframe()
        let presenter = OrgChartPresenter(interactor: interactor, wireframe: wireframe, startingAt: 103)
        let view = RecordingOrgChartView()
        presenter.attach(view: view)
        #expect(presenter.selectedPerson == 3)
        presenter.openPerson()
        #expect(wireframe.routes == [.person(103)])
        interactor.found = .success([102])
        presenter.search("P2")
        #expect(presenter.selectedPerson == 2)
        #expect(view.last.notice == "1 match")
    }

    @Test("read again (another program's change), the chart shows the new tree at the person selected, by PersonID")
    func reload() {
        let interactor = StubOrgChartInteractor(.loaded(Self.chart))
        let presenter = OrgChartPresenter(interactor: interactor, wireframe: RecordingOrgChartWireframe(), startingAt: 103)
        let view = RecordingOrgChartView()
        presenter.attach(view: view)
        #expect(view.lines == ["P0 (2 reports · 3 in all)", "  P1 (1 report · 1 in all)", "    P3", "  P2"])
        // P3 now reports to P2.
        interactor.load = .loaded(OrgChart(tree: OrgTree(managers: [-1, 0, 0, 2]), people: RowNumberedPeople()))
        presenter.reload()
        #expect(view.lines == ["P0 (2 reports · 3 in all)", "  P1", "  P2 (1 report · 1 in all)", "    P3"])
        #expect(presenter.selectedPerson == 3)
        #expect(interactor.calls == [.load, .load])
    }

    @Test("a person's place: the chain names people by PersonID, and why it ends is asked of the chart's own number")
    func placeChainProblem() {
        // 0's manager is not here; 1 reports to 0. By PersonID 100 the tree had no person.
        let chart = OrgChart(tree: OrgTree(managers: [7, 0]), people: RowNumberedPeople())
        let place = OrgPlace(person: 1, in: chart)
        #expect(place.chain == [OrgPlace.Named(person: 100, name: "P0")])
        #expect(place.chainProblem == "manager not here")
    }
}
