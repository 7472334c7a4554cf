import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("Search")
struct SearchTests {
    static let directory = try! Fixtures.directory(json: Fixtures.array([
        Fixtures.record(first: "José", last: "Núñez", company: "ACME", email: "jn@acme.test", index: 0),
        Fixtures.record(first: "Ada", last: "Lovelace", company: "Analytical", email: "ada@engine.test", index: 1,
                        extra: #""phone": "+1 (555) 010-2000", "address": "1 Malmö Street, Springfield""#),
        Fixtures.record(first: "Grace", last: "Hopper", company: "Navy", email: "grace@navy.test", index: 2),
        Fixtures.record(first: "Joseph", last: "Smith", company: "ACME", email: "joe@acme.test", index: 3),
        Fixtures.record(first: "Alan", last: "Turing", company: "Bletchley", email: "alan@bp.test", index: 4),
    ]))
    static let grouped = GroupedPeople(store: directory.store)

    static func names(_ text: String, within: SearchResult? = nil) -> [String] {
        let result = PeopleSearch.filter(grouped, store: directory.store, query: SearchQuery(text), within: within)!
        return result.grouped.order.map { directory.store[Int($0)].fullName }
    }

    @Test("matches names, email, company, phone and address, ignoring case and accents")
    func fields() {
        #expect(Self.names("jose") == ["José Núñez", "Joseph Smith"])
        #expect(Self.names("NUNEZ") == ["José Núñez"])
        #expect(Self.names("josé núñez") == ["José Núñez"])
        #expect(Self.names("engine.test") == ["Ada Lovelace"])
        #expect(Self.names("navy") == ["Grace Hopper"])
        #expect(Self.names("010-2000") == ["Ada Lovelace"])
        #expect(Self.names("malmo") == ["Ada Lovelace"])
        #expect(Self.names("acme") == ["José Núñez", "Joseph Smith"])
        #expect(Self.names("zzz").isEmpty)
    }

    @Test("a match never spans two fields")
    func noCrossFieldMatch() {
        // email "ada@engine.test" is followed by the phone "+1 (555)…".
        #expect(Self.names("test+1").isEmpty)
    }

    @Test("sections keep the list order and their full headcount; empty ones go")
    func sections() throws {
        let result = try #require(PeopleSearch.filter(Self.grouped, store: Self.directory.store, query: SearchQuery("jo")))
        #expect(result.grouped.sections.map(\.title) == ["ACME"])
        #expect(result.grouped.sections.map(\.count) == [2])
        #expect(result.grouped.sections.map(\.total) == [2])
        let narrow = try #require(PeopleSearch.filter(Self.grouped, store: Self.directory.store, query: SearchQuery("smith")))
        #expect(narrow.grouped.sections.map { "\($0.title) \($0.count)/\($0.total)" } == ["ACME 1/2"])
    }

    @Test("a longer query searches only the previous matches and finds the same")
    func narrowing() throws {
        let first = try #require(PeopleSearch.filter(Self.grouped, store: Self.directory.store, query: SearchQuery("jo")))
        #expect(SearchQuery("jos").narrows(first.query))
        #expect(!SearchQuery("ada").narrows(first.query))
        #expect(Self.names("jose", within: first) == Self.names("jose"))
    }

    @Test("a cancelled search returns nothing")
    func cancelled() {
        let people = (0..<20_000).map { Fixtures.record(first: "P\($0)", index: $0) }
        let directory = try! Fixtures.directory(json: Fixtures.array(people))
        let result = PeopleSearch.filter(GroupedPeople(store: directory.store), store: directory.store,
                                         query: SearchQuery("p1"), isCancelled: { true })
        #expect(result == nil)
    }

    @Test("match ranges are in characters of the shown text")
    func ranges() {
        #expect(SearchQuery("nunez").matchRanges(in: "José Núñez") == [5..<10])
        #expect(SearchQuery("an").matchRanges(in: "Anna Ann") == [0..<2, 5..<7])
        #expect(SearchQuery("x").matchRanges(in: "Bob").isEmpty)
    }

    @Test("the fast Latin folding agrees with Foundation's on Latin-1 and Latin Extended-A letters")
    func latinFolding() {
        var mapped = 0
        for value in 0xC0...0x17F {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            var fast: [UInt8] = []
            Array(text.utf8).withUnsafeBufferPointer { LatinFolding.fold($0, into: &fast) }
            let reference = TextFolding.foldedBytes(text)
            if fast.count == 1 {
                // Mapped to a base letter: exactly what Foundation says.
                #expect(fast == reference, "U+\(String(value, radix: 16)) \(text)")
                mapped += 1
            } else {
                // Not mapped (×, æ, ß …): kept byte for byte, never half-folded.
                #expect(fast == Array(text.utf8), "U+\(String(value, radix: 16)) \(text) is kept as it is")
            }
        }
        // Most of the two blocks are letters with a base: the check above
        // must not pass by mapping nothing.
        #expect(mapped >= 150, "only \(mapped) letters mapped")
    }
}
