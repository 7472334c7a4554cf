import Testing
@testable import RosterCore

/// The org chart's terms in the query language: `reports-to:X`, `under:X`
/// (X an `_id`, email, DN or quoted name) and `depth` as a number.
@Suite("Query parser: the org chart's terms")
struct OrgQueryParserTests {
    static func conditions(_ text: String) throws -> [QueryCondition] { try QueryParserTests.conditions(text) }
    static func error(_ text: String) -> QueryError? { QueryParserTests.error(text) }

    @Test("reports-to: and under: take an id, an email, a DN or a quoted name; the name ignores case, - and _")
    func references() throws {
        #expect(try Self.conditions("reports-to:a1") == [.org(.reportsTo, "a1")])
        #expect(try Self.conditions("Reports_To:ada@example.org") == [.org(.reportsTo, "ada@example.org")])
        #expect(try Self.conditions("reportsto=a1") == [.org(.reportsTo, "a1")])
        #expect(try Self.conditions(#"under:"Ada Lovelace""#) == [.org(.under, "Ada Lovelace")])
        #expect(try Self.conditions("under:cn=Ada,ou=people,dc=example,dc=org") == [.org(.under, "cn=Ada,ou=people,dc=example,dc=org")])
    }

    @Test("they combine with every other term and with -; their places are kept for errors")
    func combined() throws {
        let query = try QueryParser.parse(#"under:"Ada Lovelace" -reports-to:g2 company:acme age>30"#)
        #expect(query.terms == [
            QueryTerm(.org(.under, "Ada Lovelace"), range: 0..<20),
            QueryTerm(.org(.reportsTo, "g2"), isNegated: true, range: 21..<35),
            QueryTerm(.text(.company, "acme"), range: 36..<48),
            QueryTerm(.number(.age, .greater(30)), range: 49..<55),
        ])
        #expect(SearchQuery(#"under:"Ada Lovelace" company:acme"#).asksOrgChart)
        #expect(!SearchQuery("company:acme age>30").asksOrgChart)
    }

    @Test("depth is a whole number: every comparison and range ages take")
    func depth() throws {
        #expect(try Self.conditions("depth>5") == [.depth(.greater(5))])
        #expect(try Self.conditions("depth:2") == [.depth(.equal(2))])
        #expect(try Self.conditions("depth<=1 depth=0") == [.depth(.lessOrEqual(1)), .depth(.equal(0))])
        #expect(try Self.conditions("depth:2-4 -depth:0..1") == [.depth(.between(2, 4)), .depth(.between(0, 1))])
    }

    @Test("no person, a comparison on a person, a bad depth and an empty range are errors at their place")
    func errors() {
        #expect(Self.error("under:")?.message == #"under: needs a person: an _id, an email or "First Last""#)
        #expect(Self.error("x reports-to=")?.range == 2..<13)
        #expect(Self.error(#"under:"""#)?.message.hasPrefix("under: needs a person") == true)
        #expect(Self.error("under>a1")?.message == #"under names a person: write under:ID, an email or "First Last""#)
        #expect(Self.error("depth>x") == QueryError("depth is a whole number of levels under the top, not 'x'", at: 6..<7))
        #expect(Self.error("depth>-1")?.message == "depth is a whole number of levels under the top, not '-1'")
        #expect(Self.error("depth:4-2")?.message == "depth:4-2 is an empty range: write the lower end first")
        #expect(Self.error("depth=")?.message == "depth= needs a value")
        #expect(Self.error("undr:a1")?.message.hasPrefix("unknown field 'undr': did you mean under?") == true)
    }

    @Test("a narrower depth or the same person narrows an earlier search; another person does not")
    func narrowing() {
        #expect(SearchQuery("depth>3").narrows(SearchQuery("depth>2")))
        #expect(!SearchQuery("depth>2").narrows(SearchQuery("depth>3")))
        #expect(SearchQuery("under:a1 acme").narrows(SearchQuery("under:a1")))
        #expect(!SearchQuery("under:a2").narrows(SearchQuery("under:a1")))
        #expect(!SearchQuery("reports-to:a1").narrows(SearchQuery("under:a1")))
    }

    @Test("a term the chart has not answered matches nobody's reference: only a source's chart answers it")
    func reference() {
        let person = Person(id: "a1", firstName: "Ada", lastName: "Lovelace")
        #expect(!PeopleQuery(terms: [QueryTerm(.org(.under, "a1"))]).matches(person))
        #expect(!PeopleQuery(terms: [QueryTerm(.depth(.equal(0)))]).matches(person))
    }
}
