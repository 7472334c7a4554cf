import Testing
@testable import RosterCore

/// The search prompt's state alone: no presenter, no repository.
@Suite("List search prompt")
struct ListSearchTests {
    /// A result of `query` holding `count` people (the prompt never looks inside).
    static func result(_ query: String, count: Int) -> PeopleArrangement {
        PeopleArrangement(sort: SortOrder(.lastName), byCompany: true, company: nil, query: SearchQuery(query),
                          sections: [], count: count, handle: 0)
    }

    @Test("typing asks for a search of the text; a narrower query searches within the earlier result")
    func typing() throws {
        var search = ListSearch()
        search.begin(selected: nil, history: [])
        let firstAsked = search.replace(with: "ann")
        let first = try #require(firstAsked)
        #expect(first.query.text == "ann")
        #expect(first.within == nil)
        search.show(Self.result("ann", count: 5))
        #expect(search.filter == "ann")
        let narrowerAsked = search.apply(.insert("e"))
        let narrower = try #require(narrowerAsked)
        #expect(narrower.query.text == "anne")
        #expect(narrower.within == Self.result("ann", count: 5))
    }

    @Test("a cursor move asks for no search")
    func cursorMove() {
        var search = ListSearch()
        search.begin(selected: nil, history: [])
        _ = search.replace(with: "ann")
        #expect(search.apply(.moveToStart) == nil)
        #expect(search.line.cursor == 0)
    }

    @Test("a term with an error is left out of the search and named; Enter keeps the prompt open on it")
    func error() throws {
        var search = ListSearch()
        search.begin(selected: nil, history: [])
        let requestAsked = search.replace(with: "comstar age>x")
        let request = try #require(requestAsked)
        #expect(request.query.text == "comstar")
        #expect(search.error != nil)
        #expect(search.commit() == nil)
        #expect(search.isEditing)
        _ = search.replace(with: "comstar age>30")
        #expect(search.error == nil)
        #expect(search.commit() == "comstar age>30")
        #expect(!search.isEditing)
    }

    @Test("Esc puts back the filter and the person selected when the prompt opened")
    func cancelRestores() {
        var search = ListSearch()
        let before = Self.result("ann", count: 5)
        search.show(before)
        search.begin(selected: PersonID(7), history: [])
        _ = search.replace(with: "bob")
        search.show(Self.result("bob", count: 2))
        let cancelled = search.cancel()
        #expect(cancelled.restoring == before)
        #expect(cancelled.selection == PersonID(7))
        #expect(search.line.text == "ann")
        #expect(!search.isEditing)
    }

    @Test("Esc on a prompt opened without a filter clears it; Esc with the prompt closed restores nothing")
    func cancelClears() {
        var search = ListSearch()
        search.begin(selected: PersonID(3), history: [])
        _ = search.replace(with: "bob")
        let cancelled = search.cancel()
        #expect(cancelled.restoring == nil)
        #expect(cancelled.selection == PersonID(3))
        let closed = search.cancel()
        #expect(closed.restoring == nil)
        #expect(closed.selection == nil)
    }

    @Test("an empty query is no filter; Backspace back to an earlier query searches within its own result")
    func recentSearches() throws {
        var search = ListSearch()
        search.begin(selected: nil, history: [])
        _ = search.replace(with: "an")
        search.show(Self.result("an", count: 40))
        _ = search.replace(with: "ann")
        search.show(Self.result("ann", count: 5))
        _ = search.replace(with: "annx")
        search.show(Self.result("annx", count: 0))
        let backAsked = search.apply(.deleteBackward)
        let back = try #require(backAsked)
        #expect(back.within == Self.result("ann", count: 5))
        search.show(Self.result("", count: 40))
        #expect(search.filter == nil)
        #expect(search.result == nil)
    }

    @Test("/ opens on the filter in force with the prompt's history")
    func beginKeepsText() {
        var search = ListSearch()
        _ = search.replace(with: "ann")
        search.close()
        search.begin(selected: nil, history: ["older"])
        #expect(search.isEditing)
        #expect(search.line.text == "ann")
        _ = search.apply(.previousEntry)
        #expect(search.line.text == "older")
    }
}
