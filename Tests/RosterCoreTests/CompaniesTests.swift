import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@MainActor
@Suite("Company overview")
struct CompaniesTests {
    static let directory = try! Fixtures.directory(json: Fixtures.array([
        Fixtures.record(first: "A", last: "One", company: "Beta", balance: "$1,000.01", index: 0, extra: #""age": 30, "isActive": true"#),
        Fixtures.record(first: "B", last: "Two", company: "Beta", balance: "$0.02", index: 1, extra: #""age": 41, "isActive": false"#),
        Fixtures.record(first: "C", last: "Three", company: "Alpha", balance: "-$5.00", index: 2, extra: #""isActive": true"#),
        Fixtures.record(first: "D", last: "Four", company: "Beta", balance: "n/a", index: 3, extra: #""age": 20"#),
    ]))

    @Test("headcount, active, exact total and average balance, average age")
    func aggregates() {
        let summaries = CompanySummary.all(in: Self.directory.store, grouped: GroupedPeople(store: Self.directory.store))
        #expect(summaries.map(\.title) == ["Alpha", "Beta"])
        let beta = summaries[1]
        #expect(beta.headcount == 3)
        #expect(beta.active == 1)
        #expect(beta.totalCents == 100_003)
        #expect(beta.averageCents == 50_002)  // 100,003 / 2 over the two readable balances, half away from zero
        #expect(beta.averageAge == 30.333333333333332)
        #expect(summaries[0].averageAge == nil)
    }

    @Test("rows, sorting with s/S keeping the selected company, and routes")
    func presenter() throws {
        let view = SpyCompaniesView()
        let wireframe = SpyCompaniesWireframe()
        let repository = FakePeopleRepository(people: (0..<Self.directory.store.count).map { Self.directory.store[$0] })
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: repository),
                                           shown: repository.everyone, wireframe: wireframe)
        presenter.attach(view: view)
        let first = try #require(view.models.last)
        #expect(first.rows.map(\.title) == ["Alpha", "Beta"])
        #expect(first.rows[1] == CompaniesViewModel.Row(title: "Beta", headcount: "3", active: "1", total: "$1,000.03",
                                                          average: "$500.02", averageAge: "30.3", count: 3))
        #expect(first.sortLabel == "name ↑")
        presenter.cycleSortOrder()  // headcount ↓ (largest first): Beta (3), Alpha (1)
        #expect(view.models.last?.sortLabel == "headcount ↓")
        #expect(view.models.last?.rows.map(\.title) == ["Beta", "Alpha"])
        #expect(view.models.last?.selectedRow == 0)  // a new order starts at its top, not on Alpha
        presenter.moveSelection(by: 1)  // Alpha
        presenter.reverseSortOrder()
        #expect(view.models.last?.rows.map(\.title) == ["Alpha", "Beta"])
        #expect(view.models.last?.selectedRow == 0)
        presenter.selectFirst()
        presenter.cycleSortOrder()  // active ↓: s starts every figure largest first, whatever S did before
        #expect(view.models.last?.sortLabel == "active ↓")
        presenter.moveSelection(by: 1)
        presenter.openSelected()
        presenter.goBack()
        presenter.quit()
        let betaID = Self.directory.store.companies.firstIndex { $0.name == "Beta" }
        #expect(wireframe.routes == [.people(companyID: try #require(betaID)), .back, .quit])
    }

    @Test("by name is the order given, or its reverse; a figure's ties keep it")
    func orderByName() {
        let summaries = ["Alpha", "Beta", "Gamma"].enumerated().map { index, title in
            CompanySummary(companyID: index, title: title, headcount: index == 2 ? 5 : 1, active: 0, totalCents: 0, balances: 0, ages: 0, ageSum: 0)
        }
        #expect(CompanySortOrder(.name).sorted(summaries).map(\.title) == ["Alpha", "Beta", "Gamma"])
        #expect(CompanySortOrder(.name, descending: true).sorted(summaries).map(\.title) == ["Gamma", "Beta", "Alpha"])
        #expect(CompanySortOrder(.headcount, descending: true).sorted(summaries).map(\.title) == ["Gamma", "Alpha", "Beta"])
    }

    @Test("moving the selection words no row again (70,000 companies): the rows' version changes only with the rows")
    func rowsWordedOncePerChange() throws {
        let view = SpyCompaniesView()
        let repository = FakePeopleRepository(people: (0..<Self.directory.store.count).map { Self.directory.store[$0] })
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: repository),
                                           shown: repository.everyone, wireframe: SpyCompaniesWireframe())
        presenter.attach(view: view)
        let first = try #require(view.models.last)
        #expect(first.rowsVersion > 0)
        presenter.moveSelection(by: 1)
        #expect(view.models.last?.selectedRow == 1)
        #expect(view.models.last?.rowsVersion == first.rowsVersion, "a move keeps the worded rows")
        presenter.cycleSortOrder()
        #expect(view.models.last?.rowsVersion != first.rowsVersion, "a new order words them again")
        #expect(view.models.last?.rows.map(\.title) == ["Beta", "Alpha"])
    }

    @Test("a filter no one matches says so, rather than a table of heads only")
    func noMatch() async throws {
        let view = SpyCompaniesView()
        let repository = FakePeopleRepository(people: (0..<Self.directory.store.count).map { Self.directory.store[$0] })
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: repository),
                                           shown: repository.everyone, wireframe: SpyCompaniesWireframe())
        presenter.attach(view: view)
        let none = try await repository.search(SearchQuery("zzz"), in: repository.everyone, within: nil)
        presenter.update(shown: none, filter: "zzz")
        #expect(view.models.last?.rows.isEmpty == true)
        #expect(view.models.last?.emptyMessage == "No one matches 'zzz': Esc clears the filter.")
    }

    @Test("the rows are worded when drawn; their widest row, found from the figures, is as wide as the widest of each column")
    func widestRowFromFigures() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let summaries = (0..<Int.random(in: 0...40, using: &generator)).map { index in
                let headcount = Int.random(in: 0...1_200_000, using: &generator)
                let balances = Int.random(in: 0...3, using: &generator)
                return CompanySummary(companyID: index, title: "C\(index)", headcount: headcount,
                                      active: Int.random(in: 0...headcount, using: &generator),
                                      totalCents: Int128(Int64.random(in: -90_000_000_000...90_000_000_000, using: &generator)),
                                      balances: balances, ages: balances, ageSum: balances * Int.random(in: 0...140, using: &generator))
            }
            let rows = CompaniesViewModel.Rows(summaries)
            let widest = rows.widest
            let cells: [(CompaniesViewModel.Row) -> String] = [\.headcount, \.active, \.total, \.average, \.averageAge]
            for cell in cells {
                let measured = rows.map { DisplayText.width(cell($0)) }.max() ?? 0
                #expect(rows.isEmpty || DisplayText.width(cell(widest)) == measured, "\(summaries)")
            }
            #expect(widest.count == (summaries.map(\.headcount).max() ?? 0))
        }
    }
}

@MainActor
@Suite("Counting companies")
struct CompanyCountTests {
    static let people = [
        Person(firstName: "Ann", lastName: "Abel", company: "Beta", email: "ann@beta.example"),
        Person(firstName: "Bo", lastName: "Bell", company: "Alpha", email: "bo@alpha.example"),
        Person(firstName: "Cy", lastName: "Cole", company: "", email: "cy@example.org"),
        Person(firstName: "Di", lastName: "Dunn", company: " ", email: "di@example.org"),
    ]

    @Test("the people without a company are in none: the title says 2 companies and 2 with no company, the overview too, its position counting rows")
    func noCompanyIsNone() throws {
        let repository = FakePeopleRepository(people: Self.people)
        let view = SpyListView()
        let list = ListPresenter(interactor: ListInteractor(repository: repository), arrangement: repository.everyone,
                                 wireframe: SpyListWireframe())
        list.attach(view: view)
        let model = try #require(view.last)
        #expect(model.summary == "4 people · 2 companies")
        #expect(model.notice == "2 with no company")
        let overview = SpyCompaniesView()
        let companies = CompaniesPresenter(interactor: SummaryInteractor(repository: repository), shown: repository.everyone,
                                           wireframe: SpyCompaniesWireframe())
        companies.attach(view: overview)
        #expect(overview.models.last?.rows.count == 3, "No company is still a row")
        #expect(overview.models.last?.summary == "2 companies · 2 with no company")
        #expect(overview.models.last?.position == "1/3 rows", "No company counted as a row, and said to be one")
        companies.selectLast()
        #expect(overview.models.last?.position == "3/3 rows")
        let alone = FakePeopleRepository(people: Array(Self.people.prefix(2)))
        let onlyCompanies = CompaniesPresenter(interactor: SummaryInteractor(repository: alone), shown: alone.everyone,
                                               wireframe: SpyCompaniesWireframe())
        onlyCompanies.attach(view: overview)
        #expect(overview.models.last?.summary == "2 companies")
        #expect(overview.models.last?.position == "1/2", "every row a company: the position counts companies")
    }
}
