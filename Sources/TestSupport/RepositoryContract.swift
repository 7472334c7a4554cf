import RosterCore

/// What every `PeopleRepository` must do, whatever holds the people: the
/// in-memory store now, SQLite and PostgreSQL later run the same checks.
///
/// A check builds its repository from JSON text with the factory it is
/// given and returns what it found wrong (empty: the repository passes).
/// It returns failures rather than recording them so that this target does
/// not link the test framework; a test runs every check like this:
///
///     @Test(arguments: RepositoryContract.checks)
///     func contract(_ check: RepositoryContract.Check) async throws {
///         let failures = try await check.run { json in try makeRepository(json) }
///         #expect(failures.isEmpty, "\(failures)")
///     }
public enum RepositoryContract {
    /// Builds a repository holding the people of a JSON array.
    public typealias Factory = @Sendable (_ json: String) async throws -> any PeopleRepository

    public struct Check: Sendable, CustomStringConvertible {
        public let description: String
        let body: @Sendable (Factory) async throws -> [String]

        public func run(_ factory: @escaping Factory) async throws -> [String] {
            try await body(factory)
        }
    }

    public static let checks: [Check] = [
        Check(description: "counts people and companies; companies carry headcounts", body: counts),
        Check(description: "arranges by company A→Z, then last name; sections cover everyone", body: grouping),
        Check(description: "windows of rows agree with each other and clamp at the ends", body: windows),
        Check(description: "every order sorts by its key, both ways, missing values last", body: orders),
        Check(description: "text and activity orders fold case and accents, put blanks last both ways, break ties by name",
              body: textOrders),
        Check(description: "a flat arrangement is one section; a company's holds only its people", body: scopes),
        Check(description: "search folds case and accents, narrows within earlier matches, keeps order", body: search),
        Check(description: "a search whose task is cancelled throws CancellationError", body: cancelledSearch),
        Check(description: "a search's matches laid over a new order keep the same people", body: reapply),
        Check(description: "people by id, position and record id agree", body: identities),
        Check(description: "company summaries add exact cents beyond 64 bits and count only what is shown", body: summaries),
        Check(description: "value summaries of every field: exact groups, bands, (none), order, only what is shown",
              body: valueSummaries),
        Check(description: "field=value is the whole value, field= no value; every count's term lists exactly its people",
              body: exactTerms),
        Check(description: skippedDescription, body: skipped),
    ]

    /// The checks for a database: `roster import` reports the records it
    /// could not read, so the table (and its repository) skips none.
    public static let databaseChecks: [Check] = checks.filter { $0.description != skippedDescription } + [
        Check(description: "a database skips nothing: the import left unreadable records out", body: importedSkipsNothing),
    ]

    static let skippedDescription = "records that cannot be read are skipped with a reason"

    // MARK: Data

    static let people = Fixtures.seedJSON
    /// Two balances near the 64-bit limit in one company, an accented
    /// name, someone without a company, someone without balance or age.
    static let tricky = Fixtures.array([
        Fixtures.record(first: "José", last: "Núñez", company: "Big", balance: "$92,233,720,368,547,758.00", index: 0,
                        extra: #""age": 40, "isActive": true"#),
        Fixtures.record(first: "Ann", last: "Able", company: "Big", balance: "$92,233,720,368,547,758.00", index: 1,
                        extra: #""age": 20, "isActive": false"#),
        Fixtures.record(first: "Nobody", last: "Else", company: nil, balance: "$1.50", index: 2, extra: #""age": 33"#),
        Fixtures.record(first: "Zed", last: "Zero", company: "acme", balance: nil, index: 3),
        Fixtures.record(first: "Amy", last: "Zero", company: "ACME", balance: "-$2.25", index: 4, extra: #""age": 50"#),
    ])

    static func everyone(_ repository: any PeopleRepository, _ sort: SortOrder = .byLastName, byCompany: Bool = true,
                         company: Int? = nil) -> PeopleArrangement {
        repository.arrange(sort: sort, byCompany: byCompany, company: company)
    }

    static func allRows(_ repository: any PeopleRepository, _ arrangement: PeopleArrangement) -> [ListedPerson] {
        repository.rows(in: arrangement, positions: 0..<arrangement.count)
    }

    /// Collects failures: `check(condition, "what should hold")`.
    struct Failures {
        var list: [String] = []
        mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { list.append(message()) }
        }
    }

    // MARK: Checks

    static func counts(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        failures.check(repository.personCount == 6, "6 people, not \(repository.personCount)")
        failures.check(repository.nonEmptyCompanyCount == 3, "3 companies, not \(repository.nonEmptyCompanyCount)")
        let headcounts = Dictionary(repository.companies.map { ($0.name, $0.headcount) }, uniquingKeysWith: +)
        failures.check(headcounts == ["COMSTAR": 3, "RECRISYS": 2, "PERMADYNE": 1], "headcounts \(headcounts)")
        failures.check(repository.skippedRecords.isEmpty, "nothing skipped")
        return failures.list
    }

    static func grouping(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        let arrangement = everyone(repository)
        failures.check(arrangement.sections.map(\.title) == ["COMSTAR", "PERMADYNE", "RECRISYS"],
                       "sections \(arrangement.sections.map(\.title))")
        failures.check(arrangement.sections.map(\.count) == [3, 1, 2], "section counts \(arrangement.sections.map(\.count))")
        failures.check(arrangement.count == 6, "arrangement holds 6")
        var next = 0
        for section in arrangement.sections {
            failures.check(section.range.lowerBound == next, "sections are contiguous")
            next = section.range.upperBound
        }
        let names = allRows(repository, arrangement).map(\.name)
        failures.check(names == ["Bertha Irwin", "Cohen James", "Vanessa Sanchez", "Zamora Weber", "Norton Curtis", "Barnes Pickett"],
                       "order \(names)")
        // Companies without people (the tricky data's "acme"/"ACME" are one) and "No company" last.
        let tricky = try await make(Self.tricky)
        let titles = everyone(tricky).sections.map(\.title)
        failures.check(titles.count == 3 && titles.last == "No company", "No company comes last: \(titles)")
        failures.check(titles.first?.lowercased() == "acme", "one ACME whatever the case: \(titles)")
        return failures.list
    }

    static func windows(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        let arrangement = everyone(repository)
        let all = allRows(repository, arrangement)
        failures.check(all.map(\.position) == Array(0..<6), "rows carry their display positions")
        let pieces = repository.rows(in: arrangement, positions: 0..<2) + repository.rows(in: arrangement, positions: 2..<5)
            + repository.rows(in: arrangement, positions: 5..<6)
        failures.check(pieces == all, "windows put together are the whole")
        failures.check(repository.rows(in: arrangement, positions: 4..<40).count == 2, "a window past the end is clamped")
        failures.check(repository.rows(in: arrangement, positions: 3..<3).isEmpty, "an empty window is empty")
        failures.check(try repository.people(in: arrangement, positions: 0..<6).map(\.lastName) == all.map(\.lastName),
                       "whole people come in the rows' order")
        for row in all {
            let section = arrangement.sections[arrangement.sectionIndex(containing: row.position)]
            let company = repository.companies[row.companyID]
            failures.check(section.companyID == row.companyID && section.title == company.name,
                           "\(row.name) sits in their company's section")
        }
        return failures.list
    }

    static func orders(_ make: Factory) async throws -> [String] {
        let repository = try await make(tricky)
        var failures = Failures()
        for key in SortOrder.Key.allCases {
            for descending in [false, true] {
                let sort = SortOrder(key, descending: descending)
                let people = try repository.people(in: everyone(repository, sort, byCompany: false), positions: 0..<5)
                failures.check(people.count == 5, "\(sort.label): everyone")
                let values: [Int64?]
                switch key {
                case .balance: values = people.map(\.balance.cents)
                case .age: values = people.map { $0.age.map(Int64.init) }
                default: continue
                }
                let present = values.compactMap { $0 }
                failures.check(present == (descending ? present.sorted(by: >) : present.sorted()), "\(sort.label): \(values)")
                failures.check(values.drop { $0 != nil }.allSatisfy { $0 == nil }, "\(sort.label): missing values last \(values)")
            }
        }
        let byFirst = try repository.people(in: everyone(repository, SortOrder(.firstName), byCompany: false), positions: 0..<5)
        failures.check(byFirst.map(\.firstName) == ["Amy", "Ann", "José", "Nobody", "Zed"], "first names \(byFirst.map(\.firstName))")
        let byLast = try repository.people(in: everyone(repository, SortOrder(.lastName, descending: true), byCompany: false),
                                       positions: 0..<5)
        failures.check(byLast.map(\.lastName).first == "Zero" && byLast.last?.lastName == "Able", "last names ↓ \(byLast.map(\.lastName))")
        return failures.list
    }

    /// Five people whose emails, address parts, eye colours, companies and
    /// activity tie, differ only in case or accents, or are missing.
    static let textual = Fixtures.array([
        Fixtures.record(first: "Bo", last: "Ash", company: "Big", email: "zed@x.test", index: 0,
                        extra: #""address": "1 Main St, Álamo, Texas, 75001", "eyeColor": "blue", "isActive": true"#),
        Fixtures.record(first: "Cy", last: "Ash", company: "big", email: "Alice@x.test", index: 1,
                        extra: #""address": "2 Oak Ave, alamo, Ohio, 44001", "eyeColor": "", "isActive": false"#),
        Fixtures.record(first: "Di", last: "Bee", company: nil, email: nil, index: 2,
                        extra: #""address": "3 Elm Rd, Zion, Utah", "eyeColor": "green""#),
        Fixtures.record(first: "Ed", last: "Cox", company: "Acme", email: "émile@x.test", index: 3, extra: #""eyeColor": "Blue""#),
        Fixtures.record(first: "Al", last: "Dunn", company: "Acme", email: "zed@x.test", index: 4,
                        extra: #""address": "9 Pine, Akron, Ohio, 44002", "eyeColor": "blue", "isActive": true"#),
    ])

    static func textOrders(_ make: Factory) async throws -> [String] {
        let repository = try await make(textual)
        var failures = Failures()
        // First names in the flat list, ascending then descending.
        let expected: [SortOrder.Key: ([String], [String])] = [
            .email: (["Cy", "Ed", "Bo", "Al", "Di"], ["Al", "Bo", "Ed", "Cy", "Di"]),
            .city: (["Al", "Bo", "Cy", "Di", "Ed"], ["Di", "Cy", "Bo", "Al", "Ed"]),
            .state: (["Cy", "Al", "Bo", "Di", "Ed"], ["Di", "Bo", "Al", "Cy", "Ed"]),
            .zip: (["Cy", "Al", "Bo", "Di", "Ed"], ["Bo", "Al", "Cy", "Ed", "Di"]),
            .eyeColor: (["Bo", "Ed", "Al", "Di", "Cy"], ["Di", "Al", "Ed", "Bo", "Cy"]),
            .company: (["Ed", "Al", "Bo", "Cy", "Di"], ["Cy", "Bo", "Al", "Ed", "Di"]),
            .recordID: (["Bo", "Cy", "Di", "Ed", "Al"], ["Al", "Ed", "Di", "Cy", "Bo"]),
            .phone: (["Bo", "Cy", "Di", "Ed", "Al"], ["Al", "Ed", "Di", "Cy", "Bo"]),
            .address: (["Bo", "Cy", "Di", "Al", "Ed"], ["Al", "Di", "Cy", "Bo", "Ed"]),
            .active: (["Bo", "Al", "Cy", "Di", "Ed"], ["Cy", "Bo", "Al", "Di", "Ed"]),
        ]
        for (key, (ascending, descending)) in expected {
            for (isDescending, names) in [(false, ascending), (true, descending)] {
                let sort = SortOrder(key, descending: isDescending)
                let arrangement = everyone(repository, sort, byCompany: false)
                let whole = try repository.people(in: arrangement, positions: 0..<5).map(\.firstName)
                failures.check(whole == names, "\(sort.label): \(whole), not \(names)")
                // One row at a time from the end: every window and seek agrees.
                let oneByOne = (0..<5).reversed().flatMap { repository.rows(in: arrangement, positions: $0..<($0 + 1)) }
                failures.check(oneByOne.reversed().map(\.firstName) == names, "\(sort.label) row by row")
                for (position, row) in oneByOne.reversed().enumerated() {
                    failures.check(try repository.position(of: row.id, in: arrangement) == position, "\(sort.label): \(row.firstName)'s place")
                }
            }
        }
        let grouped = try repository.people(in: everyone(repository, SortOrder(.email)), positions: 0..<5).map(\.firstName)
        failures.check(grouped == ["Ed", "Al", "Cy", "Bo", "Di"], "grouped by company, by email: \(grouped)")
        return failures.list
    }

    static func scopes(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        let flat = everyone(repository, byCompany: false)
        failures.check(flat.sections.count == 1 && flat.sections.first?.count == 6, "flat: one section of everyone")
        let lastNames = allRows(repository, flat).map(\.lastName)
        failures.check(lastNames == lastNames.sorted(), "flat: by last name \(lastNames)")
        guard let comstar = repository.companies.firstIndex(where: { $0.name == "COMSTAR" }) else {
            return failures.list + ["COMSTAR is a company"]
        }
        for byCompany in [true, false] {
            let company = everyone(repository, byCompany: byCompany, company: comstar)
            failures.check(company.count == 3, "COMSTAR's list holds its 3 people (byCompany \(byCompany))")
            failures.check(allRows(repository, company).allSatisfy { $0.companyID == comstar }, "only COMSTAR's people")
        }
        return failures.list
    }

    static func search(_ make: Factory) async throws -> [String] {
        let repository = try await make(people + "")
        var failures = Failures()
        let all = everyone(repository)
        func names(_ text: String, within: PeopleArrangement? = nil) async throws -> [String] {
            let found = try await repository.search(SearchQuery(text), in: all, within: within)
            failures.check(found.query == SearchQuery(text) || SearchQuery(text).isEmpty, "\(text): the result says its query")
            failures.check(found.sections.reduce(0) { $0 + $1.count } == found.count, "\(text): sections cover the matches")
            return allRows(repository, found).map(\.name)
        }
        failures.check(try await names("comstar") == ["Bertha Irwin", "Cohen James", "Vanessa Sanchez"], "company name matches")
        failures.check(try await names("IRWIN") == ["Bertha Irwin"], "case is ignored")
        failures.check(try await names("cohen james") == ["Cohen James"], "first then last name")
        failures.check(try await names("806) 584") == ["Bertha Irwin"], "phone")
        failures.check(try await names("zzz").isEmpty, "no match, no one")
        failures.check(try await names("").count == 6, "an empty query keeps everyone")
        let earlier = try await repository.search(SearchQuery("an"), in: all, within: nil)
        failures.check(try await names("anc", within: earlier) == names("anc"), "narrowing within earlier matches changes nothing")
        let found = try await repository.search(SearchQuery("comstar"), in: all, within: nil)
        failures.check(found.sections.first?.total == 3, "a section keeps its full headcount as total")
        let accents = try await make(tricky)
        let nunez = try await accents.search(SearchQuery("nunez"), in: everyone(accents), within: nil)
        failures.check(allRows(accents, nunez).map(\.lastName) == ["Núñez"], "accents are ignored")
        return failures.list
    }

    static func cancelledSearch(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        let all = everyone(repository)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await repository.search(SearchQuery("a"), in: all, within: nil)
        }
        switch await task.result {
        case .success: return ["a cancelled search returned a result"]
        case .failure(let error): return error is CancellationError ? [] : ["threw \(error), not CancellationError"]
        }
    }

    static func reapply(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        let found = try await repository.search(SearchQuery("comstar"), in: everyone(repository), within: nil)
        let byAge = everyone(repository, SortOrder(.age), byCompany: false)
        let moved = repository.reapply(found, to: byAge)
        let ages = try repository.people(in: moved, positions: 0..<moved.count).compactMap(\.age)
        failures.check(ages == [32, 33, 35], "the same people in the new order: \(ages)")
        failures.check(moved.query == SearchQuery("comstar"), "the query goes along")
        let unfiltered = repository.reapply(everyone(repository), to: byAge)
        failures.check(unfiltered.count == 6, "no search: the new arrangement as it is")
        return failures.list
    }

    static func identities(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        let arrangement = everyone(repository)
        for row in allRows(repository, arrangement) {
            let person = try repository.person(row.id)
            failures.check(person.lastName == row.lastName && person.email == row.email, "person(\(row.id)) is row \(row.position)")
            // The list's columns come from the row alone (one frame's rows, no whole records).
            failures.check(row.phone == person.phone && row.age == person.age && row.isActive == person.isActive
                           && row.company == person.company && row.city == QueryCondition.addressParts(person.address).city,
                           "row \(row.position) carries the columns' fields (phone, age, active, company, city)")
            failures.check(row.address == person.address && row.eyeColor == person.eyeColor
                           && row.favoriteFruit == person.favoriteFruit && row.recordID == person.id,
                           "row \(row.position) carries the choosable columns' fields (address, eye color, fruit, id)")
            failures.check(try repository.position(of: row.id, in: arrangement) == row.position, "position(of: \(row.id))")
            failures.check(try repository.personIDs(in: arrangement, positions: row.position..<(row.position + 1)) == [row.id],
                           "personIDs at \(row.position)")
            failures.check(try repository.personID(recordID: person.id) == row.id, "personID(recordID: \(person.id))")
        }
        failures.check(try repository.personID(recordID: "no such id") == nil, "an unknown record id is nobody")
        let found = try await repository.search(SearchQuery("irwin"), in: arrangement, within: nil)
        let curtis = allRows(repository, arrangement).first { $0.lastName == "Curtis" }
        failures.check(try curtis.map { try repository.position(of: $0.id, in: found) } == .some(nil), "someone filtered out has no position")
        return failures.list
    }

    static func summaries(_ make: Factory) async throws -> [String] {
        let repository = try await make(tricky)
        var failures = Failures()
        let all = try repository.companySummaries(in: everyone(repository))
        failures.check(all.map(\.headcount) == [2, 2, 1], "headcounts A→Z, no company last: \(all.map(\.headcount))")
        let big = all.first { $0.title == "Big" }
        failures.check(big?.totalCents == Int128(9_223_372_036_854_775_800) * 2, "exact total past 64 bits: \(String(describing: big?.totalCents))")
        failures.check(big?.active == 1 && big?.ages == 2 && big?.ageSum == 60, "active and ages")
        let acme = all.first { $0.title.lowercased() == "acme" }
        failures.check(acme?.balances == 1 && acme?.totalCents == -225, "a missing balance is not counted")
        let found = try await repository.search(SearchQuery("zero"), in: everyone(repository), within: nil)
        let shown = try repository.companySummaries(in: found)
        failures.check(shown.count == 1 && shown.first?.headcount == 2, "only the shown people count")
        return failures.list
    }

    static func importedSkipsNothing(_ make: Factory) async throws -> [String] {
        let json = Fixtures.array([Fixtures.record(index: 0), "42", Fixtures.record(first: "Bo", index: 2)])
        let repository = try await make(json)
        var failures = Failures()
        failures.check(repository.personCount == 2, "the good records are there")
        failures.check(repository.skippedRecords.isEmpty, "nothing skipped: \(repository.skippedRecords)")
        return failures.list
    }

    /// Springfield in two states (Kansas, Arkansas: one contains the
    /// other), eye colours differing in case, every band's edges, and
    /// people without an address, age, activity or balance.
    public static let frequencyPeople = Fixtures.array([
        Fixtures.record(first: "A", last: "Zero", company: "Big", balance: "$999.99", index: 0,
                        extra: #""address": "1 Main St, Springfield, Kansas, 111", "eyeColor": "blue", "favoriteFruit": "apple", "#
                            + #""isActive": true, "age": 29"#),
        Fixtures.record(first: "B", last: "One", company: "Big", balance: "$1,000.00", index: 1,
                        extra: #""address": "2 Oak, Springfield, Arkansas, 222", "eyeColor": "Blue", "favoriteFruit": "banana", "#
                            + #""isActive": false, "age": 30"#),
        Fixtures.record(first: "C", last: "Two", company: "acme", balance: "$92,233,720,368,547,758.00", index: 2,
                        extra: #""address": "3 Elm, Concho, Kansas, 333", "eyeColor": "brown", "isActive": true, "age": 39"#),
        Fixtures.record(first: "D", last: "Three", company: nil, balance: nil, index: 3),
        Fixtures.record(first: "E", last: "Four", company: "acme", balance: "-$2.25", index: 4,
                        extra: #""address": "Lone Street", "eyeColor": "blue", "isActive": true, "age": 40"#),
        Fixtures.record(first: "F", last: "Five", company: "Big", balance: "$92,233,720,368,547,758.00", index: 5,
                        extra: #""address": "9 X, Springfield, Kansas, 9", "eyeColor": "blue", "age": 0"#),
    ])

    static func exactTerms(_ make: Factory) async throws -> [String] {
        let repository = try await make(frequencyPeople)
        var failures = Failures()
        let all = everyone(repository)
        func found(_ text: String) async throws -> Int {
            try await repository.search(SearchQuery(text), in: all, within: nil).count
        }
        let expected: [(String, Int)] = [
            ("state=Kansas", 3), ("state=KÁNSAS", 3), (#"state="kansas""#, 3), ("state=ansas", 0), ("-state=kansas", 3),
            ("state=", 2), (#"state="""#, 2), ("-state=", 4), ("city=springfield", 3), ("street=\"1 main st\"", 1),
            ("zip=111", 1), ("address=\"lone street\"", 1), ("eye=BLUE", 4), ("eye=blu", 0), ("eye=", 1), ("fruit=", 4),
            ("company=acme", 2), ("company=", 1), ("company=ac", 0), ("name=\"a zero\"", 1), ("name=a", 0), ("first=a", 1),
            ("last=zero", 1), ("email=", 0), ("age=", 1), ("-age=", 5), ("balance=", 1), ("active=", 2), ("-active=", 4),
            ("state=kansas eye=blue", 2), ("state=kansas -eye=blue -age=", 1),
        ]
        for (text, count) in expected {
            let got = try await found(text)
            failures.check(got == count, "\(text): \(got) people, not \(count)")
        }
        for field in SummaryField.allCases where field != .company {
            for row in try repository.valueSummaries(of: field, in: all) {
                guard let term = field.queryTerm(for: row.value) else {
                    failures.check(false, "no term for \(field) \(row.title)")
                    continue
                }
                let got = try await found(term)
                failures.check(got == row.headcount, "\(term) lists \(got), the row counted \(row.headcount)")
            }
        }
        return failures.list
    }

    static func valueSummaries(_ make: Factory) async throws -> [String] {
        let repository = try await make(frequencyPeople)
        var failures = Failures()
        let all = everyone(repository)
        func rows(_ field: SummaryField, in arrangement: PeopleArrangement? = nil) -> [String] {
            do throws(RepositoryError) {
                return try repository.valueSummaries(of: field, in: arrangement ?? all).map { "\($0.title) \($0.headcount)" }
            } catch {
                return ["failed: \(error)"]
            }
        }
        failures.check(rows(.city) == ["Concho 1", "Springfield 3", "(none) 2"], "cities: \(rows(.city))")
        failures.check(rows(.state) == ["Arkansas 1", "Kansas 3", "(none) 2"], "states: \(rows(.state))")
        failures.check(rows(.eyeColor) == ["blue 4", "brown 1", "(none) 1"], "eye colours folded, the commonest spelling: \(rows(.eyeColor))")
        failures.check(rows(.favoriteFruit) == ["apple 1", "banana 1", "(none) 4"], "fruit: \(rows(.favoriteFruit))")
        failures.check(rows(.active) == ["yes 3", "no 1", "(none) 2"], "active: \(rows(.active))")
        failures.check(rows(.ageBand) == ["0–9 1", "20–29 1", "30–39 2", "40–49 1", "(none) 1"], "age bands: \(rows(.ageBand))")
        failures.check(rows(.balanceBand) == ["below $0 1", "$0–$999.99 1", "$1,000–$1,999.99 1",
                                              "$10,000,000,000,000,000 and over 2", "(none) 1"],
                       "balance bands: \(rows(.balanceBand))")
        let bands = try repository.valueSummaries(of: .balanceBand, in: all)
        let top = bands.first { $0.title.hasSuffix("and over") }
        failures.check(top?.totalCents == Int128(9_223_372_036_854_775_800) * 2 && top?.value == .band(1_000_000_000_000_000_000...Int64.max),
                       "exact total past 64 bits: \(String(describing: top))")
        let kansas = try repository.valueSummaries(of: .state, in: all).first { $0.title == "Kansas" }
        failures.check(kansas?.value == .text("Kansas") && kansas?.balances == 3
                       && kansas?.totalCents == Int128(9_223_372_036_854_775_800) * 2 + 99_999, "Kansas: \(String(describing: kansas))")
        let none = try repository.valueSummaries(of: .city, in: all).last
        failures.check(none?.value == .missing && none?.balances == 1 && none?.totalCents == -225, "(none): \(String(describing: none))")
        let companies = try repository.valueSummaries(of: .company, in: all)
        let overview = try repository.companySummaries(in: all)
        failures.check(companies == overview.map(ValueSummary.init), "company: as the overview")
        let found = try await repository.search(SearchQuery("springfield"), in: all, within: nil)
        failures.check(rows(.city, in: found) == ["Springfield 3"], "only the shown people count: \(rows(.city, in: found))")
        failures.check(rows(.state, in: found) == ["Arkansas 1", "Kansas 2"], "states of the shown: \(rows(.state, in: found))")
        return failures.list
    }

    static func skipped(_ make: Factory) async throws -> [String] {
        let json = Fixtures.array([Fixtures.record(index: 0), "42", Fixtures.record(first: "Bo", index: 2)])
        let repository = try await make(json)
        var failures = Failures()
        failures.check(repository.personCount == 2, "the good records load")
        failures.check(repository.skippedRecords.count == 1, "one skipped: \(repository.skippedRecords)")
        failures.check(repository.skippedRecords.first?.reason.isEmpty == false, "with a reason")
        return failures.list
    }
}
