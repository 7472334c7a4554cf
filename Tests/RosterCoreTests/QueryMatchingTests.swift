import Testing
import TestTraits
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// The store's fast matcher against the reference (`PeopleQuery.matches`)
/// on generated people and random queries, deterministically.
@Suite("Query matching")
struct QueryMatchingTests {
    static let firsts = ["Bertha", "José", "Zoë", "ÅGOT", "Łukasz", "Søren", "芳", "Ada 🚀", "Renée", "abbott", "Quinn", "İlkay"]
    static let lasts = ["Irwin", "Núñez", "Ølberg", "Đorđević", "王", "Sanchez", "BETA", "O'Neil", "Mc Dowell", "Åström"]
    static let companies = ["COMSTAR", "Beta", "Ácme Ltd", " zen iso ", "RECRISYS", "beta", "", "Ünïcorn"]
    static let streets = ["303 Vermont Street", "1 Malmö Street", "Crystal Ávenue", "Harbor Lane, Unit 4"]
    static let cities = ["Concho", "São Paulo", "Williston", "MALMÖ", "Malmö", "malmo", "SAO PAULO"]
    static let states = ["Arizona", "Kentucky", "West Virginia", "Virginia", "Kansas", "Arkansas", "KANSAS"]
    static let colors = ["blue", "Brown", "green", "BLUE", ""]
    static let fruits = ["apple", "banana", "Strawberry", "Äpple"]

    static func person(_ index: Int, _ random: inout SeededRandom) -> String {
        func pick(_ values: [String]) -> String { values.randomElement(using: &random) ?? "" }
        let first = pick(firsts), last = pick(lasts)
        var extra: [String] = []
        let digits = (0..<10).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
        let phones = ["+1 (\(digits.prefix(3))) \(digits.dropFirst(3).prefix(3))-\(digits.suffix(4))", digits,
                      "\(digits.prefix(3)).\(digits.dropFirst(3).prefix(3)).\(digits.suffix(4))", "n/a"]
        if Int.random(in: 0..<8, using: &random) > 0 { extra.append("\"phone\": \(Fixtures.quoted(pick(phones)))") }
        let parts = Int.random(in: 1...5, using: &random)
        let address = [pick(streets), pick(cities), pick(states), String(Int.random(in: 1000...9999, using: &random)), "USA"]
            .prefix(parts).joined(separator: ", ")
        extra.append("\"address\": \(Fixtures.quoted(address))")
        if Int.random(in: 0..<6, using: &random) > 0 { extra.append("\"age\": \(Int.random(in: 18...70, using: &random))") }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: extra.append("\"isActive\": true")
        case 1: extra.append("\"isActive\": false")
        default: break
        }
        extra.append("\"eyeColor\": \(Fixtures.quoted(pick(colors)))")
        extra.append("\"favoriteFruit\": \(Fixtures.quoted(pick(fruits)))")
        extra.append("\"guid\": \"g-\(index)-\(digits.prefix(4))\"")
        let cents = Int.random(in: -50_000...400_000, using: &random)
        let balance: String? = switch Int.random(in: 0..<5, using: &random) {
        case 0: nil
        case 1: "n/a"
        case 2: String(format: "%d.%02d", cents / 100, abs(cents % 100))
        default: Balance.format(cents: cents)
        }
        let company = pick(companies)
        let email = "\(first.lowercased()).\(last)@\(company.isEmpty ? "none" : company).test"
        return Fixtures.record(first: first, last: last, company: company.isEmpty ? nil : company, email: email,
                               balance: balance, index: index, extra: extra.joined(separator: ", "))
    }

    /// A term made from what people have: a piece of some field, a field
    /// term, a number compared, perhaps negated, perhaps quoted.
    static func term(_ random: inout SeededRandom, sample: Person) -> String {
        func piece(_ text: String) -> String {
            let characters = Array(text)
            guard characters.count > 1 else { return text.isEmpty ? "a" : text }
            let length = Int.random(in: 1...min(5, characters.count), using: &random)
            let start = Int.random(in: 0...(characters.count - length), using: &random)
            return String(characters[start..<(start + length)])
        }
        func quotedIfSpaced(_ text: String) -> String {
            text.contains(" ") || text.contains(":") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "") + "\"" : text
        }
        /// The whole value, perhaps in other case.
        func recased(_ text: String) -> String {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return text.uppercased()
            case 1: return text.lowercased()
            default: return text
            }
        }
        let negate = Int.random(in: 0..<5, using: &random) == 0 ? "-" : ""
        let parts = QueryCondition.addressParts(sample.address)
        let body: String
        switch Int.random(in: 0..<20, using: &random) {
        case 0: body = quotedIfSpaced(piece(sample.fullName))
        case 1: body = quotedIfSpaced(piece(sample.email))
        case 2: body = quotedIfSpaced(piece(sample.phone))
        case 3: body = String(sample.phone.filter(\.isNumber).prefix(Int.random(in: 2...7, using: &random)))
        case 4: body = "company:" + quotedIfSpaced(piece(sample.company))
        case 5: body = ["name:", "first:", "last:"].randomElement(using: &random)! + quotedIfSpaced(piece(sample.fullName))
        case 6: body = ["city:", "state:", "street:", "zip:"].randomElement(using: &random)!
            + quotedIfSpaced(piece([parts.city, parts.state, parts.street, parts.zip].randomElement(using: &random)!))
        case 7: body = "eye:" + piece(sample.eyeColor)
        case 8: body = "fruit:" + piece(sample.favoriteFruit)
        case 9: body = "active:" + ["yes", "no"].randomElement(using: &random)!
        case 10: body = "age" + [">", ">=", "<", "<=", ":", "="].randomElement(using: &random)! + String(Int.random(in: 15...75, using: &random))
        case 11: body = "age:\(Int.random(in: 18...40, using: &random))-\(Int.random(in: 40...70, using: &random))"
        case 12: body = "balance" + [">", "<", ">=", "<="].randomElement(using: &random)!
            + Balance.format(cents: Int.random(in: -10_000...300_000, using: &random))
        case 13: body = "phone:" + (String(sample.phone.filter(\.isNumber).suffix(Int.random(in: 3...6, using: &random))).nilIfEmpty ?? "555")
        case 14: body = quotedIfSpaced(piece(sample.address))
        case 16: body = ["city=", "state=", "street=", "zip="].randomElement(using: &random)!
            + quotedIfSpaced(recased([parts.city, parts.state, parts.street, parts.zip].randomElement(using: &random)!))
        case 17: body = ["eye=" + recased(sample.eyeColor), "fruit=" + recased(sample.favoriteFruit), "eye=\"\"", "fruit=",
                         "eye=" + piece(sample.eyeColor)].randomElement(using: &random)!
        case 18:
            let fields: [(String, String)] = [("company=", sample.company), ("name=", sample.fullName), ("first=", sample.firstName),
                                              ("last=", sample.lastName), ("email=", sample.email), ("phone=", sample.phone),
                                              ("address=", sample.address), ("id=", sample.id), ("guid=", sample.guid)]
            let (name, value) = fields.randomElement(using: &random)!
            body = name + quotedIfSpaced(recased(value))
        case 19: body = ["age=", "balance=", "active=", "company=", "city=", "phone=", "name="].randomElement(using: &random)!
        default: body = ["email:", "address:", "id:", "guid:"].randomElement(using: &random)! + quotedIfSpaced(piece(sample.guid))
        }
        return negate + body
    }

    @Test("the fast matcher agrees with the reference on generated people and random queries")
    func agreesWithReference() throws {
        var random = SeededRandom(seed: 20_261_130)
        let records = (0..<1500).map { Self.person($0, &random) }
        let directory = try Fixtures.directory(json: Fixtures.array(records))
        let store = directory.store
        #expect(store.count == 1500)
        let people = (0..<store.count).map { store[$0] }
        let grouped = GroupedPeople(store: store)
        var nonEmpty = 0
        for _ in 0..<200 {
            let termCount = Int.random(in: 1...3, using: &random)
            let text = (0..<termCount).map { _ in Self.term(&random, sample: people.randomElement(using: &random)!) }.joined(separator: " ")
            if try Self.expectAgreement(text, people: people, grouped: grouped, store: store) { nonEmpty += 1 }
        }
        // The queries must discriminate, or the comparison proves little.
        #expect(nonEmpty > 100)
    }

    @Test("short plain terms (the first keystrokes, answered from the presence bits) agree with the reference, accents and phone digits included",
          .blockingWork)
    func shortTermsAgreeWithReference() throws {
        var random = SeededRandom(seed: 1201)
        let records = (0..<1500).map { Self.person($0, &random) }
        let directory = try Fixtures.directory(json: Fixtures.array(records))
        let store = directory.store
        let people = (0..<store.count).map { store[$0] }
        let grouped = GroupedPeople(store: store)
        // Every byte with a presence bit of its own, some that share one, accents typed and folded, capitals.
        let singles = "abcdefghijklmnopqrstuvwxyz0123456789.@()+,'_#/&ÖöÉéÅøØßđ芳🚀İQZ".map(String.init)
        let pairs = ["sa", "mo", "ma", "o'", "@b", "(1", "1)", "o.", "ao", "ño", "NU", "öm", "åg", "lm", "zz", "t,", ", ", "ør", "王"]
        // Phone digits (3 to 7 of a real number, some with punctuation), and digit runs of no phone.
        let phones = people.map(\.phone).filter { $0.contains("(") }
        let digitTerms = (0..<40).map { index -> String in
            let digits = phones[index * 7 % phones.count].filter(\.isNumber)
            let length = 3 + index % 5, start = index % max(1, digits.count - length)
            let run = String(Array(digits)[start..<min(digits.count, start + length)])
            return index % 3 == 0 ? "(" + run : run
        } + ["000000", "999", "55"]
        var discriminating = 0
        for text in singles + pairs + digitTerms + ["-a", "-ö", "a -e", "o 1"]
        where try Self.expectAgreement(text, people: people, grouped: grouped, store: store) {
            discriminating += 1
        }
        #expect(discriminating > 80)
    }

    /// Expects the store's search to find exactly whom the reference finds
    /// for `text`; returns whether it found some but not all (a query that
    /// tells people apart).
    static func expectAgreement(_ text: String, people: [Person], grouped: GroupedPeople, store: PeopleStore) throws -> Bool {
        let query = SearchQuery(text)
        guard query.error == nil else {
            Issue.record("query \(text) did not parse: \(query.error!.message)")
            return false
        }
        let fast = try #require(PeopleSearch.filter(grouped, store: store, query: query))
        let expected = Set(people.indices.filter { query.query.matches(people[$0]) })
        let got = Set(fast.grouped.order.map(Int.init))
        #expect(got == expected, "query \(text): fast \(got.count), reference \(expected.count), e.g. \(got.symmetricDifference(expected).prefix(3).map { people[$0].fullName })")
        return !expected.isEmpty && expected.count < people.count
    }

    @Test("narrowing searches only earlier matches and finds what a full search finds")
    func narrowingAgrees() throws {
        var random = SeededRandom(seed: 7)
        let records = (0..<1500).map { Self.person($0, &random) }
        let directory = try Fixtures.directory(json: Fixtures.array(records))
        let grouped = GroupedPeople(store: directory.store)
        let typed = ["abbott beta", "-beta age>3", "age>30 sanchez", "balance>1 -company:a", "1 (", "\"ada 🚀 ir\"", "city:co state:ar",
                     "eye:bl eye=blue", "state=kansas -city= age=", "-fruit=apple company=beta"]
        for text in typed {
            var previous: SearchResult?
            for length in 1...text.count {
                let query = SearchQuery(String(text.prefix(length)))
                guard query.error == nil else { continue }
                let within = previous.flatMap { query.narrows($0.query) ? $0 : nil }
                let narrowed = try #require(PeopleSearch.filter(grouped, store: directory.store, query: query, within: within))
                let full = try #require(PeopleSearch.filter(grouped, store: directory.store, query: query))
                #expect(narrowed.grouped.order == full.grouped.order, "\(query.text)")
                previous = narrowed
            }
        }
    }

    @Test("which queries narrow which")
    func narrowsRule() {
        func narrows(_ new: String, _ old: String) -> Bool { SearchQuery(new).narrows(SearchQuery(old)) }
        #expect(narrows("abbott b", "abbott"))
        #expect(narrows("abbott beta", "abbott b"))
        #expect(narrows("abbott", "abbott b"))  // "abbott" contains "b"
        #expect(!narrows("abbott", "abbott x"))
        #expect(narrows("age>30", "age>3"))
        #expect(!narrows("age>3", "age>30"))
        #expect(narrows("age:30-35", "age:30-39"))
        #expect(narrows("company:acme", "company:ac"))
        #expect(!narrows("company:acme", "ac"))
        #expect(!narrows("-abcd", "-abc"))
        #expect(narrows("-abc", "-abcd"))
        #expect(narrows("18831", "1883"))
        #expect(!narrows("1883", "18"))
        #expect(!narrows("x", ""))
        #expect(!narrows("agee>3", "a"))
        #expect(narrows("active:yes x", "active:yes"))
        #expect(narrows("eye=blue", "eye:bl"))  // the whole value holds "bl"
        #expect(!narrows("eye:blue", "eye=blue"))
        #expect(!narrows("eye=blue", "eye=blu"))
        #expect(!narrows("state=kansas", "city:kansas"))
        #expect(narrows("-eye:bl", "-eye=blue"))  // no "bl" at all: not blue either
        #expect(!narrows("-eye=blue", "-eye:bl"))
        #expect(narrows("age= x", "age="))
        #expect(!narrows("age=", "balance="))
        #expect(!narrows("eye=", "eye:b"))
    }

    @Test("phone numbers match on their digits; field terms look only in their field")
    func examples() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let grouped = GroupedPeople(store: directory.store)
        func names(_ text: String) throws -> [String] {
            try #require(PeopleSearch.filter(grouped, store: directory.store, query: SearchQuery(text))).grouped.order
                .map { directory.store[Int($0)].firstName }.sorted()
        }
        #expect(try names("8065843949") == ["Bertha"])
        #expect(try names("(806)584") == ["Bertha"])
        #expect(try names("phone:584-39") == ["Bertha"])
        #expect(try names("city:concho") == ["Bertha"])
        #expect(try names("state:kansas zip:8781") == ["Barnes"])
        #expect(try names("street:vermont") == ["Bertha"])
        #expect(try names("city:vermont").isEmpty)
        #expect(try names("company:comstar -first:cohen") == ["Bertha", "Vanessa"])
        #expect(try names("eye:blue") == ["Barnes"])
        #expect(try names("fruit:apple") == ["Barnes"])
        #expect(try names("active:yes age<30") == ["Barnes"])
        #expect(try names("age:30-35") == ["Bertha", "Cohen", "Norton", "Vanessa"])
        #expect(try names("balance>$3,000 balance<3334.51") == ["Barnes"])
        #expect(try names("balance>=3334.51") == ["Cohen"])
        #expect(try names("email:@recrisys.") == ["Barnes", "Norton"])
        #expect(try names("\"norton curtis\"") == ["Norton"])
        #expect(try names("norton curtis") == ["Norton"])
        #expect(try names("curtis norton") == ["Norton"])
        #expect(try names("\"curtis norton\"").isEmpty)
        #expect(try names("id:58f9a19680685a4e") == ["Bertha"])
        #expect(try names("city=CONCHO") == ["Bertha"])
        #expect(try names("city=conch").isEmpty)  // the whole value, not a part
        #expect(try names("eye=BLUE") == ["Barnes"])
        #expect(try names("-eye=green") == names("-eye:green"))
        #expect(try names("company=comstar") == names("company:comstar"))
        #expect(try names("company=comsta").isEmpty)
        #expect(try names("name=\"norton curtis\"") == ["Norton"])
        #expect(try names("first=NORTON last=curtis") == ["Norton"])
        #expect(try names("name=norton").isEmpty)
        #expect(try names("city=").isEmpty)  // everyone has a city
        #expect(try names("-city=").count == directory.store.count)
    }

    @Test("highlighting marks every term that can match a name, not excluded ones")
    func highlight() {
        #expect(SearchQuery("nun jo -se").matchRanges(in: "José Núñez") == [5..<8, 0..<2])
        #expect(SearchQuery("company:jo age>3").matchRanges(in: "José Núñez").isEmpty)
        #expect(SearchQuery("agee:3").matchRanges(in: "José Núñez").isEmpty)
    }

    @Test("highlighting in every column: a bare term in each field it searches, a field's term in its own column only")
    func highlightInColumns() {
        // `.org` is in the email, not the name; `jos` in both, folded alike.
        #expect(SearchQuery(".org").matchRanges(in: "ann@acme.org", field: .email) == [8..<12])
        #expect(SearchQuery(".org").matchRanges(in: "Ann Org", field: .name).isEmpty)
        #expect(SearchQuery("jos").matchRanges(in: "jose.garza@x.com", field: .email) == [0..<3])
        #expect(SearchQuery("jos").matchRanges(in: "José Garza", field: .name) == [0..<3])
        #expect(SearchQuery("jose").matchRanges(in: "JOSÉ.GARZA@X.COM", field: .email) == [0..<4])
        // A field's term: its column only.
        #expect(SearchQuery("email:garza").matchRanges(in: "jose.garza@x.com", field: .email) == [5..<10])
        #expect(SearchQuery("email:garza").matchRanges(in: "José Garza", field: .name).isEmpty)
        #expect(SearchQuery("company:acm").matchRanges(in: "ACME", field: .company) == [0..<3])
        #expect(SearchQuery("company:acm").matchRanges(in: "acme@acme.org", field: .email).isEmpty)
        #expect(SearchQuery("city:con address:ch").matchRanges(in: "Concho", field: .city) == [0..<3, 3..<5])
        #expect(SearchQuery("state:con").matchRanges(in: "Concho", field: .city).isEmpty)
        #expect(SearchQuery("first:jo").matchRanges(in: "José Garza", field: .name) == [0..<2])
        #expect(SearchQuery("company=acme").matchRanges(in: "Acme", field: .company) == [0..<4])
        // Excluded terms are never highlighted; a phone's digits match across its punctuation.
        #expect(SearchQuery("-org").matchRanges(in: "ann@acme.org", field: .email).isEmpty)
        #expect(SearchQuery("5759").matchRanges(in: "+1 (575) 919-9368", field: .phone) == [4..<10])
        #expect(SearchQuery("phone:919").matchRanges(in: "+1 (575) 919-9368", field: .phone).contains(9..<12))
    }
}

