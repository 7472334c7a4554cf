import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("Sort orders and grouping")
struct SortOrderTests {
    static let directory = try! Fixtures.directory(json: Fixtures.array([
        Fixtures.record(first: "Bea", last: "Zed", company: "X", balance: "$10.00", index: 0, extra: #""age": 40"#),
        Fixtures.record(first: "Abe", last: "Young", company: "X", balance: "$9.50", index: 1, extra: #""age": 20"#),
        Fixtures.record(first: "Cy", last: "Adams", company: "X", balance: nil, index: 2, extra: #""age": 30"#),
        Fixtures.record(first: "Dee", last: "Brown", company: "X", balance: "$1,000.00", index: 3),
        Fixtures.record(first: "Eve", last: "Cole", company: "Y", balance: "$10.00", index: 4, extra: #""age": 40"#),
    ]))

    static func names(_ sort: SortOrder, byCompany: Bool = true) -> [String] {
        let grouped = GroupedPeople(store: directory.store, sort: sort, byCompany: byCompany)
        return grouped.order.map { directory.store[Int($0)].firstName }
    }

    @Test("each key, both directions; missing values last either way; balance by amount")
    func orders() {
        #expect(Self.names(SortOrder(.lastName)) == ["Cy", "Dee", "Abe", "Bea", "Eve"])
        #expect(Self.names(SortOrder(.lastName, descending: true)) == ["Bea", "Abe", "Dee", "Cy", "Eve"])
        #expect(Self.names(SortOrder(.firstName)) == ["Abe", "Bea", "Cy", "Dee", "Eve"])
        #expect(Self.names(SortOrder(.balance)) == ["Abe", "Bea", "Dee", "Cy", "Eve"])
        #expect(Self.names(SortOrder(.balance, descending: true)) == ["Dee", "Bea", "Abe", "Cy", "Eve"])
        #expect(Self.names(SortOrder(.age)) == ["Abe", "Cy", "Bea", "Dee", "Eve"])
        #expect(Self.names(SortOrder(.age, descending: true)) == ["Bea", "Cy", "Abe", "Dee", "Eve"])
    }

    @Test("equal keys fall back to name order, then file order")
    func stability() {
        // Bea and Eve both have $10.00: the flat list orders them by last name.
        #expect(Self.names(SortOrder(.balance), byCompany: false) == ["Abe", "Eve", "Bea", "Dee", "Cy"])
    }

    @Test("the flat list is one section in the current order")
    func flat() {
        let grouped = GroupedPeople(store: Self.directory.store, sort: .byLastName, byCompany: false)
        #expect(grouped.sections.map(\.title) == ["Everyone"])
        #expect(Self.names(.byLastName, byCompany: false) == ["Cy", "Dee", "Eve", "Abe", "Bea"])
    }

    static let fourKeys: [SortOrder.Key] = [.lastName, .firstName, .balance, .age]

    @Test("s cycles the keys, S flips the direction, and the label shows both")
    func cycling() {
        var order = SortOrder.byLastName
        var labels: [String] = []
        for _ in 0..<4 {
            labels.append(order.label)
            order = order.next(among: Self.fourKeys)
        }
        #expect(labels == ["last name ↑", "first name ↑", "balance ↑", "age ↑"])
        #expect(order == .byLastName)
        #expect(order.reversed().label == "last name ↓")
    }

    @Test("s after S starts the next key in its natural direction (ascending), not the reversed one")
    func nextKeyStartsAscending() {
        let reversedAge = SortOrder(.age, descending: true)
        #expect(reversedAge.next(among: Self.fourKeys) == SortOrder(.lastName))
        #expect(reversedAge.next(among: Self.fourKeys).label == "last name ↑")
        #expect(SortOrder(.lastName, descending: true).next(among: Self.fourKeys).label == "first name ↑")
        #expect(SortOrder(.email).next(among: Self.fourKeys) == SortOrder(.lastName), "a key not among them goes to the first")
    }
}

@MainActor
@Suite("List presenter: order, grouping, jumps")
struct ListPresenterArrangeTests {
    @Test("changing the order keeps the selected person and the search")
    func keepsSelection() throws {
        let view = SpyListView()
        let directory = SortOrderTests.directory
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        presenter.moveSelection(by: 1)  // Dee Brown
        presenter.sort(by: .balance)  // the column chooser's s
        #expect(view.last?.sortLabel == "balance ↑")
        #expect(presenter.selectedID.map { directory.store[$0.rawValue].firstName } == "Dee")
        presenter.reverseSortOrder()
        #expect(view.last?.sortLabel == "balance ↓")
        #expect(view.last?.position == "1/5")  // Dee has the largest balance
        presenter.beginSearch()
        presenter.editSearch("e")
        presenter.commitSearch()
        presenter.toggleGrouping()
        #expect(view.last?.sortLabel == "balance ↓, flat")
        #expect(presenter.displayed.sections.map(\.title) == ["Everyone"])
        #expect(view.last?.filter == "e")
    }

    @Test("the flat list's status bar names the selected person's company, not 'Everyone'")
    func flatListNamesTheCompany() async throws {
        let view = SpyListView()
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        presenter.toggleGrouping()
        let selected = { try #require(directory.repository.rowsAtOnce(in: presenter.displayed, positions: presenter.selection..<(presenter.selection + 1)).first) }
        var company = try selected().company
        #expect(view.last?.currentCompany == company)
        #expect(view.last?.currentCompany != "Everyone")
        presenter.moveSelection(by: 1)
        company = try selected().company
        #expect(view.last?.currentCompany == company)
        presenter.selectFirst()
        #expect(view.last?.currentCompany == "RECRISYS")
    }

    @Test("[ and ] jump between companies")
    func jumps() throws {
        let view = SpyListView()
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        presenter.jumpToCompany(by: 1)
        #expect(view.last?.currentCompany == "PERMADYNE")
        presenter.jumpToCompany(by: 1)
        presenter.jumpToCompany(by: 1)
        #expect(view.last?.currentCompany == "RECRISYS")
        #expect(view.last?.position == "5/6")
        presenter.moveSelection(by: 1)
        presenter.jumpToCompany(by: -1)
        #expect(view.last?.position == "5/6")
        presenter.jumpToCompany(by: -1)
        #expect(view.last?.currentCompany == "PERMADYNE")
    }
}
