import Testing
@testable import RosterCore
@testable import RosterStore

/// `reports-to:X`, `under:X` and `depth` answered by a file's org chart:
/// read once, at the first search that asks, and never by a plain search.
@Suite("Queries over the org chart of a file in memory")
struct OrgQueryTests {
    /// Ada leads Grace (by id), who leads Alan (by email) and Katherine (by
    /// name); Xavier reports to Ada by name; Nell's manager is not here;
    /// Ole and Lena are each other's manager, with Ivy under Ole; Sam is
    /// his own manager, with Tom under him; two people are "Kim Park".
    static let json = """
        [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org", "company": "ANALYTICAL", "age": 36},
         {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@example.org", "manager": "a1", "age": 45},
         {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "manager": "Grace@Example.org", "company": "BLETCHLEY", "age": 41},
         {"_id": "k4", "name": {"first": "Katherine", "last": "Johnson"}, "manager": "grace hopper", "age": 50},
         {"_id": "x5", "name": {"first": "Xavier", "last": "Mays"}, "manager": "Ada Lovelace", "age": 28},
         {"_id": "n6", "name": {"first": "Nell", "last": "Wall"}, "manager": "Nobody Here"},
         {"_id": "o7", "name": {"first": "Ole", "last": "Loop"}, "manager": "l8"},
         {"_id": "l8", "name": {"first": "Lena", "last": "Loop"}, "manager": "o7"},
         {"_id": "i9", "name": {"first": "Ivy", "last": "Under"}, "manager": "o7"},
         {"_id": "s10", "name": {"first": "Sam", "last": "Self"}, "manager": "s10"},
         {"_id": "t11", "name": {"first": "Tom", "last": "Thumb"}, "manager": "s10"},
         {"_id": "p12", "name": {"first": "Kim", "last": "Park"}, "email": "kim1@example.org"},
         {"_id": "p13", "name": {"first": "Kim", "last": "Park"}, "email": "kim2@example.org", "manager": "kim1@example.org"}]
        """

    /// The chart of `bytes`, as the app reads a file's, counting its reads.
    final class BytesOrgChartReading: OrgChartReading, @unchecked Sendable {
        let bytes: [UInt8]
        let store: PeopleStore
        private let reads = Locked(0)
        var readCount: Int { reads.withLock { $0 } }

        init(bytes: [UInt8], store: PeopleStore) {
            self.bytes = bytes
            self.store = store
        }

        func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
            reads.withLock { $0 += 1 }
            return bytes.withUnsafeBufferPointer {
                FileOrgChart.chart(of: store, fileBytes: $0, format: nil, sourceName: "org.json", orderKeys: orderKeys)
            }
        }
    }

    static func repository(_ text: String = json) throws -> (InMemoryPeopleRepository, BytesOrgChartReading) {
        let bytes = Array(text.utf8)
        let loaded = try PeopleLoader().load(bytes: bytes, sourceName: "org.json")
        let reading = BytesOrgChartReading(bytes: bytes, store: loaded.store)
        return (InMemoryPeopleRepository(loaded, managers: { _ in reading }), reading)
    }

    /// The `_id`s `text` finds, in file order.
    static func found(_ text: String, in repository: InMemoryPeopleRepository) async throws -> [String] {
        let everyone = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let shown = try await repository.search(SearchQuery(text), in: everyone, within: nil)
        let ids = try await repository.personIDs(in: shown, positions: 0..<shown.count)
        return ids.map(\.rawValue).sorted().map { repository.store.text(.id, of: $0) }
    }

    /// Why `text` cannot be answered, as the search line says it.
    static func failure(_ text: String, in repository: InMemoryPeopleRepository) async -> String? {
        do {
            _ = try await found(text, in: repository)
            return nil
        } catch let error as RepositoryError {
            return error.reason
        } catch {
            return "\(error)"
        }
    }

    @Test("reports-to: the direct reports of a person named by id, email or name; under: everyone under them, not them")
    func reportsAndUnder() async throws {
        let (repository, _) = try Self.repository()
        #expect(try await Self.found("reports-to:a1", in: repository) == ["g2", "x5"])
        #expect(try await Self.found("reports-to:GRACE@example.org", in: repository) == ["t3", "k4"])
        #expect(try await Self.found(#"reports-to:"grace hopper""#, in: repository) == ["t3", "k4"])
        #expect(try await Self.found(#"under:"Ada Lovelace""#, in: repository) == ["g2", "t3", "k4", "x5"])
        #expect(try await Self.found("under:t3", in: repository).isEmpty)
    }

    @Test("they combine with the other terms and with -")
    func combined() async throws {
        let (repository, _) = try Self.repository()
        #expect(try await Self.found("under:a1 age>40", in: repository) == ["g2", "t3", "k4"])
        #expect(try await Self.found("under:a1 -reports-to:a1", in: repository) == ["t3", "k4"])
        #expect(try await Self.found("under:a1 company:bletchley", in: repository) == ["t3"])
        #expect(try await Self.found("-under:a1 loop", in: repository) == ["o7", "l8"])
        #expect(try await Self.found("under:a1 under:g2 turing", in: repository) == ["t3"])
    }

    @Test("depth: levels under the top; people at the top for a problem are at depth 0")
    func depth() async throws {
        let (repository, _) = try Self.repository()
        #expect(try await Self.found("depth>1", in: repository) == ["t3", "k4"])
        #expect(try await Self.found("depth:1", in: repository) == ["g2", "x5", "i9", "t11", "p13"])
        #expect(try await Self.found("depth:0 -loop -self", in: repository) == ["a1", "n6", "p12"])
        #expect(try await Self.found("depth:1-2 under:a1 age<45", in: repository) == ["t3", "x5"])
    }

    @Test("a loop of managers and a self-reference answer at once: each at the top, their other reports under them")
    func cycleAndSelf() async throws {
        let (repository, _) = try Self.repository()
        #expect(try await Self.found("under:o7", in: repository) == ["i9"])
        #expect(try await Self.found("reports-to:l8", in: repository).isEmpty)
        #expect(try await Self.found("under:s10", in: repository) == ["t11"])
        #expect(try await Self.found("reports-to:s10", in: repository) == ["t11"])
    }

    @Test("a person nobody is, or a name two people share, is said for the term, never an empty list")
    func missingAndAmbiguous() async throws {
        let (repository, _) = try Self.repository()
        #expect(await Self.failure("under:zed", in: repository) == "under:zed: nobody here has that _id, email, DN or name")
        #expect(await Self.failure(#"reports-to:"Kim Park" age>3"#, in: repository)
            == #"reports-to:"Kim Park": 2 people have that name; name one by _id or email"#)
        #expect(try await Self.found("reports-to:kim1@example.org", in: repository) == ["p13"])
    }

    @Test("a chart whose managers are all ids still finds a person by email or name (those tables made when first asked)")
    func idsOnlyChart() async throws {
        let (repository, _) = try Self.repository("""
            [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org"},
             {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "manager": "a1"},
             {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "manager": "g2"}]
            """)
        #expect(try await Self.found("under:a1", in: repository) == ["g2", "t3"])
        #expect(try await Self.found("under:ADA@example.org", in: repository) == ["g2", "t3"])
        #expect(try await Self.found(#"reports-to:"grace hopper""#, in: repository) == ["t3"])
        #expect(await Self.failure("under:zed", in: repository) == "under:zed: nobody here has that _id, email, DN or name")
    }

    @Test("the chart is read at the first search that asks, once; a plain search never reads it")
    func readOnce() async throws {
        let (repository, reading) = try Self.repository()
        _ = try await Self.found("ada", in: repository)
        _ = try await Self.found("age>30 -company:x", in: repository)
        #expect(reading.readCount == 0)
        _ = try await Self.found("under:a1", in: repository)
        _ = try await Self.found("depth>1", in: repository)
        _ = await Self.failure("under:zed", in: repository)
        #expect(reading.readCount == 1)
    }

    @Test("a search narrowed by the same person looks only at the earlier matches")
    func narrowing() async throws {
        let (repository, _) = try Self.repository()
        let everyone = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let earlier = try await repository.search(SearchQuery("under:a1"), in: everyone, within: nil)
        #expect(earlier.query?.text == "under:a1" && earlier.count == 4)
        let narrower = try await repository.search(SearchQuery("under:a1 age>40"), in: everyone, within: earlier)
        #expect(narrower.count == 3)
    }

    @Test("a file without managers, and a source that keeps none, say so in one line")
    func noChart() async throws {
        let (withoutManagers, _) = try Self.repository(#"[{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}}]"#)
        #expect(await Self.failure("under:a1", in: withoutManagers)
            == #"org.json has no managers (no "manager" field): reports-to:, under: and depth need them"#)
        let standardInput = InMemoryPeopleRepository(try PeopleLoader().load(bytes: Array(Self.json.utf8), sourceName: "stdin"))
        #expect(await Self.failure("depth>1", in: standardInput)
            == "stdin keeps no managers to search: reports-to:, under: and depth work on files for now")
        #expect(try await Self.found("ada", in: standardInput) == ["a1"])
    }
}
