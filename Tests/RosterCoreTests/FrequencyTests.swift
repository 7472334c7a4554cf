import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("Bars in eighths")
struct BarTextTests {
    @Test("the largest fills every cell; the rest round to the nearest eighth, half up; never empty above zero")
    func eighths() {
        #expect(BarText.eighths(count: 10, largest: 10, cells: 3) == 24)
        #expect(BarText.eighths(count: 5, largest: 10, cells: 3) == 12)
        #expect(BarText.eighths(count: 1, largest: 16, cells: 1) == 1)   // half an eighth rounds up
        #expect(BarText.eighths(count: 3, largest: 16, cells: 1) == 2)   // 1.5 → 2
        #expect(BarText.eighths(count: 5, largest: 16, cells: 1) == 3)   // 2.5 → 3
        #expect(BarText.eighths(count: 1, largest: 1_000_000, cells: 10) == 1)  // tiny, still seen
        #expect(BarText.eighths(count: 0, largest: 10, cells: 3) == 0)
        #expect(BarText.eighths(count: 3, largest: 0, cells: 3) == 0)
        #expect(BarText.eighths(count: 3, largest: 10, cells: 0) == 0)
        #expect(BarText.eighths(count: Int.max, largest: Int.max, cells: 24) == 192)  // no overflow
    }

    @Test("whole cells, then one partial block")
    func text() {
        #expect(BarText.bar(count: 10, largest: 10, cells: 3) == "███")
        #expect(BarText.bar(count: 5, largest: 10, cells: 3) == "█▌")
        #expect(BarText.bar(count: 1, largest: 8, cells: 1) == "▏")
        #expect(BarText.bar(count: 7, largest: 8, cells: 1) == "▉")
        #expect(BarText.bar(count: 0, largest: 8, cells: 1) == "")
        #expect((1...7).map { BarText.bar(count: $0, largest: 8, cells: 1) } == ["▏", "▎", "▍", "▌", "▋", "▊", "▉"])
    }
}

@Suite("Bands")
struct SummaryBandsTests {
    @Test("ages by decade, both ends in; below zero is one band")
    func ages() {
        #expect(SummaryBands.ageBand(of: 0) == 0...9)
        #expect(SummaryBands.ageBand(of: 29) == 20...29)
        #expect(SummaryBands.ageBand(of: 30) == 30...39)
        #expect(SummaryBands.ageBand(of: -1) == Int64.min...(-1))
        #expect(SummaryBands.ageTitle(30...39) == "30–39")
        #expect(SummaryBands.ageTitle(Int64.min...(-1)) == "below 0")
        #expect(SummaryBands.ageTerm(30...39) == "age:30-39")
        #expect(SummaryBands.ageTerm(Int64.min...(-1)) == "age<0")
        #expect(SummaryBands.ageTerm(999_999_990...999_999_999) == "age:999999990-999999999")
        #expect(SummaryBands.ageTerm(2_147_483_640...2_147_483_649) == nil)  // past what a query reads
    }

    @Test("balances by $1,000 to $10,000, then by powers of ten, to the 64-bit end")
    func balances() {
        #expect(SummaryBands.balanceBand(of: 0) == 0...99_999)
        #expect(SummaryBands.balanceBand(of: 99_999) == 0...99_999)
        #expect(SummaryBands.balanceBand(of: 100_000) == 100_000...199_999)
        #expect(SummaryBands.balanceBand(of: 999_999) == 900_000...999_999)
        #expect(SummaryBands.balanceBand(of: 1_000_000) == 1_000_000...9_999_999)
        #expect(SummaryBands.balanceBand(of: 9_999_999) == 1_000_000...9_999_999)
        #expect(SummaryBands.balanceBand(of: 10_000_000) == 10_000_000...99_999_999)
        #expect(SummaryBands.balanceBand(of: 999_999_999_999_999_999) == 100_000_000_000_000_000...999_999_999_999_999_999)
        #expect(SummaryBands.balanceBand(of: Int64.max) == 1_000_000_000_000_000_000...Int64.max)
        #expect(SummaryBands.balanceBand(of: -1) == Int64.min...(-1))
        #expect(SummaryBands.balanceTitle(100_000...199_999) == "$1,000–$1,999.99")
        #expect(SummaryBands.balanceTitle(1_000_000...9_999_999) == "$10,000–$99,999.99")
        #expect(SummaryBands.balanceTitle(Int64.min...(-1)) == "below $0")
        #expect(SummaryBands.balanceTerm(100_000...199_999) == "balance:1000-1999.99")
        #expect(SummaryBands.balanceTerm(0...99_999) == "balance:0-999.99")
        #expect(SummaryBands.balanceTerm(Int64.min...(-1)) == "balance<0")
        #expect(SummaryBands.balanceTerm(1_000_000_000_000_000_000...Int64.max) == "balance>=10000000000000000")
    }
}

@Suite("Counts by field: what Enter opens")
struct SummaryTermTests {
    static let directory = try! Fixtures.directory(json: RepositoryContract.frequencyPeople)

    static func people() -> [Person] { (0..<directory.store.count).map { directory.store[$0] } }

    @Test("every row's term selects exactly the people counted: through the reference and the store", arguments: [
        SummaryField.city, .state, .text(.eyeColor), .text(.favoriteFruit), .active, .ageBand, .balanceBand,
    ])
    func exact(_ field: SummaryField) async throws {
        try await Self.expectRowTermsExact(field, in: Self.directory)
    }

    @Test("on generated people (spellings that fold alike, accents, parts missing), every row of every field")
    func exactOnGeneratedPeople() async throws {
        var random = SeededRandom(seed: 20_261_130)
        let records = (0..<1500).map { QueryMatchingTests.person($0, &random) }
        let directory = try Fixtures.directory(json: Fixtures.array(records))
        for field in SummaryField.countedByRepositories where field != .company {
            try await Self.expectRowTermsExact(field, in: directory)
        }
        // The data must hold what the grouping is for: BLUE and blue are one row.
        let colours = try await directory.repository.valueSummaries(of: .text(.eyeColor), in: directory.everyone).map(\.title)
        #expect(colours.filter { $0.lowercased() == "blue" }.count == 1, "\(colours)")
    }

    static func expectRowTermsExact(_ field: SummaryField, in directory: LoadedDirectory) async throws {
        let people = (0..<directory.store.count).map { directory.store[$0] }
        let summaries = try await directory.repository.valueSummaries(of: field, in: directory.everyone)
        #expect(summaries.map(\.headcount).reduce(0, +) == people.count)
        for summary in summaries {
            let term = try #require(field.queryTerm(for: summary.value), "\(field) \(summary.title)")
            let query = try QueryParser.parse(term)
            #expect(people.filter(query.matches).count == summary.headcount, "\(term): reference")
            let found = try #require(directory.repository.searchNow(SearchQuery(term), in: directory.everyone, within: nil))
            #expect(found.count == summary.headcount, "\(term): store")
        }
    }

    @Test("text values are the whole value, quoted; (none) is field= ; a value with a quote and a space has no term")
    func text() throws {
        #expect(SummaryField.state.queryTerm(for: .text("Kansas")) == #"state="Kansas""#)
        #expect(SummaryField.city.queryTerm(for: .text("Rio Linda")) == #"city="Rio Linda""#)
        #expect(SummaryField.text(.eyeColor).queryTerm(for: .text("blue")) == #"eye="blue""#)
        #expect(SummaryField.text(.favoriteFruit).queryTerm(for: .text("apple")) == #"fruit="apple""#)
        #expect(SummaryField.city.queryTerm(for: .text(#"O"Hare"#)) == #"city=O"Hare"#)
        #expect(SummaryField.city.queryTerm(for: .text(#"say "hi""#)) == nil)
        #expect(SummaryField.city.queryTerm(for: .text(#""quoted"#)) == nil)
        #expect(SummaryField.city.queryTerm(for: .missing) == "city=")
        #expect(SummaryField.text(.eyeColor).queryTerm(for: .missing) == "eye=")
        #expect(SummaryField.ageBand.queryTerm(for: .missing) == "age=")
        #expect(SummaryField.balanceBand.queryTerm(for: .missing) == "balance=")
        #expect(SummaryField.active.queryTerm(for: .missing) == "active=")
        #expect(SummaryField.company.queryTerm(for: .company(1)) == nil)
        let kansas = try QueryParser.parse(#"state="Kansas""#)
        #expect(Self.people().filter(kansas.matches).count == 3)  // not Arkansas
        let quoted = try QueryParser.parse(#"city=O"Hare"#)
        #expect(quoted.terms.map(\.condition) == [.exact(.city, #"O"Hare"#)])
    }

    @Test("spellings that fold alike are one value, named by the commonest; a tie goes to the first in byte order")
    func spellings() {
        #expect(ValueSummary.preferred("blue", 3, over: "Blue", 1))
        #expect(!ValueSummary.preferred("Blue", 1, over: "blue", 3))
        #expect(ValueSummary.preferred("Blue", 2, over: "blue", 2))  // "B" < "b"
        #expect(ValueSummary.preferred("Malmo", 2, over: "Malmö", 2))
        let people = Self.people()
        #expect(ValueSummary.counted(people, by: .text(.eyeColor)).map { "\($0.title) \($0.headcount)" } == ["blue 4", "brown 1", "(none) 1"])
        #expect(ValueSummary.counted(people.reversed(), by: .text(.eyeColor)) == ValueSummary.counted(people, by: .text(.eyeColor)))
        // As a store or a GROUP BY counts them: one row per spelling, merged.
        let rows = [ValueSummary(value: .text("Malmö"), title: "Malmö", headcount: 2, totalCents: 5, balances: 1),
                    ValueSummary(value: .missing, title: "(none)", headcount: 7),
                    ValueSummary(value: .text("MALMO"), title: "MALMO", headcount: 3, totalCents: 10, balances: 2),
                    ValueSummary(value: .text("malmo"), title: "malmo", headcount: 3, totalCents: 1, balances: 1)]
        let merged = ValueSummary.mergingSpellings(rows, of: .city)
        #expect(merged == [ValueSummary(value: .text("MALMO"), title: "MALMO", headcount: 8, totalCents: 16, balances: 4), rows[1]])
        #expect(ValueSummary.ordered(ValueSummary.mergingSpellings(rows.reversed(), of: .city)) == ValueSummary.ordered(merged))
    }

    @Test("F opens on the list's sorted field; f and F cycle through every field")
    func fields() {
        #expect(SummaryField.matching(.age) == .ageBand)
        #expect(SummaryField.matching(.balance) == .balanceBand)
        #expect(SummaryField.matching(.lastName) == .company)
        #expect(SummaryField.company.cycled(by: 1) == .city)
        #expect(SummaryField.company.cycled(by: -1) == .manager)
        #expect(SummaryField.balanceBand.cycled(by: 1) == .manager)
        #expect(SummaryField.manager.cycled(by: 1) == .company)
    }
}

@MainActor
@Suite("Frequency presenter")
struct FrequencyPresenterTests {
    static let directory = SummaryTermTests.directory

    /// A presenter of everyone's counts by `field`, drawing on a spy.
    static func presented(field: SummaryField) -> (SpyFrequencyView, FrequencyPresenter) {
        let view = SpyFrequencyView()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           field: field, shown: directory.everyone, wireframe: SpyFrequencyWireframe())
        presenter.attach(view: view)
        return (view, presenter)
    }

    @Test("rows with share, exact total and average; the title says what is counted")
    func rows() throws {
        let (view, _) = Self.presented(field: .state)
        let model = try #require(view.models.last)
        #expect(model.fieldLabel == "state")
        #expect(model.summary == "6 people")
        #expect(model.rows.map(\.title) == ["Arkansas", "Kansas", "(none)"])
        #expect(model.rows[0] == FrequencyViewModel.Row(title: "Arkansas", headcount: "1", share: "16.7%", total: "$1,000.00",
                                                        average: "$1,000.00", count: 1))
        #expect(model.rows[1].total == "$184,467,440,737,096,515.99")  // two balances near 2^63 and $999.99
        #expect(model.rows[1].average == "$61,489,146,912,365,505.33")  // exact: 3 × this is the total
        #expect(model.rows[2].share == "33.3%")
        #expect(model.largestCount == 3)
        #expect(model.position == "1/3")
        #expect(model.sortLabel == "value ↑")
    }

    @Test("a filter narrows the counts and is named: 'N of M people matching …'")
    func filtered() throws {
        let found = try #require(Self.directory.repository.searchNow(SearchQuery("springfield"), in: Self.directory.everyone,
                                                                     within: nil))
        let view = SpyFrequencyView()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: Self.directory.repository),
                                           field: .city, shown: found, filter: "springfield", wireframe: SpyFrequencyWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.summary == "3 of 6 people matching 'springfield'")
        #expect(view.models.last?.filter == "springfield")
        presenter.update(shown: Self.directory.everyone, filter: nil)
        #expect(view.models.last?.summary == "6 people")
    }

    @Test("s/S sort keeping the selected value; f changes the field; Enter routes by term, company or says why not")
    func keys() throws {
        let view = SpyFrequencyView()
        let wireframe = SpyFrequencyWireframe()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: Self.directory.repository),
                                           field: .ageBand, shown: Self.directory.everyone, wireframe: wireframe)
        presenter.attach(view: view)
        presenter.moveSelection(by: 2)  // 30–39 (2 people)
        presenter.cycleSortOrder()  // headcount ↓ (largest first): 30–39 first
        let model = try #require(view.models.last)
        #expect(model.sortLabel == "headcount ↓")
        #expect(model.sortedColumn == 0)
        #expect(model.rows.first?.title == "30–39")
        #expect(model.selectedRow == 0)
        presenter.openSelected()
        #expect(wireframe.routes.last == .matching(term: "age:30-39", title: "counts by age band › 30–39"))
        presenter.cycleField(by: -1)  // active
        #expect(view.models.last?.fieldLabel == "active")
        presenter.cycleField(by: -4)  // city
        presenter.selectFirst()
        presenter.moveSelection(by: 2)  // headcount ↓ still: Springfield 3, Concho 1, (none) 2 (last)
        presenter.openSelected()
        #expect(wireframe.routes.last == .matching(term: "city=", title: "counts by city › (none)"))
        presenter.cycleField(by: -1)  // company
        presenter.selectFirst()
        presenter.openSelected()
        guard case .company? = wireframe.routes.last else { Issue.record("\(wireframe.routes)"); return }
        presenter.goBack()
        presenter.clearFilter()
        presenter.quit()
        #expect(wireframe.routes.suffix(3) == [.back, .clearFilter, .quit])
    }

    @Test("s sorts figures largest first and values A→Z, S reverses; (none) stays last in every order and direction")
    func sortDirections() throws {
        let (view, presenter) = Self.presented(field: .city)
        var seen: [String] = []
        for _ in 0..<4 {
            for _ in 0..<2 {
                let model = try #require(view.models.last)
                seen.append(model.sortLabel)
                #expect(model.rows.last?.title == ValueSummary.missingTitle, "\(model.sortLabel): \(model.rows.map(\.title))")
                presenter.reverseSortOrder()
            }
            presenter.cycleSortOrder()
        }
        #expect(seen == ["value ↑", "value ↓", "headcount ↓", "headcount ↑", "total balance ↓", "total balance ↑",
                         "average balance ↓", "average balance ↑"])
        #expect(view.models.last?.sortLabel == "value ↑")  // s after a reversed figure: values A→Z again
        presenter.cycleSortOrder()
        #expect(view.models.last?.rows.map(\.title) == ["Springfield", "Concho", ValueSummary.missingTitle])
        presenter.reverseSortOrder()
        #expect(view.models.last?.rows.map(\.title) == ["Concho", "Springfield", ValueSummary.missingTitle])
    }

    @Test("a text value opens its whole value (Kansas, not Arkansas); spellings alike are one row (Blue and blue)")
    func wholeValueTerms() {
        let wireframe = SpyFrequencyWireframe()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: Self.directory.repository),
                                           field: .state, shown: Self.directory.everyone, wireframe: wireframe)
        presenter.openSelected()  // Arkansas
        presenter.moveSelection(by: 1)
        presenter.openSelected()  // Kansas
        presenter.cycleField(by: 1)  // eye colour: blue (Blue and blue), brown, (none)
        presenter.openSelected()
        presenter.moveSelection(by: 2)
        presenter.openSelected()
        #expect(wireframe.routes == [
            .matching(term: #"state="Arkansas""#, title: "counts by state › Arkansas"),
            .matching(term: #"state="Kansas""#, title: "counts by state › Kansas"),
            .matching(term: #"eye="blue""#, title: "counts by eye color › blue"),
            .matching(term: "eye=", title: "counts by eye color › (none)"),
        ])
    }

    @Test("a value no term can spell says so and opens nothing")
    func unspellable() throws {
        let directory = try Fixtures.directory(json: Fixtures.array([
            Fixtures.record(first: "A", last: "B", company: "X", balance: "$1.00", index: 0, extra: #""eyeColor": "sky \"blue\"""#),
        ]))
        let view = SpyFrequencyView()
        let wireframe = SpyFrequencyWireframe()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           field: .text(.eyeColor), shown: directory.everyone, wireframe: wireframe)
        presenter.attach(view: view)
        presenter.openSelected()
        #expect(wireframe.routes.isEmpty)
        #expect(view.models.last?.notice == "no search term can spell this eye color")
    }

    @Test("share to a tenth of a percent, half up")
    func share() {
        #expect(FrequencyPresenter.share(1, of: 3) == "33.3%")
        #expect(FrequencyPresenter.share(2, of: 3) == "66.7%")
        #expect(FrequencyPresenter.share(1, of: 8) == "12.5%")
        #expect(FrequencyPresenter.share(1, of: 2000) == "0.1%")  // 0.05 rounds up
        #expect(FrequencyPresenter.share(5, of: 5) == "100.0%")
        #expect(FrequencyPresenter.share(0, of: 0) == "—")
        #expect(FrequencyPresenter.share(1, of: 1_000_000) == "<0.1%")  // some, never "0.0%"
        #expect(FrequencyPresenter.share(0, of: 1_000_000) == "0.0%")
        #expect(FrequencyPresenter.share(999_999, of: 1_000_000) == ">99.9%")  // not all, never "100.0%"
    }
}

@Suite("Counts by field against the reference")
struct ValueSummaryReferenceTests {
    @Test("the store's one-pass counts equal the plain count over Person, for every field, of everyone and of a search")
    func agreesWithReference() async throws {
        var random = SeededRandom(seed: 20_261_201)
        let records = (0..<1500).map { QueryMatchingTests.person($0, &random) }
        let directory = try Fixtures.directory(json: Fixtures.array(records))
        let people = (0..<directory.store.count).map { directory.store[$0] }
        let found = try #require(directory.repository.searchNow(SearchQuery("age>30 -fruit:apple"), in: directory.everyone,
                                                                within: nil))
        let foundPeople = try await directory.repository.people(in: found, positions: 0..<found.count)
        for field in SummaryField.countedByRepositories where field != .company {
            let all = try await directory.repository.valueSummaries(of: field, in: directory.everyone)
            #expect(all == ValueSummary.counted(people, by: field), "\(field)")
            #expect(all.map(\.headcount).reduce(0, +) == people.count)
            #expect(try await directory.repository.valueSummaries(of: field, in: found) == ValueSummary.counted(foundPeople, by: field))
        }
        // The generated addresses have 1 to 5 parts: some people have no city.
        #expect(try await directory.repository.valueSummaries(of: .city, in: directory.everyone).last?.value == .missing)
    }
}
