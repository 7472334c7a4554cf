import Testing
@testable import RosterCore

typealias OrgPerson = PersonReferenceColumns.Person

/// A directory of people given as (id, name, email, manager reference).
func orgDirectory(_ people: [OrgPerson]) -> PersonReferenceIndex<PersonReferenceColumns> {
    PersonReferenceIndex(PersonReferenceColumns(people))
}

func orgPerson(_ id: String, _ name: String, email: String? = nil, dn: String? = nil, manager: String? = nil) -> OrgPerson {
    OrgPerson(id: id, distinguishedName: dn, emails: email.map { [$0] } ?? [], names: [name], manager: manager)
}

@Suite("Manager references resolved")
struct ManagerResolutionTests {
    static let ada = orgPerson("a1", "Ada Lovelace", email: "Ada.Lovelace@Example.com",
                               dn: "CN=Ada Lovelace,OU=People,DC=example,DC=com")
    static let frances = orgPerson("f2", "Frances Lamarr", email: "frances@example.com",
                                   dn: #"CN=Lamarr\, Frances,OU=People,DC=example,DC=com"#)
    static let jose = orgPerson("j3", "José Núñez")

    static func resolve(_ reference: String) -> ManagerResolution.Outcome {
        let index = orgDirectory([ada, frances, jose, orgPerson("x9", "Someone", manager: reference)])
        return ManagerResolution(index).outcome(of: 3)
    }

    @Test("by id, exactly (spaces around it aside)", arguments: ["a1", " a1 "])
    func byID(reference: String) {
        #expect(Self.resolve(reference) == .resolved(manager: 0, by: .id))
        #expect(Self.resolve("A1") == .missing(reference: "A1"), "an id is exact")
    }

    @Test("by DN, whatever its case, spacing and escapes", arguments: [
        "cn=ada lovelace,ou=people,dc=example,dc=com",
        "CN = Ada Lovelace , OU=People, DC=EXAMPLE,DC=com",
        "cn=Ada  Lovelace;ou=people;dc=example;dc=com",
        #"cn=Ada\20Lovelace,ou=people,dc=example,dc=com"#,
        #"OID.cn="Ada Lovelace",ou=people,dc=example,dc=com"#,
    ])
    func byDistinguishedName(reference: String) {
        #expect(Self.resolve(reference) == .resolved(manager: 0, by: .distinguishedName))
    }

    @Test("a DN's escaped comma is part of its value, however it is written", arguments: [
        #"cn=lamarr\, frances,ou=people,dc=example,dc=com"#,
        #"cn=Lamarr\2C Frances,ou=people,dc=example,dc=com"#,
        #"cn="Lamarr, Frances",ou=people,dc=example,dc=com"#,
    ])
    func escapedComma(reference: String) {
        #expect(Self.resolve(reference) == .resolved(manager: 1, by: .distinguishedName))
        #expect(Self.resolve("cn=lamarr,cn=frances,ou=people,dc=example,dc=com")
                == .missing(reference: "cn=lamarr,cn=frances,ou=people,dc=example,dc=com"))
    }

    @Test("by email, whatever its case, and as vCard's mailto: URI", arguments: [
        "ada.lovelace@example.com", "ADA.LOVELACE@EXAMPLE.COM", "mailto:Ada.Lovelace@example.com",
    ])
    func byEmail(reference: String) {
        #expect(Self.resolve(reference) == .resolved(manager: 0, by: .email))
    }

    @Test("by name, folded for case and accents as Roster folds, spaces as one", arguments: [
        ("ada lovelace", 0), ("ADA  LOVELACE", 0), ("Ada\u{A0}Lovelace", 0), ("jose nunez", 2), ("JOSÉ NÚÑEZ", 2),
    ])
    func byName(reference: String, manager: Int) {
        #expect(Self.resolve(reference) == .resolved(manager: manager, by: .name))
    }

    @Test("an id beats a name that reads the same; the first kind anybody has decides")
    func idFirst() {
        let index = orgDirectory([orgPerson("Bob", "Ada Lovelace"), orgPerson("b2", "Bob"), orgPerson("c3", "C", manager: "Bob")])
        #expect(ManagerResolution(index).outcome(of: 2) == .resolved(manager: 0, by: .id))
    }

    @Test("a name two people have is ambiguous: said, with how many, never guessed")
    func ambiguousName() {
        let index = orgDirectory([
            orgPerson("s1", "John Smith"), orgPerson("s2", "JOHN SMITH"), orgPerson("s3", "John Smith"),
            orgPerson("e1", "Eve", manager: "john smith"), orgPerson("e2", "Ed", manager: "s2"),
        ])
        let resolution = ManagerResolution(index)
        #expect(resolution.outcome(of: 3) == .ambiguous(reference: "john smith", people: 3))
        #expect(resolution.managers[3] == -1)
        #expect(resolution.outcome(of: 4) == .resolved(manager: 1, by: .id), "an id still finds one of them")
        #expect(resolution.problems == [.init(person: 3, outcome: .ambiguous(reference: "john smith", people: 3))])
    }

    @Test("one person giving one email twice is one person, not an ambiguity")
    func sameEmailTwice() {
        let index = orgDirectory([
            OrgPerson(id: "a", emails: ["a@x.org", "A@X.org"], names: ["A"]),
            orgPerson("b", "B", manager: "a@x.org"),
        ])
        #expect(ManagerResolution(index).outcome(of: 1) == .resolved(manager: 0, by: .email))
    }

    @Test("a manager not in the directory is missing, with the reference as written")
    func missing() {
        #expect(Self.resolve("Grace Hopper") == .missing(reference: "Grace Hopper"))
        #expect(Self.resolve("cn=Grace Hopper,dc=example") == .missing(reference: "cn=Grace Hopper,dc=example"))
    }

    @Test("a person named as their own manager, by any kind, is a self-reference", arguments: ["x9", "someone"])
    func selfReference(reference: String) {
        #expect(Self.resolve(reference) == .selfReference)
    }

    @Test("no reference, or only spaces, is no manager and no problem", arguments: [nil, "", "  "] as [String?])
    func noManager(reference: String?) {
        let index = orgDirectory([Self.ada, orgPerson("b", "B", manager: reference)])
        let resolution = ManagerResolution(index)
        #expect(resolution.outcome(of: 1) == ManagerResolution.Outcome.none)
        #expect(resolution.problems.isEmpty)
        #expect(!resolution.hasProblem(1))
    }

    @Test("problems are counted by kind, in person order")
    func problemCounts() {
        let index = orgDirectory([
            orgPerson("a", "A", manager: "nobody"), orgPerson("b", "B", manager: "b"), orgPerson("c", "C", manager: "a"),
            orgPerson("d", "D", manager: "gone"), orgPerson("e", "E"),
        ])
        let resolution = ManagerResolution(index)
        #expect(resolution.problems.map(\.person) == [0, 1, 3])
        let counts = resolution.problemCounts
        #expect([counts.missing, counts.ambiguous, counts.selfReferences] == [2, 0, 1])
        #expect(resolution.outcome(of: 2) == .resolved(manager: 0, by: .id))
    }

    @Test("resolving a source makes the id table, and the others only for references no id matched")
    func tablesAsNeeded() {
        let byID = PersonReferenceColumns([Self.ada, Self.frances, orgPerson("c", "Cy", manager: "a1"), orgPerson("d", "Di", manager: "c")])
        let (resolution, index) = ManagerResolution.resolve(byID)
        #expect(index.kinds == [.id])
        #expect(resolution.managers == [-1, -1, 0, 2])
        let mixed = PersonReferenceColumns(byID.people + [
            orgPerson("e", "Ed", manager: "frances@example.com"), orgPerson("f", "Fy", manager: "ada lovelace"),
            orgPerson("g", "Gu", manager: "nobody"), orgPerson("h", "Hu", manager: "h"), orgPerson("i", "Ida", manager: "cy"),
        ])
        let (lazily, partial) = ManagerResolution.resolve(mixed)
        #expect(partial.kinds == [.id, .email, .name], "no reference reads as a DN")
        let whole = ManagerResolution(PersonReferenceIndex(mixed))
        #expect(lazily.managers == whole.managers)
        #expect(lazily.problems == whole.problems)
        #expect((0..<mixed.count).map(lazily.outcome) == (0..<mixed.count).map(whole.outcome))
        #expect(lazily.outcome(of: 4) == .resolved(manager: 1, by: .email))
        #expect(partial.including(PersonReferenceKind.allCases).kinds == PersonReferenceKind.allCases)
    }

    @Test("a table grows past its first guess (many emails a person) and keeps what it knew")
    func growingTable() {
        var people = (0..<100).map { person in
            OrgPerson(id: "p\(person)", emails: (0..<20).map { "p\(person).\($0)@example.com" }, names: ["P \(person)"],
                      manager: person == 0 ? nil : "p\(person - 1).19@example.com")
        }
        people[5].emails.append("p4.3@example.com")
        people[6].manager = "P4.3@example.com"
        let resolution = ManagerResolution(PersonReferenceIndex(PersonReferenceColumns(people)))
        #expect(resolution.outcome(of: 6) == .ambiguous(reference: "P4.3@example.com", people: 2))
        #expect(resolution.outcome(of: 99) == .resolved(manager: 98, by: .email))
        #expect(resolution.problems.count == 1)
    }

    @Test("a key shared across the runs of people the cores hash apart is still one key, with everyone who has it")
    func sharedAcrossRuns() {
        var people = (0..<12_000).map { orgPerson("p\($0)", "N \($0 % 3000)") }
        people[9_000].id = "p100"
        people[11_999].manager = "n 5"
        people[11_998].manager = "p100"
        people[11_997].manager = "p9000"
        let resolution = ManagerResolution(PersonReferenceIndex(PersonReferenceColumns(people)))
        #expect(resolution.outcome(of: 11_999) == .ambiguous(reference: "n 5", people: 4))
        #expect(resolution.outcome(of: 11_998) == .ambiguous(reference: "p100", people: 2))
        #expect(resolution.outcome(of: 11_997) == .missing(reference: "p9000"))
    }

    @Test("tens of thousands of people, in parts across the cores, each resolved to the right one")
    func manyPeople() {
        let people = (0..<20_000).map { index in
            orgPerson("id\(index)", "Person \(index)", email: "p\(index)@example.com",
                      manager: index == 0 ? nil : [ "id\((index - 1) / 7)", "p\((index - 1) / 7)@example.com",
                                                    "person \((index - 1) / 7)" ][index % 3])
        }
        let resolution = ManagerResolution.resolve(PersonReferenceColumns(people)).0
        #expect(resolution.problems.isEmpty)
        let expected: [Int32] = (0..<20_000).map { $0 == 0 ? -1 : Int32(($0 - 1) / 7) }
        #expect(resolution.managers == expected)
    }
}

@Suite("Distinguished names in one normal form")
struct DistinguishedNameTests {
    static func normal(_ text: String) -> String? {
        var text = text
        var output: [UInt8] = []
        return text.withUTF8 { DistinguishedName.normalise($0, into: &output) } ? String(decoding: output, as: UTF8.self) : nil
    }

    @Test("types lowercased, spaces and escapes undone, values folded, multi-valued RDNs in one order")
    func normalForm() {
        #expect(Self.normal("CN=Ada  Lovelace , OU=People") == "cn=ada lovelace,ou=people")
        #expect(Self.normal("uid=ada+cn=Ada,dc=x") == Self.normal("CN=ada + UID=Ada, DC=X"))
        #expect(Self.normal(#"cn=a\+b,dc=x"#) == #"cn=a\+b,dc=x"#)
        #expect(Self.normal(#"cn=a\2Bb,dc=x"#) == #"cn=a\+b,dc=x"#)
        #expect(Self.normal("2.5.4.3=Ada") == "2.5.4.3=ada")
        #expect(Self.normal("CN=ÅSA,dc=x") == "cn=åsa,dc=x")
    }

    @Test("what is not a DN is said so", arguments: [
        "Ada Lovelace", "ada@example.com", "", "   ", "=ada", "cn=ada,", #"cn="ada"#, #"cn=ada\"#, "cn ada", "-x=1",
    ])
    func notADN(text: String) {
        #expect(Self.normal(text) == nil)
    }
}
