import Foundation
import RosterCore
@testable import RosterSQL
import RosterStore
import Testing
import TestTraits
import TestSupport

/// The SQL repositories against the file source on the same people: every
/// order, grouped and flat, window by window forwards, backwards and by
/// jumps across company boundaries; searches of every kind of term; the
/// overview. Then what only a database can get wrong: injection, plans,
/// cancellation.
@Suite(.blockingWork) struct SQLRepositoryTests {
    /// 400 people in 13 companies (one spelled three ways, some people
    /// without one), names drawn from few so that names repeat within a
    /// company (ties keep file order), accents, missing balances and ages.
    static let generatedJSON: String = {
        var random = SeededRandom(seed: 13)
        let firsts = ["Ann", "José", "Zoë", "bob", "Émile", "Li", "Ann", "Ida"]
        let lasts = ["Able", "Núñez", "zero", "O'Brien", "Smith", "Øster", "Ng"]
        let companies = ["Acme", "ACME", "acme ", "Big", "Comstar", "Ümlaut", "Delta", "Echo", "Fox", "Golf", "Hotel", "India", "Juliet", nil]
        let cities = ["Concho", "Vermont", "Älmhult", "Springfield"]
        let records = (0..<400).map { index -> String in
            let company = companies[Int(random.next() % UInt64(companies.count))]
            let balance: String? = random.next() % 9 == 0 ? nil : "$\(random.next() % 5000),\(100 + random.next() % 900).\(10 + random.next() % 90)"
            var extra = #""phone": "+1 (\#(800 + random.next() % 3)) \#(100 + random.next() % 900)-\#(1000 + random.next() % 9000)""#
            extra += #", "address": "\#(random.next() % 999) Main Street, \#(cities[Int(random.next() % 4)]), Arizona, \#(1000 + random.next() % 9000)""#
            if random.next() % 7 != 0 { extra += #", "age": \#(20 + random.next() % 50)"# }
            extra += random.next() % 2 == 0 ? #", "isActive": true, "eyeColor": "blue""# : #", "isActive": false, "eyeColor": "brown""#
            extra += #", "favoriteFruit": "\#(["apple", "banana", "strawberry"][Int(random.next() % 3)])""#
            return Fixtures.record(first: firsts[Int(random.next() % UInt64(firsts.count))], last: lasts[Int(random.next() % UInt64(lasts.count))],
                                   company: company, email: "p\(index)@example.test", balance: balance, index: index, extra: extra)
        }
        return Fixtures.array(records)
    }()

    static let imported: [PeopleTable.Dialect: Result<SQLRepositoryFixture.Imported, any Error>] = {
        var result: [PeopleTable.Dialect: Result<SQLRepositoryFixture.Imported, any Error>] = [:]
        for dialect in [PeopleTable.Dialect.postgres, .sqlite] {
            result[dialect] = Result { try SQLRepositoryFixture.importing(json: generatedJSON, into: dialect) }
        }
        return result
    }()

    func open(_ dialect: PeopleTable.Dialect) throws -> (SQLPeopleRepository, InMemoryPeopleRepository) {
        let database = try #require(Self.imported[dialect]).get().open()
        return (database, try Fixtures.repository(json: Self.generatedJSON).repository)
    }

    /// What identifies a row across sources: the email is unique here.
    func emails(_ rows: [ListedPerson]) -> [String] { rows.map(\.email) }

    func describe(_ sections: [CompanySection]) -> [String] {
        sections.map { "\($0.title) \($0.range) of \($0.total)" }
    }

    /// Summaries without company ids (each source numbers its own).
    func figures(_ summaries: [CompanySummary]) -> [String] {
        summaries.map { "\($0.title) \($0.headcount) \($0.active) \($0.totalCents) \($0.balances) \($0.ages) \($0.ageSum)" }
    }

    static let orders: [RosterCore.SortOrder] = RosterCore.SortOrder.Key.allCases.flatMap { [RosterCore.SortOrder($0), RosterCore.SortOrder($0, descending: true)] }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func everyOrderWindowByWindowEqualsTheFileSource(dialect: PeopleTable.Dialect) async throws {
        for sort in Self.orders {
            for byCompany in [true, false] {
                let (_, memory) = try open(dialect)
                let expected = memory.arrange(sort: sort, byCompany: byCompany, company: nil)
                let all = emails(try await memory.rows(in: expected, positions: 0..<expected.count))
                let label = "\(sort.label) byCompany \(byCompany)"
                // A fresh repository per pattern: no cache from another.
                let (forward, _) = try open(dialect)
                let arrangement = forward.arrange(sort: sort, byCompany: byCompany, company: nil)
                #expect(describe(arrangement.sections) == describe(expected.sections), "\(label)")
                var read: [String] = []
                for start in stride(from: 0, to: arrangement.count, by: 7) {
                    read += emails(try await forward.rows(in: arrangement, positions: start..<(start + 7)))
                }
                #expect(read == all, "forwards, \(label)")
                let (backward, _) = try open(dialect)
                let backwards = backward.arrange(sort: sort, byCompany: byCompany, company: nil)
                var reversed: [String] = []
                var end = backwards.count
                while end > 0 {
                    reversed = emails(try await backward.rows(in: backwards, positions: max(0, end - 5)..<end)) + reversed
                    end -= 5
                }
                #expect(reversed == all, "backwards, \(label)")
                let (jumping, _) = try open(dialect)
                let jumps = jumping.arrange(sort: sort, byCompany: byCompany, company: nil)
                for start in [390, 3, 200, 199, 64, 63, 130, 0, 395, 128, 127, 250] {
                    let window = start..<min(start + 9, jumps.count)
                    #expect(emails(try await jumping.rows(in: jumps, positions: window)) == Array(all[window]), "jump to \(start), \(label)")
                }
                let whole = try await jumping.people(in: jumps, positions: 0..<jumps.count).map(\.email)
                #expect(whole == all, "whole people, \(label)")
            }
        }
    }

    static let queries = [
        "an", "jo", "josé", "JOSE", "nunez", "ann able", "acme", "\"ann able\"", "company:acme", "company:umlaut", "first:ann",
        "last:zero", "name:\"zoe n\"", "email:p1", "email:P12@", "phone:801", "8011", "(801) 2", "age>30", "age:30-39", "age<=25",
        "balance>1000", "balance<$1,000.50", "balance:10-2000", "-company:acme", "-acme -ann", "active:yes", "active:no",
        "city:concho", "city:almhult", "state:arizona", "zip:17", "street:main", "eye:blue", "fruit:straw", "id:id1", "guid:x",
        "o'brien", "%", "_", "\\", "'); drop table people; --", "zzz", "-zzz", "age>x", "",
        "company=acme", "company=ACME", "-company=acme", "company=", "-company=", "company=\"ümlaut\"", "first=ann", "last=ZERO",
        "name=\"ann able\"", "name=\"jose nunez\"", "name=ann", "email=p12@example.test", "phone=\"+1 (801) 200-1000\"",
        "city=concho", "city=almhult", "city=\"Älmhult\"", "city=conch", "state=arizona", "-state=ARIZONA", "state=", "zip=",
        "street=", "eye=blue", "eye=", "-eye=", "fruit=banana", "id=", "guid=", "age=", "-age=", "balance=", "active=",
        "-active=", "address=", "city=\"'); drop table people; --\"", "company=%", "eye=_lue",
    ]

    /// Searches with few matches are paged from a list of their ids, with
    /// many by keyset: both ways (the keyset way forced by a zero limit).
    @Test(arguments: [(PeopleTable.Dialect.postgres, true), (.postgres, false), (.sqlite, true), (.sqlite, false)])
    func searchesFindTheFileSourcesPeopleInItsOrder(dialect: PeopleTable.Dialect, listsMatches: Bool) async throws {
        let (database, memory) = try open(dialect)
        if !listsMatches { database.windows.listsMatchesUpTo.store(0, ordering: .relaxed) }
        for byCompany in [true, false] {
            let everyone = database.arrange(sort: .byLastName, byCompany: byCompany, company: nil)
            let memoryEveryone = memory.arrange(sort: .byLastName, byCompany: byCompany, company: nil)
            for text in Self.queries {
                let query = SearchQuery(text)
                let found = try await database.search(query, in: everyone, within: nil)
                let expected = try await memory.search(query, in: memoryEveryone, within: nil)
                #expect(describe(found.sections) == describe(expected.sections), "\(text) byCompany \(byCompany)")
                #expect(emails(try await database.rows(in: found, positions: 0..<found.count))
                    == emails(try await memory.rows(in: expected, positions: 0..<expected.count)), "\(text) byCompany \(byCompany)")
                #expect(try figures(await database.companySummaries(in: found)) == figures(await memory.companySummaries(in: expected)), "summaries of \(text)")
                let byAge = database.reapply(found, to: database.arrange(sort: RosterCore.SortOrder(.age, descending: true), byCompany: false, company: nil))
                let memoryByAge = memory.reapply(expected, to: memory.arrange(sort: RosterCore.SortOrder(.age, descending: true), byCompany: false, company: nil))
                #expect(emails(try await database.rows(in: byAge, positions: 0..<byAge.count))
                    == emails(try await memory.rows(in: memoryByAge, positions: 0..<memoryByAge.count)), "\(text) re-sorted")
            }
        }
    }

    @Test("a few people of a large search (the person's screen) are read as a window; only a bulk read lists every match",
          arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func fewPeopleAreAWindow(dialect: PeopleTable.Dialect) async throws {
        let (database, memory) = try open(dialect)
        database.windows.listsMatchesUpTo.store(0, ordering: .relaxed)  // every search counts as large
        let found = try await database.search(SearchQuery("example"), in: database.arrange(sort: .byLastName, byCompany: true, company: nil), within: nil)
        let expected = try await memory.search(SearchQuery("example"), in: memory.arrange(sort: .byLastName, byCompany: true, company: nil), within: nil)
        #expect(found.count == 400)
        let three = try await database.people(in: found, positions: 10..<13)
        #expect(try await three.map(\.email) == memory.rows(in: expected, positions: 10..<13).map(\.email))
        #expect(database.windows.matchListCount == 0, "three people: no list of 400 matches first")
        let everyone = try await database.people(in: found, positions: 0..<found.count)
        #expect(everyone.count == 400)
        #expect(database.windows.matchListCount == 1, "a bulk read lists the matches once")
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func companiesListsPositionsAndSummariesEqualTheFileSource(dialect: PeopleTable.Dialect) async throws {
        let (database, memory) = try open(dialect)
        #expect(Set(database.companies.map(\.name)) == Set(memory.companies.filter { $0.headcount > 0 }.map(\.name)))
        // Every column a row carries, as the file source gives it.
        func columns(_ rows: [ListedPerson]) -> [[String]] {
            rows.map { [$0.firstName, $0.lastName, $0.email, $0.balance, $0.phone, "\(String(describing: $0.age))",
                        "\(String(describing: $0.isActive))", $0.company, $0.city, "\($0.position)"] }
        }
        let grouped = database.arrange(sort: .byLastName, byCompany: true, company: nil)
        let memoryGrouped = memory.arrange(sort: .byLastName, byCompany: true, company: nil)
        let databaseColumns = columns(try await database.rows(in: grouped, positions: 0..<400))
        // The ids alone (M), read from the order's index, in the rows' order; from the middle of a company too.
        #expect(try await database.personIDs(in: grouped, positions: 0..<400) == database.rows(in: grouped, positions: 0..<400).map(\.id))
        #expect(try await database.personIDs(in: grouped, positions: 123..<321) == database.rows(in: grouped, positions: 123..<321).map(\.id))
        #expect(databaseColumns == columns(try await memory.rows(in: memoryGrouped, positions: 0..<400)))
        #expect(databaseColumns.contains { !$0[8].isEmpty && !$0[4].isEmpty })
        let summaries = try await database.companySummaries(in: database.arrange(sort: .byLastName, byCompany: true, company: nil))
        let expected = try await memory.companySummaries(in: memory.arrange(sort: .byLastName, byCompany: true, company: nil))
        #expect(figures(summaries) == figures(expected))
        for (databaseCompany, memoryCompany) in zip(summaries.map(\.companyID), expected.map(\.companyID)) {
            for byCompany in [true, false] {
                let list = database.arrange(sort: RosterCore.SortOrder(.balance, descending: true), byCompany: byCompany, company: databaseCompany)
                let memoryList = memory.arrange(sort: RosterCore.SortOrder(.balance, descending: true), byCompany: byCompany, company: memoryCompany)
                let rows = try await database.rows(in: list, positions: 0..<list.count)
                #expect(emails(rows) == emails(try await memory.rows(in: memoryList, positions: 0..<memoryList.count)))
                for row in rows.prefix(3) {
                    #expect(try await database.position(of: row.id, in: list) == row.position)
                    #expect(try await database.person(row.id).email == row.email)
                    #expect(try await database.personID(recordID: await database.person(row.id).id) == row.id)
                }
            }
        }
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func countsByEveryFieldEqualTheFileSource(dialect: PeopleTable.Dialect) async throws {
        let (database, memory) = try open(dialect)
        for text in ["", "an", "-company:acme", "city:concho age>30"] {
            let found = try await database.search(SearchQuery(text), in: database.arrange(sort: .byLastName, byCompany: true, company: nil),
                                                  within: nil)
            let expected = try await memory.search(SearchQuery(text), in: memory.arrange(sort: .byLastName, byCompany: true, company: nil),
                                                   within: nil)
            for field in SummaryField.countedByRepositories {
                let counted = try await database.valueSummaries(of: field, in: found).map { "\($0.title) \($0.headcount) \($0.balances) \($0.totalCents)" }
                let expectedCounts = try await memory.valueSummaries(of: field, in: expected)
                #expect(counted == expectedCounts.map { "\($0.title) \($0.headcount) \($0.balances) \($0.totalCents)" }, "\(field) in \(text)")
                #expect(!counted.isEmpty)
            }
        }
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func anInjectionAttemptFindsNobodyAndDropsNothing(dialect: PeopleTable.Dialect) async throws {
        let (database, _) = try open(dialect)
        let everyone = database.arrange(sort: .byLastName, byCompany: true, company: nil)
        for text in ["'); drop table people; --", "company:\"'); drop table people; --\"", "\" OR 1=1 --", "x' OR 'a'='a"] {
            let found = try await database.search(SearchQuery(text), in: everyone, within: nil)
            #expect(found.count == 0, "\(text)")
        }
        let again = try #require(Self.imported[dialect]).get().open()
        #expect(again.personCount == 400)
        #expect(try await again.rows(in: again.arrange(sort: .byLastName, byCompany: true, company: nil), positions: 0..<400).count == 400)
    }
}
