import Testing
@testable import RosterCore

@Suite("A new manager checked before it is saved")
struct ManagerChangeTests {
    /// Ada at the top; Bob reports to Ada; Cy to Bob; Dee to Cy; two Eve Stones; Fay and Gus report to each other.
    static let index = orgDirectory([
        orgPerson("ada", "Ada Lovelace", email: "ada@example.com"),
        orgPerson("bob", "Bob Smith", manager: "ada"),
        orgPerson("cy", "Cy Young", manager: "Bob Smith"),
        orgPerson("dee", "Dee Rowe", manager: "cy"),
        orgPerson("eve1", "Eve Stone"), orgPerson("eve2", "Eve Stone"),
        orgPerson("fay", "Fay Wu", manager: "gus"), orgPerson("gus", "Gus Ek", manager: "fay"),
    ])
    static let managers = ManagerResolution(index).managers
    static let names = index.source.people.map { $0.names[0] }

    static func message(_ person: Int, to reference: String) -> String? {
        switch ManagerChange.check(person, to: reference, in: index, managers: managers) {
        case .accepted: return nil
        case .refused(let problem): return ManagerChange.message(problem, person: person) { names[$0] }
        }
    }

    @Test("someone else, not under the person: accepted, with who it is")
    func accepted() {
        #expect(ManagerChange.check(3, to: "ada@example.com", in: Self.index, managers: Self.managers)
                == .accepted(manager: 0))
        #expect(ManagerChange.check(0, to: "eve1", in: Self.index, managers: Self.managers) == .accepted(manager: 4))
        #expect(ManagerChange.check(1, to: " ", in: Self.index, managers: Self.managers) == .accepted(manager: nil),
                "no manager: the top of an organisation")
        #expect(ManagerChange.check(0, to: "fay", in: Self.index, managers: Self.managers) == .accepted(manager: 6),
                "a manager in a loop that does not pass through the person makes no new loop")
    }

    @Test("a direct report as manager: refused, naming who reports to whom")
    func directReport() {
        #expect(Self.message(0, to: "bob") == "Ada Lovelace cannot report to Bob Smith: Bob Smith reports to Ada Lovelace")
    }

    @Test("someone further under: refused, with the chain between them")
    func furtherUnder() {
        #expect(Self.message(0, to: "Dee Rowe")
                == "Ada Lovelace cannot report to Dee Rowe: Dee Rowe is under Ada Lovelace (Dee Rowe › Cy Young › Bob Smith › Ada Lovelace)")
        #expect(ManagerChange.check(0, to: "dee", in: Self.index, managers: Self.managers)
                == .refused(.cycle(chain: [3, 2, 1, 0], manager: 3)))
    }

    @Test("the person themselves, someone not here, a name two people have: each said")
    func otherProblems() {
        #expect(Self.message(1, to: "BOB SMITH") == "Bob Smith cannot report to themselves")
        #expect(Self.message(1, to: "Grace Hopper")
                == #"Bob Smith cannot report to "Grace Hopper": no one here has that id, DN, email or name"#)
        #expect(Self.message(1, to: "eve stone")
                == #"Bob Smith cannot report to "eve stone": 2 people have that name; give an id or an email"#)
    }

    @Test("within a loop already there, closing it the other way is refused too")
    func insideALoop() {
        #expect(Self.message(6, to: "gus") == "Fay Wu cannot report to Gus Ek: Gus Ek reports to Fay Wu")
    }
}
