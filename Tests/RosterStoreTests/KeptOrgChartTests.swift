import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// A file's org chart read once per store and kept (`KeptOrgChartReading`):
/// `T`, the person's screen and the queries share it; a new store (an edit,
/// the file read again) has its own, so an old chart is never shown.
@Suite("The org chart kept per store")
@MainActor
struct KeptOrgChartTests {
    /// Ada leads Grace, who leads Alan.
    static let before = """
        [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}},
         {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "manager": "a1"},
         {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "manager": "g2"}]
        """
    /// Alan moved under Ada.
    static let after = before.replacingOccurrences(of: #""manager": "g2""#, with: #""manager": "a1""#)

    static func managers(_ load: OrgChartLoad) -> [Int32] {
        guard case .loaded(let chart) = load else { return [] }
        return chart.tree.managers
    }

    @Test("read once, ahead, for every ask: the list's order, the person's screen, a query")
    func readOnce() async throws {
        let (repository, reading) = try OrgQueryTests.repository(Self.before)
        let kept = try #require(repository.orgChartReading)
        #expect(!kept.isRead)
        kept.prepare(through: ReadingNow())
        #expect(kept.isRead && reading.readCount == 1)
        #expect(Self.managers(kept.readChart(orderKeys: nil)) == [-1, 0, 1])
        guard case .loaded(let ordered) = kept.readChart(orderKeys: [2, 1, 0]) else { Issue.record("no chart"); return }
        #expect(ordered.tree.managers == [-1, 0, 1] && ordered.tree.roots == [0])
        #expect(try await OrgQueryTests.found("under:a1", in: repository) == ["g2", "t3"])
        kept.prepare(through: ReadingNow())
        #expect(reading.readCount == 1)
    }

    @Test("a list's order puts each manager's reports in it; asked again in that order, the same chart")
    func inTheListsOrder() throws {
        let text = """
            [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}},
             {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "manager": "a1"},
             {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "manager": "a1"}]
            """
        let (repository, _) = try OrgQueryTests.repository(text)
        let kept = try #require(repository.orgChartReading)
        guard case .loaded(let bySource) = kept.readChart(orderKeys: nil),
              case .loaded(let byKeys) = kept.readChart(orderKeys: [0, 2, 1]) else { Issue.record("no chart"); return }
        #expect(Array(bySource.tree.directReports(of: 0)) == [1, 2])
        #expect(Array(byKeys.tree.directReports(of: 0)) == [2, 1])
        guard case .loaded(let again) = kept.readChart(orderKeys: [0, 2, 1]) else { Issue.record("no chart"); return }
        #expect(again.tree.outline == byKeys.tree.outline)
    }

    @Test("an edit or a read again makes a new store: its chart is its own, never the old one, which stays as it was")
    func newStoreNewChart() throws {
        let (old, _) = try OrgQueryTests.repository(Self.before)
        let session = ListSession()
        session.orgChartReading = { ($0 as? InMemoryPeopleRepository)?.orgChartReading }
        #expect(Self.managers(try #require(session.orgChartReading?(old)).readChart(orderKeys: nil)) == [-1, 0, 1])
        let oldCache = session.orgChartCache(for: old, reader: ReadingNow())
        let (new, _) = try OrgQueryTests.repository(Self.after)
        session.prepareOrgChart(of: new, replacing: old, reader: ReadingNow())
        #expect(Self.managers(try #require(session.orgChartReading?(new)).readChart(orderKeys: nil)) == [-1, 0, 0])
        #expect(session.orgChartCache(for: new, reader: ReadingNow()) !== oldCache)
        #expect(Self.managers(try #require(session.orgChartReading?(old)).readChart(orderKeys: nil)) == [-1, 0, 1])
    }

    @Test("read ahead for the first list, and after a read again only when the chart it replaces was read")
    func readAheadWhenUsed() throws {
        let session = ListSession()
        session.orgChartReading = { ($0 as? InMemoryPeopleRepository)?.orgChartReading }
        let (first, _) = try OrgQueryTests.repository(Self.before)
        session.prepareOrgChart(of: first, replacing: nil, reader: ReadingNow())
        #expect(first.orgChartReading?.isRead == true)
        let (second, _) = try OrgQueryTests.repository(Self.after)
        session.prepareOrgChart(of: second, replacing: first, reader: ReadingNow())
        #expect(second.orgChartReading?.isRead == true)
        let (unused, _) = try OrgQueryTests.repository(Self.before)
        let (third, _) = try OrgQueryTests.repository(Self.after)
        session.prepareOrgChart(of: third, replacing: unused, reader: ReadingNow())
        #expect(third.orgChartReading?.isRead == false)
    }

    /// Unreadable at first, then a chart: counts its reads.
    final class FlakyReading: OrgChartReading, @unchecked Sendable {
        let loads: Locked<[OrgChartLoad]>
        init(_ loads: [OrgChartLoad]) { self.loads = Locked(loads) }
        func readChart(orderKeys: [Int32]?) -> OrgChartLoad { loads.withLock { $0.isEmpty ? .unavailable("read again") : $0.removeFirst() } }
    }

    @Test("a file that could not be read is asked again at the next open; a file without managers is not")
    func failureNotKept() {
        let chart = OrgChartLoad.loaded(OrgChart(tree: OrgTree(managers: [-1, 0]), people: StorePeopleNames(store: PeopleStore(segments: []))))
        let flaky = KeptOrgChartReading(FlakyReading([.unavailable("gone"), chart]))
        guard case .unavailable = flaky.readChart(orderKeys: nil) else { Issue.record("kept no failure"); return }
        #expect(!flaky.isRead)
        #expect(Self.managers(flaky.readChart(orderKeys: nil)) == [-1, 0] && flaky.isRead)
        let none = KeptOrgChartReading(FlakyReading([.noManagers("none")]))
        _ = none.readChart(orderKeys: nil)
        guard case .noManagers = none.readChart(orderKeys: nil) else { Issue.record("read twice"); return }
    }
}
