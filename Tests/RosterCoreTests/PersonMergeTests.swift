import Testing
import RosterCore

/// The conflict screen's merge: a field changed on one side takes that
/// side; one changed on both sides to different values waits for a choice.
@Suite("Merging a person changed on both sides")
struct PersonMergeTests {
    static func person(email: String, phone: String = "1") -> Person {
        var person = Person(index: 0, isActive: true, balanceCents: 100, age: 30, presentTextFields: 0x0FFF) { _ in "" }
        person.id = "a1"
        person.email = email
        person.phone = phone
        return person
    }

    /// (was, yours, theirs) → whose value the field takes without asking (nil: it asks), and the value merged.
    @Test("merge cases", arguments: [
        ("a", "a", "a", PersonMerge.Choice?.some(.theirs), "a"),   // nobody changed it
        ("a", "b", "a", .some(.mine), "b"),                        // only yours
        ("a", "a", "c", .some(.theirs), "c"),                      // only theirs
        ("a", "b", "b", .some(.mine), "b"),                        // both, to the same value
        ("a", "b", "c", nil, ""),                                  // both, differently: asks
        ("a", "", "c", nil, ""),                                   // you cleared it, they changed it: asks
        ("a", "b", "", nil, ""),                                   // you changed it, they cleared it: asks
    ])
    func cases(was: String, mine: String, theirs: String, expected: PersonMerge.Choice?, merged: String) {
        let merge = PersonMerge(fields: [.text(.email)], base: Self.person(email: was), mine: [mine], theirs: Self.person(email: theirs))
        let row = merge.rows[0]
        #expect(row.choice == expected)
        #expect(row.isConflict == (expected == nil))
        #expect(merge.unresolved == (expected == nil ? 1 : 0))
        #expect(merge.values == (expected == nil ? nil : [merged]))
        #expect(merge.shown == (was == mine && was == theirs ? [] : [0]))
    }

    @Test("every choice settles a waiting field; the fields nobody touched keep their value; the merge is based on theirs")
    func choosing() {
        let was = Self.person(email: "a@x.io", phone: "1")
        let theirs = Self.person(email: "c@x.io", phone: "2")
        var merge = PersonMerge(fields: [.text(.email), .text(.phone), .text(.company)], base: was, mine: ["b@x.io", "1", ""], theirs: theirs)
        #expect(merge.shown == [0, 1])
        #expect(merge.values == nil)
        merge.choose(.theirs, at: 0)
        #expect(merge.values == ["c@x.io", "2", ""])
        merge.choose(.mine, at: 0)
        #expect(merge.values == ["b@x.io", "2", ""])
        merge.choose(.edit, at: 0)
        #expect(merge.values == ["b@x.io", "2", ""], "edit starts from yours")
        #expect(merge.theirs == theirs)
    }
}
