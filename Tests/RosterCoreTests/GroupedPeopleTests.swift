import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("Grouping and sorting")
struct GroupedPeopleTests {
    /// Sections as "COMPANY: First Last, First Last".
    static func outline(_ people: [(String, String, String)]) throws -> [String] {
        let directory = try Fixtures.directory(people: people)
        let grouped = GroupedPeople(store: directory.store)
        return grouped.sections.map { section in
            section.title + ": " + section.range.map { directory.store[Int(grouped.order[$0])].fullName }.joined(separator: ", ")
        }
    }

    @Test("companies A→Z, people by last then first name")
    func sortsCompaniesAndPeople() throws {
        let outline = try Self.outline([
            ("Zed", "Adams", "Umbrella"), ("Bob", "Young", "ACME"), ("Amy", "Young", "ACME"),
            ("Cal", "Baker", "ACME"), ("Dee", "Moss", "Globex"),
        ])
        #expect(outline == ["ACME: Cal Baker, Amy Young, Bob Young", "Globex: Dee Moss", "Umbrella: Zed Adams"])
    }

    @Test("ignores case and accents, in names and in companies")
    func caseAndAccents() throws {
        let outline = try Self.outline([
            ("a", "Zola", "éclair"), ("b", "émile", "Delta"), ("c", "Eve", "delta"), ("d", "ABEL", "Delta"),
            ("e", "Ödön", "Delta"), ("f", "oscar", "Delta"),
        ])
        // "Delta" and "delta" are one company, shown as first seen.
        #expect(outline == ["Delta: d ABEL, b émile, c Eve, e Ödön, f oscar", "éclair: a Zola"])
    }

    @Test("ties keep file order")
    func stableTies() throws {
        let outline = try Self.outline([
            ("Sam", "Lee", "X"), ("sam", "lee", "X"), ("SAM", "LEE", "X"), ("Al", "Lee", "X"),
        ])
        #expect(outline == ["X: Al Lee, Sam Lee, sam lee, SAM LEE"])
    }

    @Test("a shorter last name sorts before a longer one it starts")
    func prefixNames() throws {
        let outline = try Self.outline([("Zed", "Lia", "X"), ("Amy", "Li", "X"), ("Bo", "Longname-Extended", "X"), ("Al", "Longname", "X")])
        #expect(outline == ["X: Amy Li, Zed Lia, Al Longname, Bo Longname-Extended"])
    }

    @Test("many people of few names, keys about 16 bytes long, in large and small companies: the order is a plain sort's")
    func matchesAPlainSort() throws {
        // Names whose keys ("last\0first") straddle the 16 bytes the sort
        // compares as integers, equal names, empty first names, and company
        // names alike in their first 16 bytes: every shortcut is taken.
        let lasts = ["Lee", "Leeuwenhoek", "Leeuwenhoek-Van", "Montgomery", "Montgomeryy", "O"]
        let firsts = ["", "Al", "Alexandra", "Alexandrina", "Alexandrz", "Bo"]
        let companies = ["Big Company Name A", "Big Company Name B", "big company name", "Small", "small", "Tiny", ""]
        var random = SeededRandom(seed: 21)
        let people = (0..<600).map { _ in
            (firsts.randomElement(using: &random)!, lasts.randomElement(using: &random)!,
             random.next() % 4 == 0 ? companies[3 + Int(random.next() % 4)] : companies[Int(random.next() % 3)])
        }
        let store = try Fixtures.directory(people: people).store
        func key(_ text: String) -> [UInt8] { Array(text.lowercased().utf8) }
        func nameKey(_ position: Int) -> [UInt8] { key(people[position].1) + [0] + key(people[position].0) }
        for byCompany in [true, false] {
            let grouped = GroupedPeople(store: store, sort: .byLastName, byCompany: byCompany)
            let expected = (0..<people.count).sorted { a, b in
                let companyA = key(people[a].2), companyB = key(people[b].2)
                if byCompany, companyA != companyB {
                    if companyA.isEmpty != companyB.isEmpty { return companyB.isEmpty }
                    return companyA.lexicographicallyPrecedes(companyB)
                }
                if nameKey(a) != nameKey(b) { return nameKey(a).lexicographicallyPrecedes(nameKey(b)) }
                return a < b
            }
            #expect(grouped.order.map(Int.init) == expected, "byCompany: \(byCompany)")
        }
    }

    @Test("people without a company come last, under No company")
    func noCompanyLast() throws {
        let outline = try Self.outline([("A", "One", ""), ("B", "Two", "Zeta"), ("C", "Three", "  "), ("D", "Four", "Alpha")])
        #expect(outline == ["Alpha: D Four", "Zeta: B Two", "No company: A One, C Three"])
    }

    @Test("one person, and nobody")
    func smallDirectories() throws {
        #expect(try Self.outline([("Solo", "Person", "Only")]) == ["Only: Solo Person"])
        #expect(try Self.outline([]) == [])
    }

    @Test("sections are ranges over the order; every person appears once")
    func sectionRanges() throws {
        let people = (0..<500).map { ("F\($0)", "L\($0 % 37)", "C\($0 % 11)") }
        let directory = try Fixtures.directory(people: people)
        let grouped = GroupedPeople(store: directory.store)
        #expect(Set(grouped.order).count == 500)
        var expectedStart = 0
        for (index, section) in grouped.sections.enumerated() {
            #expect(section.range.lowerBound == expectedStart)
            expectedStart = section.range.upperBound
            for position in section.range {
                #expect(grouped.sectionIndex(containing: position) == index)
                #expect(directory.store.companyID(of: Int(grouped.order[position])) == section.companyID)
            }
        }
        #expect(expectedStart == 500)
    }
}

@Suite("List rows")
struct ListRowsTests {
    @Test("rows interleave headers and people; positions and rows map both ways")
    func rowMapping() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let rows = ListRows(directory.everyone, repository: directory.repository)
        #expect(rows.count == 9)
        let text = rows.map { row -> String in
            switch row {
            case .header(let header): return "# \(header.title) \(header.count)"
            case .person(let person): return "\(person.position) \(person.person.value?.name ?? "?") \(person.person.value?.balance ?? "?")"
            }
        }
        #expect(text == [
            "# COMSTAR 3", "0 Bertha Irwin $2,107.15", "1 Cohen James $3,334.51", "2 Vanessa Sanchez $2,046.56",
            "# PERMADYNE 1", "3 Zamora Weber $2,259.39",
            "# RECRISYS 2", "4 Norton Curtis $1,194.79", "5 Barnes Pickett $3,019.42",
        ])
        for position in 0..<6 {
            guard case .person(let person) = rows[rows.row(ofPosition: position)] else {
                Issue.record("row of position \(position) is not a person")
                continue
            }
            #expect(person.position == position)
        }
    }
}
