import RosterCore
@testable import RosterSQL
import Testing

@Suite("The table's columns from the table of fields")
struct FieldColumnsTests {
    @Test("every text field of a person has its column, a text one, and no two share it")
    func everyFieldHasAColumn() {
        let names = TextField.allCases.map { PeopleTable.column(of: $0) }
        #expect(Set(names).count == TextField.allCases.count)
        #expect(PeopleTable.column(of: .favoriteFruit) == "favorite_fruit")
        #expect(PeopleTable.column(of: .id) == "id")
        for name in names {
            #expect(PeopleTable.columns.first { $0.name == name }?.postgresType == "text NOT NULL", "\(name)")
        }
    }

    @Test("the columns made from the table of fields are the ones tables imported before already have, in their order")
    func columnsAsImportedBefore() {
        #expect(PeopleTable.columns.map(\.name) == [
            "person_key", "position", "id", "record_index", "guid", "is_active", "balance", "balance_cents", "picture", "age",
            "eye_color", "first_name", "last_name", "company", "email", "phone", "address", "favorite_fruit",
            "present_fields", "company_key", "last_key", "first_key", "search_text",
        ])
    }

    static let person = Person(id: "", index: 7, guid: "g-1", isActive: true, balance: Balance(text: "$1,000.25", cents: 100_025),
                               picture: "http://p", age: 41, eyeColor: "green", firstName: "Ada", lastName: "Lovelace",
                               company: "Engine", email: "ada@engine.example", phone: "+44 1", address: "1 Main St, Town, State, 1",
                               favoriteFruit: "pear")

    @Test("a record's change digest is what imports already stored: the text fields in the table's order, then the figures")
    func digestIsStable() {
        // Worked out by the digest's first version, which named each field;
        // a different value would make the next re-import rewrite every row.
        #expect(ImportRows.digest(of: Self.person) == "d85b683bda0b2ff4af4f75d420173d4b")
    }

    @Test("a whole person is made, and each text field set, through the table of fields, every field in its place")
    func personRoundTrip() {
        for field in TextField.allCases {
            var changed = Person(firstName: "", lastName: "")
            changed.setText(field, "x-" + field.jsonKey)
            #expect(changed.text(field) == "x-" + field.jsonKey)
        }
        let rebuilt = Person(index: 7, isActive: true, balanceCents: 100_025, age: 41, presentTextFields: Self.person.presentTextFields,
                             text: Self.person.text)
        #expect(rebuilt == Self.person)
    }
}
