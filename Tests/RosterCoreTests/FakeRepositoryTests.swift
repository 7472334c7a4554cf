import Testing
import TestSupport
@testable import RosterCore

/// The hand-written fake answers like the real repositories do.
@Suite("Fake repository contract")
struct FakeRepositoryContractTests {
    @Test(arguments: RepositoryContract.checks)
    func contract(_ check: RepositoryContract.Check) async throws {
        let failures = try await check.run { json in try FakePeopleRepository(json: json, sourceName: "contract.json") }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

/// How the presenters use the repository protocol: windows of what a
/// screen shows, never everyone.
@MainActor
@Suite("Presenters ask the repository for what they show")
struct PresenterRepositoryUseTests {
    /// `count` people in 7 companies, made by hand.
    static func many(_ count: Int) -> FakePeopleRepository {
        FakePeopleRepository(people: (0..<count).map { index in
            Person(id: "id\(index)", firstName: "First\(index)", lastName: "Last\(index)", company: "Company \(index % 7)",
                   email: "p\(index)@example.test")
        })
    }

    static func positions(_ calls: [FakePeopleRepository.Call]) -> [Int] {
        calls.flatMap { call -> [Int] in
            if case .rows(let range) = call { return Array(range) }
            return []
        }
    }

    @Test("attaching a list reads the selected person's row, not whole people and not everyone")
    func attaching() {
        let repository = Self.many(500)
        let arrangement = repository.everyone
        repository.forgetCalls()
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository),
                                      arrangement: arrangement, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        #expect(view.last?.position == "1/500")
        #expect(!repository.calls.isEmpty)
        #expect(repository.calls.allSatisfy { if case .rows(let range) = $0 { range == 0..<1 } else { false } })
    }

    @Test("a frame reads only the rows it draws, one at a time, at the top and at the end")
    func oneFrame() throws {
        let repository = Self.many(500)
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository),
                                      arrangement: repository.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        repository.forgetCalls()
        // The rows a 24-line screen draws: 21 between the bars.
        let top = try #require(view.last).rows
        for row in 0..<21 { _ = top[row] }
        #expect(repository.calls.count == 21 - 1)  // one is the company header
        #expect(repository.calls.allSatisfy { if case .rows(let range) = $0 { range.count == 1 } else { false } })
        #expect(Self.positions(repository.calls).allSatisfy { $0 < 21 })

        presenter.selectLast()
        repository.forgetCalls()
        let end = try #require(view.last).rows
        for row in (end.endIndex - 21)..<end.endIndex { _ = end[row] }
        #expect(repository.calls.count == 21)  // all in the last company
        #expect(Self.positions(repository.calls).allSatisfy { $0 >= 500 - 21 })
    }

    @Test("a new order is one arrange of everyone; the list then reads rows")
    func newOrder() {
        let repository = Self.many(50)
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: repository.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: SpyListView())
        repository.forgetCalls()
        presenter.cycleSortOrder()
        let arranges = repository.calls.filter { if case .arrange = $0 { true } else { false } }
        #expect(arranges == [.arrange(SortOrder(.firstName), byCompany: true, company: nil)])
        #expect(!repository.calls.contains { if case .people = $0 { true } else { false } })
    }

    @Test("e reads whole people in windows, in the list's order, and writes them all")
    func export() throws {
        let repository = Self.many(5000)
        let writer = InMemoryExportWriter()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository),
                                      arrangement: repository.everyone, wireframe: SpyListWireframe(), exportWriter: writer)
        presenter.attach(view: SpyListView())
        repository.forgetCalls()
        presenter.beginExport()
        presenter.editExportName("out.csv")
        presenter.commitExport()
        let windows = repository.calls.compactMap { call -> Range<Int>? in
            if case .people(let range) = call { return range }
            return nil
        }
        #expect(windows == [0..<4096, 4096..<5000])
        let lines = String(decoding: try #require(writer.files["out.csv"]), as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == 5001)
        #expect(lines[1].hasPrefix("First0,Last0,Company 0,"))
    }

    @Test("the detail reads one whole person a screen, and one row to copy an email")
    func detail() throws {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let arrangement = repository.everyone
        repository.forgetCalls()
        let view = SpyDetailView()
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: arrangement),
                                        position: 2, wireframe: SpyDetailWireframe(), clipboard: SpyClipboard())
        presenter.attach(view: view)
        #expect(repository.calls == [.people(2..<3)])
        presenter.showNext()
        presenter.copyField()
        #expect(repository.calls == [.people(2..<3), .people(3..<4), .people(3..<4), .people(3..<4)])
        #expect(view.models.last?.status == "sent zamora.weber@permadyne.co.uk to the terminal's clipboard")
    }

    @Test("the overview asks for the summaries once, and again only when the filter changes")
    func companies() async throws {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let everyone = repository.everyone
        let found = try await repository.search(SearchQuery("comstar"), in: everyone, within: nil)
        repository.forgetCalls()
        let view = SpyCompaniesView()
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: repository),
                                           shown: everyone, wireframe: SpyCompaniesWireframe())
        presenter.attach(view: view)
        presenter.moveSelection(by: 1)
        presenter.cycleSortOrder()
        #expect(repository.calls == [.companySummaries(count: 6)])
        presenter.update(shown: found, filter: "comstar")
        #expect(repository.calls == [.companySummaries(count: 6), .companySummaries(count: 3)])
        #expect(view.models.last?.rows.map(\.title) == ["COMSTAR"])
    }
}
