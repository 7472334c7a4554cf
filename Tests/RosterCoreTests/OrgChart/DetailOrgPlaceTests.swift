import Testing
import TestSupport
@testable import RosterCore

/// A chart of fixed managers, read as a file's would be.
struct FixedOrgChartReading: OrgChartReading {
    let managers: [Int32]
    func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        .loaded(OrgChart(tree: OrgTree(managers: managers), people: NumberedPeople()))
    }
}

/// Holds blocking work until the test lets it run.
@MainActor
final class HeldReader: BackgroundReading {
    private var held: [@MainActor () -> Void] = []
    func perform<Value: Sendable>(_ work: @escaping @Sendable () -> Value, then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
        held.append { deliver(work()) }
    }
    func release() {
        let work = held
        held = []
        work.forEach { $0() }
    }
    var holds: Int { held.count }
}

@Suite("The person's screen: their manager and team")
@MainActor
struct DetailOrgPlaceTests {
    @Test("once the chart is read, the manager (name and email) and the reports show after the record's fields; read once")
    func managerAndReports() throws {
        // P0 at the top; P1 reports to P0, P2 to P1; P3's manager is not here.
        let repository = try FakePeopleRepository(json: Fixtures.array((0..<4).map { #"{"_id": "P\#($0)", "name": {"first": "F\#($0)", "last": "L\#($0)"}}"# }))
        let reader = HeldReader()
        let cache = OrgChartCache(reading: FixedOrgChartReading(managers: [-1, 0, 1, 9]), reader: reader)
        let view = SpyDetailView()
        let everyone = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: everyone, orgChart: cache),
                                        position: 1, wireframe: SpyDetailWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.fields.contains { $0.label == "Manager" } == false, "nothing made up before the chart is read")
        #expect(reader.holds == 1)
        reader.release()
        func orgFields() -> [String] {
            (view.models.last?.fields ?? []).filter { ["Manager", "Reports"].contains($0.label) }.map { "\($0.label): \($0.value)" }
        }
        #expect(orgFields() == ["Manager: P0 <p0@example.org>", "Reports: 1 (1 in all)"])
        presenter.showPrevious()
        #expect(orgFields() == ["Manager: — (at the top)", "Reports: 1 (2 in all)"])
        presenter.showNext()
        presenter.showNext()
        presenter.showNext()
        #expect(orgFields() == ["Manager: — (manager not here)", "Reports: none"])
        #expect(reader.holds == 0, "the chart is read once")
    }

    /// P0's screen, then P1's, over a source that answers as `reading` does.
    private static func lookingUp(_ reading: LookedUpOrgChart) throws -> (LookedUpOrgChart, HeldReader, SpyDetailView, DetailPresenter) {
        let repository = try FakePeopleRepository(json: Fixtures.array((0..<2).map { #"{"_id": "P\#($0)", "name": {"first": "F\#($0)", "last": "L\#($0)"}}"# }))
        let reader = HeldReader()
        let view = SpyDetailView()
        let everyone = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let interactor = DetailInteractor(repository: repository, arrangement: everyone, orgChart: OrgChartCache(reading: reading, reader: reader))
        let presenter = DetailPresenter(interactor: interactor, position: 0, wireframe: SpyDetailWireframe())
        presenter.attach(view: view)
        return (reading, reader, view, presenter)
    }

    @Test("a table answers for one person: the chain and team at once, the organisation when counted; the chart never read")
    func lookedUp() throws {
        let (reading, reader, view, presenter) = try Self.lookingUp(LookedUpOrgChart())
        func orgFields() -> [String] {
            (view.models.last?.fields ?? []).filter { ["Manager", "Reports"].contains($0.label) }.map { "\($0.label): \($0.value)" }
        }
        #expect(orgFields().isEmpty)
        reader.release()
        #expect(orgFields() == ["Manager: Ada <ada@example.org>", "Reports: 3 (counting everyone under them…)"])
        #expect(reader.holds == 1, "the organisation is counted next")
        reader.release()
        #expect(orgFields() == ["Manager: Ada <ada@example.org>", "Reports: 3 (12 in all)"])
        // P1's lookup fails (a connection lost): the record alone, asked once, not at every frame.
        presenter.showNext()
        reader.release()
        #expect(orgFields().isEmpty)
        presenter.showPrevious()
        presenter.showNext()
        #expect(reader.holds == 0)
        #expect(reading.asked == ["P0", "P1"])
    }

    @Test("an organisation too big to count person by person is counted by the chart, which then answers")
    func countedByTheChart() throws {
        let chart = FixedOrgChartReading(managers: [-1, 0]).readChart(orderKeys: nil)
        let (reading, reader, view, presenter) = try Self.lookingUp(LookedUpOrgChart(organisation: nil, chart: chart))
        func reports() -> String? { view.models.last?.fields.first { $0.label == "Reports" }?.value }
        reader.release()  // the person
        reader.release()  // their organisation: too many
        #expect(reports() == "3 (counting everyone under them…)", "still counting, now by the chart")
        #expect(reader.holds == 1)
        reader.release()  // the chart
        #expect(reports() == "1 (1 in all)", "the chart's answer")
        #expect(reading.asked == ["P0"])
        withExtendedLifetime(presenter) {}  // the view's presenter, held weakly by the callbacks
    }

    @Test("a source without a chart adds nothing")
    func noChart() throws {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let view = SpyDetailView()
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: repository.everyone),
                                        position: 0, wireframe: SpyDetailWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.fields.last?.label == "ID")
    }
}

/// A table's answers for one person at a time (`OrgPlaceLookup`): P0 has
/// Ada for a manager and three reports, twelve in all; P1 cannot be read.
final class LookedUpOrgChart: OrgChartReading, OrgPlaceLookup, @unchecked Sendable {
    private(set) var asked: [String] = []
    /// P0's organisation (nil: too many to count so).
    private let organisation: Int?
    /// The chart, when it may be read.
    private let chart: OrgChartLoad?

    init(organisation: Int? = 12, chart: OrgChartLoad? = nil) {
        self.organisation = organisation
        self.chart = chart
    }

    func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        guard let chart else {
            Issue.record("the chart is not read for a person's screen")
            return .unavailable("not read")
        }
        return chart
    }

    var placeLookup: (any OrgPlaceLookup)? { self }

    func place(ofRecord recordID: String) throws(RepositoryError) -> OrgPlace? {
        asked.append(recordID)
        guard recordID == "P0" else { throw RepositoryError(.unreadable, reason: "connection lost") }
        var place = OrgPlace(manager: "Ada <ada@example.org>", problem: nil, reports: 3, organisation: nil)
        place.isCountingOrganisation = true
        return place
    }

    func organisationSize(ofRecord recordID: String) throws(RepositoryError) -> Int? { organisation }
}
