import Testing
import TestSupport
@testable import RosterCore

@Suite("The person's screen: the chain of managers and the reports, each opened with Enter")
@MainActor
struct DetailChainTests {
    /// People P0…P(n-1) whose managers are `managers`, on the person's screen of `position`, the chart read.
    func make(_ managers: [Int32], at position: Int) throws -> (DetailPresenter, SpyDetailView, SpyDetailWireframe) {
        try make(FixedOrgChartReading(managers: managers), count: managers.count, at: position)
    }

    /// `count` people P0…, their chart read by `reading`, on the person's screen of `position`.
    func make(_ reading: any OrgChartReading, count: Int, at position: Int) throws -> (DetailPresenter, SpyDetailView, SpyDetailWireframe) {
        let records = (0..<count).map { #"{"_id": "P\#($0)", "name": {"first": "F", "last": "L\#(1000 + $0)"}}"# }
        let repository = try FakePeopleRepository(json: Fixtures.array(records))
        let reader = HeldReader()
        let cache = OrgChartCache(reading: reading, reader: reader)
        // By last name (L1000, L1001, …): display position n is person n.
        let everyone = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let wireframe = SpyDetailWireframe()
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: everyone, orgChart: cache),
                                        position: position, wireframe: wireframe)
        let view = SpyDetailView()
        presenter.attach(view: view)
        reader.release()
        return (presenter, view, wireframe)
    }

    func field(_ label: String, in view: SpyDetailView) -> DetailViewModel.Field? {
        view.models.last?.fields.first { $0.label == label }
    }

    /// The names the report lines give, in order.
    func reportLines(in view: SpyDetailView) -> [String] {
        let fields = view.models.last?.fields ?? []
        guard let start = fields.firstIndex(where: { $0.label == "Reports" }) else { return [] }
        return fields[(start + 1)...].map(\.value)
    }

    @Test("the chain names every manager, the direct one first, up to the top; the reports by name under their count")
    func chainAndReports() throws {
        // P0 at the top; P1 under P0; P2 under P1; P3 and P4 under P2.
        let (presenter, view, _) = try make([-1, 0, 1, 2, 2], at: 2)
        #expect(field("Chain", in: view)?.people == ["P1", "P0"])
        #expect(field("Chain", in: view)?.value == "P1 › P0")
        #expect(field("Chain", in: view)?.after == nil, "the top of the organisation is no problem")
        #expect(field("Reports", in: view)?.value == "2 (2 in all)")
        #expect(reportLines(in: view) == ["P3", "P4"])
        presenter.showPrevious()
        presenter.showPrevious()
        #expect(field("Chain", in: view) == nil, "the top person has no chain")
        #expect(field("Manager", in: view)?.value == "— (at the top)")
    }

    @Test("a chain whose top has a manager not here, or is in a loop, ends with what is wrong")
    func chainProblems() throws {
        // P0's manager is not here; P1 under P0. P2 → P3 → P4 → P2: a loop; P5 under P4.
        let (presenter, view, _) = try make([99, 0, 3, 4, 2, 4], at: 1)
        #expect(field("Chain", in: view)?.people == ["P0"])
        #expect(field("Chain", in: view)?.after == "⚠ manager not here")
        for _ in 0..<4 { presenter.showNext() }
        let chain = try #require(field("Chain", in: view))
        #expect(chain.people.first == "P4" && chain.people.count <= 3, "the walk ends: the loop is broken at one of its people")
        #expect(chain.after == "⚠ in a loop of managers")
    }

    @Test("a manager reference two people fit: the Manager line, and the chain of those under them, say what it was and how many it names")
    func ambiguousManager() throws {
        // P0 and P1 are both Ann Lee; P2 names "Ann Lee"; P3 reports to P2.
        let people = [orgPerson("P0", "Ann Lee"), orgPerson("P1", "Ann Lee"), orgPerson("P2", "Cy", manager: "Ann Lee"),
                      orgPerson("P3", "Di", manager: "P2")]
        let (presenter, view, _) = try make(ResolvedOrgChartReading(people: people), count: 4, at: 2)
        #expect(field("Manager", in: view)?.value == #"— (manager ambiguous: "Ann Lee" names 2 people)"#)
        #expect(field("Manager", in: view)?.copyText == "", "y copies no made-up manager")
        presenter.showNext()
        #expect(field("Chain", in: view)?.people == ["P2"])
        #expect(field("Chain", in: view)?.after == #"⚠ manager ambiguous: "Ann Lee" names 2 people"#)
    }

    @Test("Tab stops on each manager of the chain and each report after the record's fields; Enter opens the one under the cursor")
    func enterOpens() throws {
        let (presenter, view, wireframe) = try make([-1, 0, 1, 2, 2], at: 2)
        presenter.openSelected()
        #expect(wireframe.routes.isEmpty, "on the email, Enter opens nobody")
        #expect(view.models.last?.status == "Tab to a manager or a report; Enter opens them")
        // S-Tab from the email's stop wraps to the last stop: the last report.
        presenter.moveFieldCursor(by: -(DetailPresenter.emailField + 1))
        #expect(view.models.last?.selectedPerson == 0)
        #expect(view.models.last?.fields[view.models.last?.selectedField ?? 0].value == "P4")
        presenter.openSelected()
        presenter.moveFieldCursor(by: -1)
        presenter.moveFieldCursor(by: -1)
        let selected = try #require(view.models.last?.selectedField)
        #expect(view.models.last?.fields[selected].label == "Chain" && view.models.last?.selectedPerson == 1)
        presenter.openSelected()
        presenter.moveFieldCursor(by: -1)
        presenter.openSelected()
        #expect(wireframe.routes == [.person(4), .person(0), .person(1)])
        presenter.moveFieldCursor(by: 4)
        #expect(view.models.last?.selectedField == 0, "past the last report, Tab wraps to the first field")
    }

    @Test("a manager of more than a hundred lists the first hundred by name and says how many more")
    func manyReports() throws {
        let (_, view, _) = try make([-1] + [Int32](repeating: 0, count: 130), at: 0)
        #expect(field("Reports", in: view)?.value == "130 (130 in all)")
        let lines = reportLines(in: view)
        #expect(lines.count == OrgPlace.reportsListed + 1)
        #expect(lines.prefix(3) == ["P1", "P10", "P100"], "by name")
        #expect(lines.last == "… and 30 more (T shows them all)")
    }

    @Test("T asks for the org chart at the person shown, by their record's _id")
    func orgChartKey() throws {
        let (presenter, _, wireframe) = try make([-1, 0, 0], at: 2)
        presenter.showOrgChart()
        #expect(wireframe.routes == [.orgChart(recordID: "P2")])
    }

    @Test("y on a manager of the chain copies their name")
    func copiesName() throws {
        let clipboard = SpyClipboard()
        let records = (0..<3).map { #"{"_id": "P\#($0)", "name": {"first": "F", "last": "L\#(1000 + $0)"}}"# }
        let repository = try FakePeopleRepository(json: Fixtures.array(records))
        let reader = HeldReader()
        let cache = OrgChartCache(reading: FixedOrgChartReading(managers: [-1, 0, 1]), reader: reader)
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository,
                                                                     arrangement: repository.arrange(sort: .byLastName, byCompany: false, company: nil),
                                                                     orgChart: cache),
                                        position: 2, wireframe: SpyDetailWireframe(), clipboard: clipboard)
        presenter.attach(view: SpyDetailView())
        reader.release()
        presenter.moveFieldCursor(by: -(DetailPresenter.emailField + 1))
        presenter.copyField()
        #expect(clipboard.copied == ["P0"], "the last stop: the top of the chain")
    }
}

/// A chart whose managers are resolved from `people`'s references, as a file's are.
struct ResolvedOrgChartReading: OrgChartReading {
    let people: [OrgPerson]
    func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        .loaded(OrgChart(tree: OrgTree(ManagerResolution(orgDirectory(people))), people: NumberedPeople()))
    }
}
