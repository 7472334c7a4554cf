import Testing
import TestSupport
@testable import RosterCore

/// Names for people 0…n: "P0", "P1", …
struct NumberedPeople: OrgChartPeople {
    func name(of person: Int) -> String { "P\(person)" }
    func email(of person: Int) -> String { "p\(person)@example.org" }
    func person(recordID: String) -> Int? { recordID.hasPrefix("P") ? Int(recordID.dropFirst()) : nil }
}

/// People whose records' `_id`s are "P0", "P1", …
struct RecordNumberedPeople: OrgChartPeople {
    func name(of person: Int) -> String { "P\(person)" }
    func email(of person: Int) -> String { "p\(person)@example.org" }
    func person(recordID: String) -> Int? { recordID.hasPrefix("P") ? Int(recordID.dropFirst()) : nil }
    func recordID(of person: Int) -> String { "P\(person)" }
}

/// An interactor that answers at once with a chart, a message or matches given by the test.
@MainActor
final class StubOrgChartInteractor: OrgChartInteractorInput {
    enum Call: Equatable { case load, matches(String) }
    var load: OrgChartLoad
    var found: Result<[Int], RepositoryError> = .success([])
    private(set) var calls: [Call] = []
    let sourceName = "org.json"

    /// Whether the chart is held back until `deliverHeld()` (a chart still being read).
    var holdsLoad = false
    private var held: (@MainActor @Sendable (OrgChartLoad) -> Void)?

    init(_ load: OrgChartLoad) { self.load = load }

    func loadChart(then deliver: @escaping @MainActor @Sendable (OrgChartLoad) -> Void) {
        calls.append(.load)
        if holdsLoad { held = deliver } else { deliver(load) }
    }

    func deliverHeld() {
        held?(load)
        held = nil
    }

    /// Searches held back until `deliverMatches` (a search still being run), oldest first.
    var holdsMatches = false
    private var heldMatches: [(query: String, deliver: @MainActor @Sendable (Result<[Int], RepositoryError>) -> Void)] = []

    func matches(of query: String, then deliver: @escaping @MainActor @Sendable (Result<[Int], RepositoryError>) -> Void) {
        calls.append(.matches(query))
        if holdsMatches { heldMatches.append((query, deliver)) } else { deliver(found) }
    }

    /// Answers the held search of `query` with `matches`.
    func deliverMatches(of query: String, _ matches: [Int]) {
        guard let index = heldMatches.firstIndex(where: { $0.query == query }) else { return }
        heldMatches.remove(at: index).deliver(.success(matches))
    }
}

@MainActor
final class RecordingOrgChartWireframe: OrgChartWireframe {
    private(set) var routes: [OrgChartRoute] = []
    func navigate(to route: OrgChartRoute) { routes.append(route) }
}

@MainActor
final class RecordingOrgChartView: OrgChartViewInterface {
    private(set) var models: [OrgChartViewModel] = []
    var last: OrgChartViewModel { models[models.count - 1] }
    func show(_ model: OrgChartViewModel) { models.append(model) }

    /// The lines shown: "  P1 (2 reports · 3 in all)" with two spaces a level.
    var lines: [String] {
        last.lines(0..<last.rowCount).map { line in
            String(repeating: "  ", count: line.depth) + line.text + (line.counts.isEmpty ? "" : " (\(line.counts))")
                + (line.problem.map { " ! \($0)" } ?? "")
        }
    }
}

@Suite("The org chart screen's presenter")
@MainActor
struct OrgChartPresenterTests {
    /// 0 at the top; 1 and 2 report to 0; 3 and 4 to 1; 5 to 3; 6 names a manager not here.
    static let chart = OrgChart(tree: OrgTree(managers: [-1, 0, 0, 1, 1, 3, 99]), people: NumberedPeople())

    func make(_ load: OrgChartLoad = .loaded(chart), at person: Int? = nil, record: String? = nil)
        -> (OrgChartPresenter, StubOrgChartInteractor, RecordingOrgChartView, RecordingOrgChartWireframe) {
        let interactor = StubOrgChartInteractor(load)
        let wireframe = RecordingOrgChartWireframe()
        let presenter = OrgChartPresenter(interactor: interactor, wireframe: wireframe, startingAt: person, record: record)
        let view = RecordingOrgChartView()
        presenter.attach(view: view)
        return (presenter, interactor, view, wireframe)
    }

    @Test("opens at the list's person, their chain of managers expanded, the problems for the title")
    func opensAtPerson() {
        let (_, _, view, _) = make(at: 5)
        #expect(view.lines == ["P0 (2 reports · 5 in all)", "  P1 (2 reports · 3 in all)", "    P3 (1 report · 1 in all)",
                               "      P5", "    P4", "  P2", "P6 ! manager not here"])
        #expect(view.last.selectedRow == 3)
        #expect(view.last.position == "4/7" && view.last.shown == "everyone")
        #expect(view.last.problems == "1 with a manager not here")
        #expect(view.last.summary == "7 people · 2 at the top")
    }

    @Test("T on a person's screen: the chart opens at the person its record's _id names; back on it, select(recordID:) goes to them")
    func opensAtRecord() {
        let (presenter, interactor, view, _) = make(record: "P5")
        #expect(view.last.selectedRow == 3 && view.lines[3] == "      P5")
        presenter.select(recordID: "P2")
        #expect(view.lines[view.last.selectedRow] == "  P2")
        interactor.found = .success([4])
        presenter.search("P4")
        presenter.select(recordID: "P6")
        #expect(view.last.filter == nil, "a person the search leaves out: the search is cleared")
        #expect(view.lines[view.last.selectedRow] == "P6 ! manager not here")
    }

    @Test("Right opens a manager then goes to the first report; Left closes, then goes to the manager")
    func rightAndLeft() {
        let (presenter, _, view, _) = make()
        #expect(view.lines == ["P0 (2 reports · 5 in all)", "P6 ! manager not here"])
        presenter.expandOrEnter()
        #expect(view.lines.count == 4 && view.last.selectedRow == 0)
        presenter.expandOrEnter()
        #expect(view.last.selectedRow == 1 && view.lines[1] == "  P1 (2 reports · 3 in all)")
        presenter.collapseOrLeave()  // P1 is closed: up to P0
        #expect(view.last.selectedRow == 0)
        presenter.collapseOrLeave()
        #expect(view.lines.count == 2 && view.last.selectedRow == 0)
    }

    @Test("+ and - open and close; - on a report closes their manager and selects them; Space toggles")
    func plusMinusSpace() {
        let (presenter, _, view, _) = make(at: 4)
        #expect(view.last.selectedRow == 3)
        presenter.collapse()
        #expect(view.last.selectedRow == 1 && view.lines.count == 4)
        presenter.expand()
        #expect(view.lines.count == 6)
        presenter.toggle()
        #expect(view.lines.count == 4)
    }

    @Test("moving stays inside the rows; g and G go to the ends")
    func moving() {
        let (presenter, _, view, _) = make(at: 5)
        presenter.move(by: -100)
        #expect(view.last.selectedRow == 0)
        presenter.moveToLast()
        #expect(view.last.selectedRow == 6)
        presenter.move(by: 3)
        #expect(view.last.selectedRow == 6)
        presenter.moveToFirst()
        #expect(view.last.selectedRow == 0)
    }

    @Test("Enter opens the selected person's screen; q goes back")
    func enterAndBack() {
        let (presenter, _, _, wireframe) = make(at: 3)
        presenter.openPerson()
        presenter.goBack()
        #expect(wireframe.routes == [.person(3), .back])
    }

    @Test("a search shows the matches inside their chains with what is not shown; Esc puts the chart back at the person")
    func search() {
        let (presenter, interactor, view, wireframe) = make()
        interactor.found = .success([5, 2])
        presenter.search(" P5 ")
        #expect(interactor.calls == [.load, .matches("P5")])
        #expect(view.lines == ["P0 (1 matching · 2 in all)", "  P1 (0 matching · 1 in all)", "    P3 (1 matching · 1 in all)",
                               "      P5", "    1 not shown", "  P2", "1 not shown"])
        #expect(view.last.filter == "P5" && view.last.notice == "2 matches" && view.last.shown == "search: P5")
        #expect(view.last.selectedRow == 3, "the first match is selected")
        presenter.clearSearchOrBack()
        #expect(view.last.filter == nil && view.last.selectedRow == 3 && view.lines[3] == "      P5")
        presenter.clearSearchOrBack()
        #expect(wireframe.routes == [.back])
    }

    @Test("searched a key at a time: an earlier key's answer that comes last is not shown over the later one's")
    func searchAsTyped() {
        let (presenter, interactor, view, _) = make()
        interactor.holdsMatches = true
        presenter.search("P")
        presenter.search("P5")
        interactor.deliverMatches(of: "P5", [5])
        interactor.deliverMatches(of: "P", [1, 2, 3, 4, 5])
        #expect(view.last.filter == "P5" && view.last.notice == "1 match")
        // Cleared (Esc in the prompt) while a search is on its way: everyone, and it stays so.
        presenter.search("P4")
        presenter.search("")
        interactor.deliverMatches(of: "P4", [4])
        #expect(view.last.filter == nil)
    }

    @Test("a search no one matches shows no rows and says so, not a lone `N not shown`; Esc puts the chart back")
    func searchWithoutMatches() {
        let (presenter, interactor, view, _) = make()
        interactor.found = .success([])
        presenter.search("zzz")
        #expect(view.last.rowCount == 0 && view.last.filter == "zzz" && view.last.notice == "no one matches")
        #expect(view.last.emptyText == "No one matches 'zzz': Esc shows everyone.")
        presenter.clearSearchOrBack()
        #expect(view.last.rowCount > 0 && view.last.emptyText == nil && view.last.filter == nil)
    }

    @Test("a search typed while the chart is still being read runs once it is, and the wait is said")
    func searchWhileLoading() {
        let interactor = StubOrgChartInteractor(.loaded(Self.chart))
        interactor.holdsLoad = true
        interactor.found = .success([5])
        let presenter = OrgChartPresenter(interactor: interactor, wireframe: RecordingOrgChartWireframe(), startingAt: nil)
        let view = RecordingOrgChartView()
        presenter.attach(view: view)
        presenter.search("P5")
        guard case .loading = view.last.content else { Issue.record("not loading"); return }
        #expect(view.last.notice == "search 'P5' runs once the chart is read")
        #expect(interactor.calls == [.load])
        interactor.deliverHeld()
        #expect(interactor.calls == [.load, .matches("P5")])
        #expect(view.last.filter == "P5" && view.last.notice == "1 match")
    }

    @Test("read again (a table another program changed), the managers open stay open and the person selected stays selected")
    func reloadKeepsOpenManagers() {
        let interactor = StubOrgChartInteractor(.loaded(OrgChart(tree: Self.chart.tree, people: RecordNumberedPeople())))
        let presenter = OrgChartPresenter(interactor: interactor, wireframe: RecordingOrgChartWireframe(), startingAt: 5)
        let view = RecordingOrgChartView()
        presenter.attach(view: view)
        presenter.select(recordID: "P2")  // P1 and P3 stay open above
        let before = view.lines
        #expect(before.contains("      P5"))
        interactor.load = .loaded(OrgChart(tree: OrgTree(managers: [-1, 0, 0, 1, 1, 3, 99]), people: RecordNumberedPeople()))
        presenter.reload()
        #expect(view.lines == before, "P1 and P3 still open: \(view.lines)")
        #expect(view.lines[view.last.selectedRow] == "  P2")
    }

    @Test("a query that does not parse is said, and nothing is searched")
    func badQuery() {
        let (presenter, interactor, view, _) = make()
        presenter.search("age>x")
        #expect(interactor.calls == [.load])
        #expect(view.last.notice?.contains("age") == true && view.last.filter == nil)
    }

    @Test("a file without manager fields says so in one line, and the keys do nothing")
    func noManagers() {
        let (presenter, _, view, wireframe) = make(.noManagers("No one in org.json has a \"manager\" field"))
        guard case .message(let text) = view.last.content else { Issue.record("no message"); return }
        #expect(text.hasPrefix("No one in org.json"))
        presenter.expandOrEnter()
        presenter.openPerson()
        #expect(view.last.rowCount == 0 && wireframe.routes.isEmpty)
    }

    @Test("a loop of managers is at the top, named on each member's line and in the title")
    func loop() {
        let chart = OrgChart(tree: OrgTree(managers: [1, 0, 0]), people: NumberedPeople())
        let (_, _, view, _) = make(.loaded(chart))
        #expect(view.last.problems == "1 loop of managers")
        #expect(view.lines.allSatisfy { $0.contains("in a loop of managers") })
    }

    @Test("a manager reference two people fit: the line and the title say what it was and how many it names")
    func ambiguous() {
        // P0 and P1 are both Ann Lee; P2 names "Ann Lee"; P3 reports to P2.
        let people = [orgPerson("P0", "Ann Lee"), orgPerson("P1", "Ann Lee"), orgPerson("P2", "Cy", manager: " Ann Lee"),
                      orgPerson("P3", "Di", manager: "P2")]
        let chart = OrgChart(tree: OrgTree(ManagerResolution(orgDirectory(people))), people: NumberedPeople())
        let (_, _, view, _) = make(.loaded(chart), at: 3)
        #expect(view.lines == ["P0", "P1", #"P2 (1 report · 1 in all) ! manager ambiguous: "Ann Lee" names 2 people"#, "  P3"])
        #expect(view.last.problems == #"1 with an ambiguous manager ("Ann Lee" names 2 people)"#)
        #expect(view.last.problemsBrief == "1 problem")
    }
}
