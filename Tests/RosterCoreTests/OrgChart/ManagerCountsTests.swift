import Testing
import TestSupport
@testable import RosterCore

@Suite("F's counts by manager: team sizes from the org chart")
@MainActor
struct ManagerCountsTests {
    /// P0 at the top; P1, P2, P3 report to P0; P4 and P5 to P1; P6's manager is not here.
    static let managers: [Int32] = [-1, 0, 0, 0, 1, 1, 99]

    @Test("a row per manager with how many of the people given report to them, by name; those at the top in (none), last")
    func counts() {
        let chart = OrgChart(tree: OrgTree(managers: Self.managers), people: NumberedPeople())
        let all = ManagerCounts.summaries(of: Array(0..<7), in: chart)
        #expect(all.map(\.title) == ["P0", "P1", "(none)"])
        #expect(all.map(\.headcount) == [3, 2, 2])
        #expect(all.map(\.value) == [.text("p0@example.org"), .text("p1@example.org"), .missing],
                "NumberedPeople has no _id: the email names the manager")
        let some = ManagerCounts.summaries(of: [2, 4], in: chart)
        #expect(some.map(\.title) == ["P0", "P1"] && some.map(\.headcount) == [1, 1], "only the people shown are counted")
    }

    @Test("Enter's term names the manager by _id, plainly when it is one word, quoted otherwise; nil when no term can")
    func terms() {
        #expect(ManagerCounts.term(for: "5f1a2b") == "reports-to:5f1a2b")
        #expect(ManagerCounts.term(for: "ada@example.org") == "reports-to:ada@example.org")
        #expect(ManagerCounts.term(for: "uid=ada,ou=people,dc=example,dc=org") == "reports-to:\"uid=ada,ou=people,dc=example,dc=org\"")
        #expect(ManagerCounts.term(for: "Ada Lovelace") == "reports-to:\"Ada Lovelace\"")
        #expect(ManagerCounts.term(for: "say \"hi\"") == nil)
        #expect(SummaryField.manager.queryTerm(for: .text("P0")) == "reports-to:P0")
        #expect(SummaryField.manager.queryTerm(for: .missing) == "depth=0", "(none): the people at the top of the chart")
    }

    /// Counts by manager of `repository`'s people, the chart read from `managers`.
    func presented(cache: OrgChartCache?) throws -> (SpyFrequencyView, SpyFrequencyWireframe, FrequencyPresenter) {
        let records = Self.managers.indices.map { #"{"_id": "P\#($0)", "name": {"first": "F", "last": "L\#(1000 + $0)"}, "balance": "$10.00"}"# }
        let repository = try FakePeopleRepository(json: Fixtures.array(records))
        let view = SpyFrequencyView()
        let wireframe = SpyFrequencyWireframe()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: repository, orgChart: cache), field: .manager,
                                           shown: repository.arrange(sort: .byLastName, byCompany: false, company: nil),
                                           wireframe: wireframe)
        presenter.attach(view: view)
        return (view, wireframe, presenter)
    }

    @Test("F's rows: team sizes and shares, no balance made up; sorted as F sorts; Enter lists a manager's reports (reports-to:)")
    func presenter() throws {
        let reader = HeldReader()
        let cache = OrgChartCache(reading: FixedOrgChartReading(managers: Self.managers), reader: reader)
        let (view, wireframe, presenter) = try presented(cache: cache)
        #expect(view.models.last?.rows.isEmpty == true, "nothing made up before the chart is read")
        reader.release()
        let model = try #require(view.models.last)
        #expect(model.fieldLabel == "manager")
        #expect(model.rows.map(\.title) == ["P0", "P1", "(none)"])
        #expect(model.rows[0] == FrequencyViewModel.Row(title: "P0", headcount: "3", share: "42.9%", total: "—", average: "—", count: 3))
        presenter.cycleSortOrder()  // headcount ↓; (none) stays last
        presenter.reverseSortOrder()  // headcount ↑
        #expect(view.models.last?.rows.map(\.title) == ["P1", "P0", "(none)"])
        presenter.openSelected()
        // The selection stays on the value it was on (P0) across orders; NumberedPeople has no _id: the email names P0.
        #expect(wireframe.routes == [.matching(term: "reports-to:p0@example.org", title: "counts by manager › P0")])
        #expect(SearchQuery("reports-to:p0@example.org").error == nil, "a term the query language takes")
    }

    @Test("a source without an org chart says so in place of the rows")
    func noChart() throws {
        let (view, _, _) = try presented(cache: nil)
        #expect(view.models.last?.rows.isEmpty == true)
        #expect(view.models.last?.emptyMessage.contains("no org chart here") == true)
    }
}
