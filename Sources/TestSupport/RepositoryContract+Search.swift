import RosterCore

/// The contract's checks of searching, identities and summaries.
extension RepositoryContract {
    static func search(_ make: Factory) async throws -> [String] {
        let repository = try await make(people + "")
        var failures = Failures()
        let all = everyone(repository)
        func names(_ text: String, within: PeopleArrangement? = nil) async throws -> [String] {
            let found = try await repository.search(SearchQuery(text), in: all, within: within)
            failures.check(found.query == SearchQuery(text) || SearchQuery(text).isEmpty, "\(text): the result says its query")
            failures.check(found.sections.reduce(0) { $0 + $1.count } == found.count, "\(text): sections cover the matches")
            return try await allRows(repository, found).map(\.name)
        }
        failures.check(try await names("comstar") == ["Bertha Irwin", "Cohen James", "Vanessa Sanchez"], "company name matches")
        failures.check(try await names("IRWIN") == ["Bertha Irwin"], "case is ignored")
        failures.check(try await names("cohen james") == ["Cohen James"], "first then last name")
        failures.check(try await names("806) 584") == ["Bertha Irwin"], "phone")
        failures.check(try await names("zzz").isEmpty, "no match, no one")
        failures.check(try await names("").count == 6, "an empty query keeps everyone")
        let earlier = try await repository.search(SearchQuery("an"), in: all, within: nil)
        failures.check(try await names("anc", within: earlier) == (try await names("anc")), "narrowing within earlier matches changes nothing")
        let found = try await repository.search(SearchQuery("comstar"), in: all, within: nil)
        failures.check(found.sections.first?.total == 3, "a section keeps its full headcount as total")
        let accents = try await make(tricky)
        let nunez = try await accents.search(SearchQuery("nunez"), in: everyone(accents), within: nil)
        failures.check(try await allRows(accents, nunez).map(\.lastName) == ["Núñez"], "accents are ignored")
        return failures.list
    }

    static func cancelledSearch(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        let all = everyone(repository)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await Result(awaiting: { () async throws(RepositoryError) in try await repository.search(SearchQuery("a"), in: all, within: nil) })
        }
        switch await task.value {
        case .success: return ["a cancelled search returned a result"]
        case .failure(let error): return error.kind == .cancelled ? [] : ["threw \(error), not .cancelled"]
        }
    }

    static func reapply(_ make: Factory) async throws -> [String] {
        let repository = try await make(people)
        var failures = Failures()
        let found = try await repository.search(SearchQuery("comstar"), in: everyone(repository), within: nil)
        let byAge = everyone(repository, SortOrder(.age), byCompany: false)
        let moved = repository.reapply(found, to: byAge)
        let ages = try await repository.people(in: moved, positions: 0..<moved.count).compactMap(\.age)
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
        for row in try await allRows(repository, arrangement) {
            let person = try await repository.person(row.id)
            failures.check(person.lastName == row.lastName && person.email == row.email, "person(\(row.id)) is row \(row.position)")
            // The list's columns come from the row alone (one frame's rows, no whole records).
            failures.check(row.phone == person.phone && row.age == person.age && row.isActive == person.isActive
                           && row.company == person.company && row.city == QueryCondition.addressParts(person.address).city,
                           "row \(row.position) carries the columns' fields (phone, age, active, company, city)")
            let differ = TextField.allCases.filter { row.text($0) != ($0.isListed ? person.text($0) : "") }
            failures.check(differ.isEmpty, "row \(row.position) carries every listed text field of the record; not \(differ)")
            failures.check(try await repository.position(of: row.id, in: arrangement) == row.position, "position(of: \(row.id))")
            failures.check(try await repository.personIDs(in: arrangement, positions: row.position..<(row.position + 1)) == [row.id],
                           "personIDs at \(row.position)")
            failures.check(try await repository.personID(recordID: person.id) == row.id, "personID(recordID: \(person.id))")
        }
        failures.check(try await repository.personID(recordID: "no such id") == nil, "an unknown record id is nobody")
        let found = try await repository.search(SearchQuery("irwin"), in: arrangement, within: nil)
        let curtis = try await allRows(repository, arrangement).first { $0.lastName == "Curtis" }
        var curtisPosition: Int?? = nil
        if let curtis { curtisPosition = .some(try await repository.position(of: curtis.id, in: found)) }
        failures.check(curtisPosition == .some(nil), "someone filtered out has no position")
        return failures.list
    }

    static func summaries(_ make: Factory) async throws -> [String] {
        let repository = try await make(tricky)
        var failures = Failures()
        let all = try await repository.companySummaries(in: everyone(repository))
        failures.check(all.map(\.headcount) == [2, 2, 1], "headcounts A→Z, no company last: \(all.map(\.headcount))")
        let big = all.first { $0.title == "Big" }
        failures.check(big?.totalCents == Int128(9_223_372_036_854_775_800) * 2, "exact total past 64 bits: \(String(describing: big?.totalCents))")
        failures.check(big?.active == 1 && big?.ages == 2 && big?.ageSum == 60, "active and ages")
        let acme = all.first { $0.title.lowercased() == "acme" }
        failures.check(acme?.balances == 1 && acme?.totalCents == -225, "a missing balance is not counted")
        let found = try await repository.search(SearchQuery("zero"), in: everyone(repository), within: nil)
        let shown = try await repository.companySummaries(in: found)
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
        for field in SummaryField.countedByRepositories where field != .company {
            for row in try await repository.valueSummaries(of: field, in: all) {
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
        func expect(_ field: SummaryField, in arrangement: PeopleArrangement? = nil, _ expected: [String], _ what: String) async {
            let rows: [String]
            do throws(RepositoryError) {
                rows = try await repository.valueSummaries(of: field, in: arrangement ?? all).map { "\($0.title) \($0.headcount)" }
            } catch {
                rows = ["failed: \(error)"]
            }
            failures.check(rows == expected, "\(what): \(rows)")
        }
        await expect(.city, ["Concho 1", "Springfield 3", "(none) 2"], "cities")
        await expect(.state, ["Arkansas 1", "Kansas 3", "(none) 2"], "states")
        await expect(.text(.eyeColor), ["blue 4", "brown 1", "(none) 1"], "eye colours folded, the commonest spelling")
        await expect(.text(.favoriteFruit), ["apple 1", "banana 1", "(none) 4"], "fruit")
        await expect(.active, ["yes 3", "no 1", "(none) 2"], "active")
        await expect(.ageBand, ["0–9 1", "20–29 1", "30–39 2", "40–49 1", "(none) 1"], "age bands")
        await expect(.balanceBand, ["below $0 1", "$0–$999.99 1", "$1,000–$1,999.99 1",
                                   "$10,000,000,000,000,000 and over 2", "(none) 1"], "balance bands")
        let bands = try await repository.valueSummaries(of: .balanceBand, in: all)
        let top = bands.first { $0.title.hasSuffix("and over") }
        failures.check(top?.totalCents == Int128(9_223_372_036_854_775_800) * 2 && top?.value == .band(1_000_000_000_000_000_000...Int64.max),
                       "exact total past 64 bits: \(String(describing: top))")
        let kansas = try await repository.valueSummaries(of: .state, in: all).first { $0.title == "Kansas" }
        failures.check(kansas?.value == .text("Kansas") && kansas?.balances == 3
                       && kansas?.totalCents == Int128(9_223_372_036_854_775_800) * 2 + 99_999, "Kansas: \(String(describing: kansas))")
        let none = try await repository.valueSummaries(of: .city, in: all).last
        failures.check(none?.value == .missing && none?.balances == 1 && none?.totalCents == -225, "(none): \(String(describing: none))")
        let companies = try await repository.valueSummaries(of: .company, in: all)
        let overview = try await repository.companySummaries(in: all)
        failures.check(companies == overview.map(ValueSummary.init), "company: as the overview")
        let found = try await repository.search(SearchQuery("springfield"), in: all, within: nil)
        await expect(.city, in: found, ["Springfield 3"], "only the shown people count")
        await expect(.state, in: found, ["Arkansas 1", "Kansas 2"], "states of the shown")
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
