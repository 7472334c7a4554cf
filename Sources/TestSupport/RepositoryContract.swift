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
        Check(description: "a search whose task is cancelled throws .cancelled", body: cancelledSearch),
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

    static func allRows(_ repository: any PeopleRepository, _ arrangement: PeopleArrangement) async throws -> [ListedPerson] {
        try await repository.rows(in: arrangement, positions: 0..<arrangement.count)
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
        let names = try await allRows(repository, arrangement).map(\.name)
        failures.check(names == ["Bertha Irwin", "Cohen James", "Vanessa Sanchez", "Zamora Weber", "Norton Curtis", "Barnes Pickett"],
                       "order \(names)")
        // Companies without people (the tricky data's "acme"/"ACME" are one) and "No company" last.
        let tricky = try await make(Self.tricky)
        let titles = everyone(tricky).sections.map(\.title)
        failures.check(titles.count == 3 && titles.last == "No company", "No company comes last: \(titles)")
        failures.check(titles.first?.lowercased() == "acme", "one ACME whatever the case: \(titles)")
        // The people without a company are in none: two companies, and one person without.
        failures.check(tricky.nonEmptyCompanyCount == 2 && tricky.peopleWithoutCompany == 1,
                       "2 companies and 1 person without, not \(tricky.nonEmptyCompanyCount) and \(tricky.peopleWithoutCompany)")
        return failures.list
    }

    static func windows(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        let arrangement = everyone(repository)
        let all = try await allRows(repository, arrangement)
        failures.check(all.map(\.position) == Array(0..<6), "rows carry their display positions")
        var pieces = try await repository.rows(in: arrangement, positions: 0..<2)
        pieces += try await repository.rows(in: arrangement, positions: 2..<5)
        pieces += try await repository.rows(in: arrangement, positions: 5..<6)
        failures.check(pieces == all, "windows put together are the whole")
        failures.check(try await repository.rows(in: arrangement, positions: 4..<40).count == 2, "a window past the end is clamped")
        failures.check(try await repository.rows(in: arrangement, positions: 3..<3).isEmpty, "an empty window is empty")
        failures.check(try await repository.people(in: arrangement, positions: 0..<6).map(\.lastName) == all.map(\.lastName),
                       "whole people come in the rows' order")
        for row in all {
            let section = arrangement.sections[arrangement.sectionIndex(containing: row.position)]
            let company = row.companyID.map { repository.companies[$0] }
            failures.check(section.companyID != nil && section.companyID == row.companyID && section.title == company?.name,
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
                let people = try await repository.people(in: everyone(repository, sort, byCompany: false), positions: 0..<5)
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
        let byFirst = try await repository.people(in: everyone(repository, SortOrder(.firstName), byCompany: false), positions: 0..<5)
        failures.check(byFirst.map(\.firstName) == ["Amy", "Ann", "José", "Nobody", "Zed"], "first names \(byFirst.map(\.firstName))")
        let byLast = try await repository.people(in: everyone(repository, SortOrder(.lastName, descending: true), byCompany: false),
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
            .text(.eyeColor): (["Bo", "Ed", "Al", "Di", "Cy"], ["Di", "Al", "Ed", "Bo", "Cy"]),
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
                let whole = try await repository.people(in: arrangement, positions: 0..<5).map(\.firstName)
                failures.check(whole == names, "\(sort.label): \(whole), not \(names)")
                // One row at a time from the end: every window and seek agrees.
                var oneByOne: [ListedPerson] = []
                for position in (0..<5).reversed() { oneByOne += try await repository.rows(in: arrangement, positions: position..<(position + 1)) }
                failures.check(oneByOne.reversed().map(\.firstName) == names, "\(sort.label) row by row")
                for (position, row) in oneByOne.reversed().enumerated() {
                    failures.check(try await repository.position(of: row.id, in: arrangement) == position, "\(sort.label): \(row.firstName)'s place")
                }
            }
        }
        let grouped = try await repository.people(in: everyone(repository, SortOrder(.email)), positions: 0..<5).map(\.firstName)
        failures.check(grouped == ["Ed", "Al", "Cy", "Bo", "Di"], "grouped by company, by email: \(grouped)")
        return failures.list
    }

    static func scopes(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        let flat = everyone(repository, byCompany: false)
        failures.check(flat.sections.count == 1 && flat.sections.first?.count == 6 && flat.sections.first?.companyID == nil,
                       "flat: one section of everyone, no company's")
        let lastNames = try await allRows(repository, flat).map(\.lastName)
        failures.check(lastNames == lastNames.sorted(), "flat: by last name \(lastNames)")
        guard let comstar = repository.companies.firstIndex(where: { $0.name == "COMSTAR" }) else {
            return failures.list + ["COMSTAR is a company"]
        }
        for byCompany in [true, false] {
            let company = everyone(repository, byCompany: byCompany, company: comstar)
            failures.check(company.count == 3, "COMSTAR's list holds its 3 people (byCompany \(byCompany))")
            failures.check(try await allRows(repository, company).allSatisfy { $0.companyID == comstar }, "only COMSTAR's people")
        }
        return failures.list
    }
}
