import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// Runs every search on a fake at once: its reads never suspend, so a
/// test sees each result before the call returns.
@MainActor
final class FakeSearchScheduler: ListSearchScheduling {
    func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?, repository: any PeopleRepository,
                completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                failed: @escaping @MainActor @Sendable (String) -> Void) {
        Task.immediate { @MainActor in
            if let result = try? await repository.search(query, in: everyone, within: within) { completion(result) }
        }
    }
    func cancelPending() {}
    func arrange(_ repository: any PeopleRepository, sort: SortOrder, byCompany: Bool, company: Int?,
                 completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
        completion(repository.arrange(sort: sort, byCompany: byCompany, company: company))
    }
}

/// `n` `N`, the sort menu's choice and the command line's commands, on
/// the list presenter over a fake repository. The seed list, by company
/// then last name: COMSTAR Bertha Irwin (1), Cohen James (2), Vanessa
/// Sanchez (3); PERMADYNE Zamora Weber (4); RECRISYS Norton Curtis (5),
/// Barnes Pickett (6). `fruit:strawberry` matches James, Weber, Curtis.
@MainActor
@Suite("Keys from other programs: the list presenter")
struct HabitKeysPresenterTests {
    let view = SpyListView()
    let wireframe = SpyListWireframe()
    let history = PromptHistory()

    func list(_ repository: FakePeopleRepository, scheduler: ListSearchScheduling = FakeSearchScheduler()) -> ListPresenter {
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: scheduler), arrangement: repository.everyone,
                                      wireframe: wireframe, history: history)
        presenter.attach(view: view)
        return presenter
    }

    var status: String { [view.last?.position, view.last?.message].compactMap { $0 }.joined(separator: " ") }

    @Test("under a filter, n and N step through the people shown and stop at the ends, saying so")
    func filtered() throws {
        let presenter = list(try FakePeopleRepository(json: Fixtures.seedJSON))
        presenter.applyFilter("fruit:strawberry")
        #expect(status == "1/3")
        presenter.showMatch(forward: true)
        presenter.showMatch(forward: true)
        #expect(status == "3/3")
        presenter.showMatch(forward: true)
        #expect(status == "3/3 no more matches below")
        presenter.showMatch(forward: false)
        #expect(status == "2/3")
        presenter.selectFirst()
        presenter.showMatch(forward: false)
        #expect(status == "1/3 no more matches above")
    }

    @Test("after Esc, n and N go through the last search's matches in the whole list, in its order, saying which match")
    func afterEscape() throws {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let presenter = list(repository)
        presenter.applyFilter("fruit:strawberry")
        presenter.showMatch(forward: true)  // Zamora Weber
        presenter.cancelSearch()
        #expect(presenter.filter == nil)
        #expect(status == "4/6")
        repository.forgetCalls()
        presenter.showMatch(forward: true)
        #expect(status == "5/6 'fruit:strawberry': match 3 of 3")
        #expect(view.last?.filter == nil)
        presenter.showMatch(forward: true)
        #expect(status == "5/6 no more matches below for 'fruit:strawberry'")
        presenter.showMatch(forward: false)
        presenter.showMatch(forward: false)
        #expect(status == "2/6 'fruit:strawberry': match 1 of 3")
        presenter.showMatch(forward: false)
        #expect(status == "2/6 no more matches above for 'fruit:strawberry'")
        // Searched once, within the filter's result: the next presses only place the matches.
        #expect(repository.calls.filter { if case .search = $0 { true } else { false } }
                == [.search("fruit:strawberry", within: "fruit:strawberry")])
    }

    @Test("from someone who does not match, n finds the next match after them and N the one before")
    func fromANonMatch() throws {
        let presenter = list(try FakePeopleRepository(json: Fixtures.seedJSON))
        history.record("fruit:strawberry", for: .search)  // searched in another list of the session
        presenter.select(position: 2)  // Vanessa Sanchez
        presenter.showMatch(forward: true)
        #expect(status == "4/6 'fruit:strawberry': match 2 of 3")
        presenter.select(position: 2)
        presenter.showMatch(forward: false)
        #expect(status == "2/6 'fruit:strawberry': match 1 of 3")
        presenter.select(position: 5)  // Barnes Pickett, after the last match
        presenter.showMatch(forward: true)
        #expect(status == "6/6 no more matches below for 'fruit:strawberry'")
        presenter.select(position: 0)
        presenter.showMatch(forward: false)
        #expect(status == "1/6 no more matches above for 'fruit:strawberry'")
    }

    @Test("with no search yet, or one that matches nobody, n says so and stays")
    func nothingToFind() throws {
        let presenter = list(try FakePeopleRepository(json: Fixtures.seedJSON))
        presenter.showMatch(forward: true)
        #expect(status == "1/6 no search yet: n and N follow the last / search")
        history.record("zzzz", for: .search)
        presenter.showMatch(forward: true)
        #expect(status == "1/6 no one matches 'zzzz'")
    }

    @Test("a match in a folded company opens it, as a search landing there does")
    func foldedCompany() throws {
        let presenter = list(try FakePeopleRepository(json: Fixtures.seedJSON))
        history.record("fruit:strawberry", for: .search)
        presenter.select(position: 3)  // Zamora Weber
        presenter.moveSelection(by: 1)
        presenter.toggleSection()  // RECRISYS folded
        presenter.select(position: 3)
        presenter.showMatch(forward: true)
        #expect(status == "5/6 'fruit:strawberry': match 3 of 3")
        #expect(presenter.collapsedCompanies.isEmpty)
    }

    @Test("over a source that may wait, the match is found off the main actor, and keys typed meanwhile wait for it")
    func offTheMainActor() throws {
        let reads = HeldReads()
        let presenter = list(try FakePeopleRepository.seedThatMayWait(), scheduler: reads)
        history.record("fruit:strawberry", for: .search)
        reads.finish()  // the first frame's rows
        presenter.showMatch(forward: true)
        #expect(presenter.hasWorkInFlight, "keys typed after n wait for it (ListView.timing)")
        #expect(status == "1/6")
        reads.finish()
        #expect(!presenter.hasWorkInFlight)
        #expect(status == "2/6 'fruit:strawberry': match 1 of 3")
    }

    @Test("the sort menu's choice keeps the selected person, names the order, goes flat when asked, and says when nothing changes")
    func sortMenuChoice() throws {
        let presenter = list(try FakePeopleRepository(json: Fixtures.seedJSON))
        presenter.chooseSortOrder(descending: true)
        presenter.openCommandLine()
        #expect(wireframe.routes == [.sortMenu(descending: true), .commandLine])
        presenter.select(position: 3)  // Zamora Weber
        presenter.order(by: SortOrder(.balance, descending: true))
        #expect(view.last?.sortLabel == "balance ↓")
        #expect(presenter.selectedRow?.name == "Zamora Weber")
        presenter.order(by: SortOrder(.balance, descending: true), flat: true)
        #expect(view.last?.sortLabel == "balance ↓, flat")
        presenter.selectFirst()
        #expect(presenter.selectedRow?.name == "Cohen James")  // $3,334.51, the top balance of all
        presenter.order(by: SortOrder(.balance, descending: true), flat: true)
        #expect(view.last?.message == "already sorted by balance ↓, flat")
    }

    @Test("commands: :sort, :filter (remembered for /), :42 past the end, :export through the export prompt, :columns, :q")
    func commands() throws {
        let writer = InMemoryExportWriter()
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: FakeSearchScheduler()),
                                      arrangement: repository.everyone, wireframe: wireframe, exportWriter: writer, history: history)
        presenter.attach(view: view)
        presenter.run(.sort(SortOrder(.age), flat: true))
        #expect(view.last?.sortLabel == "age ↑, flat")
        presenter.run(.filter("company:recrisys"))
        #expect(view.last?.filter == "company:recrisys")
        #expect(history.entries(for: .search) == ["company:recrisys"])
        presenter.run(.goTo(42))
        #expect(status == "2/2 42: only 2 people; at the last")
        presenter.run(.filter(nil))
        presenter.run(.goTo(4))
        #expect(status == "4/6")
        presenter.run(.export("out.csv"))
        #expect(Array(writer.files.keys) == ["out.csv"])
        #expect(view.last?.message == "wrote 6 people to out.csv (csv)")
        presenter.run(.columns)
        presenter.run(.quit)
        #expect(wireframe.routes.suffix(2) == [.columns(.standard, sorted: .age), .quit])
    }
}
