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

    @Test("every band's, activity's and (none)'s term selects exactly the people counted", arguments: [
        SummaryField.active, .ageBand, .balanceBand,
    ])
    func exact(_ field: SummaryField) throws {
        let summaries = Self.directory.repository.valueSummaries(of: field, in: Self.directory.everyone)
        for summary in summaries {
            let term = try #require(field.queryTerm(for: summary.value), "\(summary.title)")
            let query = try QueryParser.parse(term)
            #expect(Self.people().filter(query.matches).count == summary.headcount, "\(term)")
        }
    }

    @Test("text values quote the value and contain it (Kansas also finds Arkansas); no term for (none)")
    func text() throws {
        #expect(SummaryField.state.queryTerm(for: .text("Kansas")) == #"state:"Kansas""#)
        #expect(SummaryField.city.queryTerm(for: .text("Rio Linda")) == #"city:"Rio Linda""#)
        #expect(SummaryField.eyeColor.queryTerm(for: .text("blue")) == #"eye:"blue""#)
        #expect(SummaryField.favoriteFruit.queryTerm(for: .text("apple")) == #"fruit:"apple""#)
        #expect(SummaryField.city.queryTerm(for: .text(#"say "hi""#)) == nil)
        #expect(SummaryField.city.queryTerm(for: .missing) == nil)
        #expect(SummaryField.company.queryTerm(for: .company(1)) == nil)
        let kansas = try QueryParser.parse(#"state:"Kansas""#)
        #expect(Self.people().filter(kansas.matches).count == 4)  // counted 3: Arkansas contains it
    }

    @Test("F opens on the list's sorted field; f and F cycle through every field")
    func fields() {
        #expect(SummaryField.matching(.age) == .ageBand)
        #expect(SummaryField.matching(.balance) == .balanceBand)
        #expect(SummaryField.matching(.lastName) == .company)
        #expect(SummaryField.company.cycled(by: 1) == .city)
        #expect(SummaryField.company.cycled(by: -1) == .balanceBand)
        #expect(SummaryField.balanceBand.cycled(by: 1) == .company)
    }
}

@MainActor
@Suite("Frequency presenter")
struct FrequencyPresenterTests {
    static let directory = SummaryTermTests.directory

    @Test("rows with share, exact total and average; the title says what is counted")
    func rows() throws {
        let view = SpyFrequencyView()
        let presenter = FrequencyPresenter(repository: Self.directory.repository, field: .state, shown: Self.directory.everyone,
                                           wireframe: SpyFrequencyWireframe())
        presenter.attach(view: view)
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
        let presenter = FrequencyPresenter(repository: Self.directory.repository, field: .city, shown: found, filter: "springfield",
                                           wireframe: SpyFrequencyWireframe())
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
        let presenter = FrequencyPresenter(repository: Self.directory.repository, field: .ageBand, shown: Self.directory.everyone,
                                           wireframe: wireframe)
        presenter.attach(view: view)
        presenter.moveSelection(by: 2)  // 30–39 (2 people)
        presenter.cycleSortOrder()  // headcount ↑
        presenter.reverseSortOrder()  // headcount ↓: 30–39 first
        let model = try #require(view.models.last)
        #expect(model.sortLabel == "headcount ↓")
        #expect(model.sortedColumn == 0)
        #expect(model.rows.first?.title == "30–39")
        #expect(model.selectedRow == 0)
        presenter.openSelected()
        #expect(wireframe.routes.last == .matching(term: "age:30-39", title: "counts by age band"))
        presenter.cycleField(by: -1)  // active
        #expect(view.models.last?.fieldLabel == "active")
        presenter.cycleField(by: -4)  // city
        presenter.selectFirst()
        presenter.moveSelection(by: 1)  // headcount ↓ still: Springfield 3, (none) 2, Concho 1
        presenter.openSelected()
        #expect(wireframe.routes.count == 1)
        #expect(view.models.last?.notice == "no search term lists people without a city")
        presenter.moveSelection(by: -1)
        #expect(view.models.last?.notice == nil)
        presenter.cycleField(by: -1)  // company
        presenter.selectFirst()
        presenter.openSelected()
        guard case .company? = wireframe.routes.last else { Issue.record("\(wireframe.routes)"); return }
        presenter.goBack()
        presenter.clearFilter()
        presenter.quit()
        #expect(wireframe.routes.suffix(3) == [.back, .clearFilter, .quit])
    }

    @Test("a text value's list says which other values its term lists too (Kansas: also Arkansas)")
    func widerTerms() {
        let wireframe = SpyFrequencyWireframe()
        let presenter = FrequencyPresenter(repository: Self.directory.repository, field: .state, shown: Self.directory.everyone,
                                           wireframe: wireframe)
        presenter.openSelected()  // Arkansas: no other state contains it
        presenter.moveSelection(by: 1)
        presenter.openSelected()  // Kansas
        presenter.cycleField(by: 1)  // eye colour: Blue, blue, brown
        presenter.openSelected()
        presenter.moveSelection(by: 2)
        presenter.openSelected()
        #expect(wireframe.routes == [
            .matching(term: #"state:"Arkansas""#, title: "counts by state"),
            .matching(term: #"state:"Kansas""#, title: "counts by state · also Arkansas"),
            .matching(term: #"eye:"Blue""#, title: "counts by eye colour · also blue"),
            .matching(term: #"eye:"brown""#, title: "counts by eye colour"),
        ])
    }

    @Test("share to a tenth of a percent, half up")
    func share() {
        #expect(FrequencyPresenter.share(1, of: 3) == "33.3%")
        #expect(FrequencyPresenter.share(2, of: 3) == "66.7%")
        #expect(FrequencyPresenter.share(1, of: 8) == "12.5%")
        #expect(FrequencyPresenter.share(1, of: 2000) == "0.1%")  // 0.05 rounds up
        #expect(FrequencyPresenter.share(5, of: 5) == "100.0%")
        #expect(FrequencyPresenter.share(0, of: 0) == "—")
    }
}

@Suite("Counts by field against the reference")
struct ValueSummaryReferenceTests {
    @Test("the store's one-pass counts equal the plain count over Person, for every field, of everyone and of a search")
    func agreesWithReference() throws {
        var random = SeededRandom(seed: 20_261_201)
        let records = (0..<1500).map { QueryMatchingTests.person($0, &random) }
        let directory = try Fixtures.directory(json: Fixtures.array(records))
        let people = (0..<directory.store.count).map { directory.store[$0] }
        let found = try #require(directory.repository.searchNow(SearchQuery("age>30 -fruit:apple"), in: directory.everyone,
                                                                within: nil))
        let foundPeople = directory.repository.people(in: found, positions: 0..<found.count)
        for field in SummaryField.allCases where field != .company {
            let all = directory.repository.valueSummaries(of: field, in: directory.everyone)
            #expect(all == ValueSummary.counted(people, by: field), "\(field)")
            #expect(all.map(\.headcount).reduce(0, +) == people.count)
            #expect(directory.repository.valueSummaries(of: field, in: found) == ValueSummary.counted(foundPeople, by: field))
        }
        // The generated addresses have 1 to 5 parts: some people have no city.
        #expect(directory.repository.valueSummaries(of: .city, in: directory.everyone).last?.value == .missing)
    }
}
