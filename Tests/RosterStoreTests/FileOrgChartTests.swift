import Testing
@testable import RosterCore
@testable import RosterStore

/// A file's org chart: the `manager` field the store does not keep, read
/// from each record in the file (JSON, JSON Lines, CSV), resolved by id,
/// email or full name.
@Suite("A file's org chart")
struct FileOrgChartTests {
    static func chart(_ text: String, _ format: InputFormat? = nil) throws -> OrgChartLoad {
        let bytes = Array(text.utf8)
        let loaded = try PeopleLoader(format: format).load(bytes: bytes, sourceName: "org")
        return bytes.withUnsafeBufferPointer {
            FileOrgChart.chart(of: loaded.store, fileBytes: $0, format: format, sourceName: "org", orderKeys: nil)
        }
    }

    static func tree(_ text: String, _ format: InputFormat? = nil) throws -> OrgTree {
        guard case .loaded(let chart) = try chart(text, format) else {
            Issue.record("no chart")
            return OrgTree(managers: [])
        }
        return chart.tree
    }

    static let json = """
        [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org"},
         {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@example.org", "manager": "a1"},
         {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "manager": "Grace@Example.org"},
         {"_id": "x4", "name": {"first": "Xavier", "last": "Mays"}, "manager": "ada lovelace", "company": "ISOTEK"},
         {"_id": "n5", "name": {"first": "Nell", "last": "Wall"}, "manager": "Nobody Here"},
         {"_id": "e6", "name": {"first": "Esc", "last": "Ape"}, "manager": "\\u0061\\u0031"},
         {"_id": "z7", "name": {"first": "Null", "last": "Boss"}, "manager": null}]
        """

    @Test("JSON: by id, email and full name (any case), escapes read; a missing manager is a problem, null is none")
    func json() throws {
        let tree = try Self.tree(Self.json)
        #expect(tree.managers == [-1, 0, 1, 0, -1, 0, -1])
        #expect(tree.rootReason(of: 4) == .missingManager && tree.rootReason(of: 6) == .noManager)
        #expect(tree.problemSummary == "1 with a manager not here")
    }

    @Test("LDIF: manager: names a DN, as written, base64 (manager::) or folded and spelled otherwise (case, spaces); an entry without one is at the top")
    func ldif() throws {
        let ldif = """
            version: 1

            dn: uid=ada,ou=People,dc=example,dc=org
            uid: ada
            cn: Ada Lovelace
            sn: Lovelace

            dn: uid=grace,ou=People,dc=example,dc=org
            cn: Grace Hopper
            sn: Hopper
            manager: uid=ada,ou=People,dc=example,dc=org

            dn: uid=alan,ou=People,dc=example,dc=org
            cn: Alan Turing
            sn: Turing
            Manager:: dWlkPWdyYWNlLG91PVBlb3BsZSxkYz1leGFtcGxlLGRjPW9yZw==

            dn: uid=kj,ou=People,dc=example,dc=org
            cn: Katherine Johnson
            sn: Johnson
            manager: UID=grace, ou=People,
             dc=example,dc=org

            dn: uid=nell,ou=People,dc=example,dc=org
            cn: Nell Wall
            sn: Wall
            manager: uid=nobody,ou=People,dc=example,dc=org

            """
        let tree = try Self.tree(ldif, .ldif)
        #expect(tree.managers == [-1, 0, 1, 1, -1])
        #expect(tree.rootReason(of: 4) == .missingManager && tree.rootReason(of: 0) == .noManager)
    }

    @Test("JSON Lines and CSV alike, a CSV's manager column found by its header")
    func linesAndCSV() throws {
        let lines = """
            {"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}}
            {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "manager": "a1"}

            """
        #expect(try Self.tree(lines, .jsonLines).managers == [-1, 0])
        let csv = """
            id,first_name,last_name,email,Manager
            a1,Ada,Lovelace,ada@example.org,
            g2,Grace,Hopper,grace@example.org,a1
            t3,Alan,Turing,,"Grace Hopper"

            """
        #expect(try Self.tree(csv, .csv).managers == [-1, 0, 1])
    }

    @Test("a file whose records name no manager has no chart, and says so naming the file")
    func noManagers() throws {
        let plain = #"[{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}}]"#
        guard case .noManagers(let text) = try Self.chart(plain) else { Issue.record("a chart"); return }
        #expect(text.hasPrefix("No one in org has a \"manager\" field"))
        let csv = "id,first_name,last_name\na1,Ada,Lovelace\n"
        guard case .noManagers = try Self.chart(csv, .csv) else { Issue.record("a chart"); return }
    }

    @Test("a skipped record does not shift anyone's manager onto another person")
    func skippedRecord() throws {
        let text = """
            [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}},
             {"_id": "bad", "manager": "a1"},
             {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "manager": "a1"},
             {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}}]
            """
        #expect(try Self.tree(text).managers == [-1, 0, -1])
    }

    @Test("a loop of managers is broken and named")
    func loop() throws {
        let text = """
            [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "manager": "g2"},
             {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "manager": "a1"}]
            """
        let tree = try Self.tree(text)
        #expect(tree.cycles == [[0, 1]] && tree.problemSummary == "1 loop of managers")
    }
}

/// Hands back the chart of fixed managers, keeping the order it was asked for.
final class RecordingOrgChartReading: OrgChartReading, @unchecked Sendable {
    private(set) var orderKeys: [Int32]?
    let managers: [Int32]
    init(managers: [Int32]) { self.managers = managers }

    func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        self.orderKeys = orderKeys
        let order: OrgReportOrder = orderKeys.map { .keys($0) } ?? .personNumber
        return .loaded(OrgChart(tree: OrgTree(managers: managers, order: order), people: StorePeopleNames(store: PeopleStore(segments: []))))
    }
}

@Suite("The org chart's interactor over a file in memory")
@MainActor
struct OrgChartInteractorTests {
    static func repository() throws -> InMemoryPeopleRepository {
        InMemoryPeopleRepository(try PeopleLoader().load(bytes: Array(FileOrgChartTests.json.utf8), sourceName: "org.json"))
    }

    @Test("the chart is of everyone in the list's order, whatever its filter; no reading says why there is no chart")
    func order() async throws {
        let repository = try Self.repository()
        let byLast = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let filtered = try await repository.search(SearchQuery("ada"), in: byLast, within: nil)
        let reading = RecordingOrgChartReading(managers: [-1, 0, 1, 0, -1, 0, -1])
        var load: OrgChartLoad?
        OrgChartInteractor(repository: repository, shown: filtered, reading: reading).loadChart { load = $0 }
        // Last names: Lovelace 0, Hopper 1, Turing 2, Mays 3, Wall 4, Ape 5, Boss 6.
        #expect(reading.orderKeys == [3, 2, 5, 4, 6, 0, 1])
        guard case .loaded(let chart) = load else { Issue.record("no chart"); return }
        #expect(Array(chart.tree.directReports(of: 0)) == [5, 1, 3], "Ape, Hopper, Mays")
        var none: OrgChartLoad?
        OrgChartInteractor(repository: repository, shown: byLast, reading: nil).loadChart { none = $0 }
        guard case .unavailable(let reason) = none else { Issue.record("a chart"); return }
        #expect(reason == OrgChartInteractor.noChartReason)
    }

    @Test("a search's matches are the repository's, by person number")
    func matches() async throws {
        let repository = try Self.repository()
        let interactor = OrgChartInteractor(repository: repository, shown: repository.arrange(sort: .byLastName, byCompany: false, company: nil),
                                            reading: nil)
        let found: Result<[Int], RepositoryError> = await withCheckedContinuation { continuation in
            interactor.matches(of: "company:isotek") { continuation.resume(returning: $0) }
        }
        #expect(try found.get() == [3])
    }
}
