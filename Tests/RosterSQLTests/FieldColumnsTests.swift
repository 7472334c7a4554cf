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
}
