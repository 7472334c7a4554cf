import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("The fields anyone in a source has")
struct FieldsInUseTests {
    @Test("a store says which fields any record has: text fields by their keys, the age, activity and index by a value")
    func fromRecords() throws {
        let contacts = try Fixtures.directory(json: Fixtures.array([
            #"{"name": {"first": "Ann", "last": "Bell"}, "email": "ann@acme.test"}"#,
            #"{"name": {"first": "Cy", "last": "Dale"}, "phone": "555 0101"}"#,
        ])).store.fieldsInUse
        #expect(contacts.contains(.email) && contacts.contains(.phone) && contacts.contains(.firstName))
        #expect(!contacts.contains(.balance) && !contacts.contains(.eyeColor) && !contacts.contains(.address))
        #expect(!contacts.age && !contacts.active && !contacts.index)
        let seed = try Fixtures.directory(json: Fixtures.array([
            #"{"name": {"first": "Ann", "last": "Bell"}, "index": 0, "isActive": false, "age": 30, "balance": "$1.00"}"#,
        ])).store.fieldsInUse
        #expect(seed.age && seed.active && seed.index && seed.contains(.balance))
        #expect(FieldsInUse.all.contains(.eyeColor) && FieldsInUse.all.age)
    }

    @MainActor
    @Test("the person's screen leaves out a field no one has; the name, company and email always show")
    func personsScreen() {
        let person = Person(firstName: "Ann", lastName: "Bell", phone: "555 0101")
        let contacts = FieldsInUse(textFields: TextField.bit(.phone), age: false, active: false, index: false)
        let labels = DetailPresenter.fields(of: person, in: contacts).map(\.label)
        #expect(labels == ["First name", "Last name", "Company", "Email", "Phone"])
        #expect(DetailPresenter.fields(of: person, in: .all).map(\.label).contains("Age"))
    }
}
