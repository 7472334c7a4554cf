import Testing
@testable import RosterApp

/// `roster update TARGET ID field=value…`: what is an ID and what a field.
@Suite("roster update's arguments")
struct EditArgumentsTests {
    @Test("an LDIF entry's DN is an ID though it has '='; a field's assignment (email=, name=, any case) is not")
    func distinguishedNameIsAnID() throws {
        let parsed = try EditCommand.parse(.update, ["export.ldif", "uid=ada,ou=People,dc=example,dc=org", "phone=+1 555"])
        #expect(parsed.ids == ["uid=ada,ou=People,dc=example,dc=org"])
        #expect(parsed.changes.count == 1)
        for forgotten in [["people.json", "email=a@b.c", "phone=1"], ["people.json", "Name=Ada King", "phone=1"]] {
            #expect(throws: Options.UsageError.self) { try EditCommand.parse(.update, forgotten) }
        }
    }
}
