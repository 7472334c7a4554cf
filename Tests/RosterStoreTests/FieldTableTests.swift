import Testing
@testable import RosterCore
@testable import RosterStore

/// The one table of field names (`TextField`'s spellings, `RecordValue`,
/// `CSVColumn`) against the formats it stands for, so that driving the
/// readers and writers from it changed nothing they read or write.
@Suite("One table of field names")
struct FieldTableTests {
    @Test("JSON records: the keys, in the order of the records Roster was made for")
    func jsonOrder() {
        #expect(RecordValue.jsonOrder.map(\.jsonKey) == ["_id", "index", "guid", "isActive", "balance", "picture", "age", "eyeColor",
                                                          "name", "company", "email", "phone", "address", "favoriteFruit"])
    }

    @Test("the JSON reader's fast path and its key lookup agree on every key")
    func jsonKeysRead() {
        for value in RecordValue.jsonOrder {
            let key = Array(value.jsonKey.utf8)
            let read = key.withUnsafeBufferPointer { PersonKey(bytes: $0) }
            #expect(read == PersonKey(value), "\(value.jsonKey)")
        }
        for unknown in ["", "nam", "Name", "_ID", "favoriteFruits", "tags", "first"] {
            #expect(Array(unknown.utf8).withUnsafeBufferPointer { PersonKey(bytes: $0) } == nil, "\(unknown)")
        }
    }

    @Test("CSV: the header written, and every column of it read back as itself")
    func csvRoundTrip() {
        #expect(DirectoryExporter.csvHeader == ["first_name", "last_name", "company", "email", "phone", "address", "balance", "balance_text",
                                                "age", "active", "id", "index", "guid", "picture", "eye_color", "favorite_fruit"])
        let read = CSVColumn.order.map { PersonColumn(header: $0.header) }
        let expected: [PersonColumn?] = CSVColumn.order.map { column in
            switch column {
            case .text(.balance): return .balanceText
            case .text(let field): return .text(field)
            case .balanceAmount: return .balanceNumber
            case .age: return .age
            case .active: return .active
            case .index: return .index
            }
        }
        #expect(read == expected)
        // The JSON spellings name the same columns in a CSV header.
        #expect(PersonColumn(header: "favoriteFruit") == .text(.favoriteFruit))
        #expect(PersonColumn(header: "_id") == .text(.id))
        #expect(PersonColumn(header: "name.first") == .text(.firstName))
        #expect(PersonColumn(header: "Eye Color") == .text(.eyeColor))
    }

    @Test("every text field has one JSON key, one CSV column and one label, none shared")
    func namesAreUnique() {
        for names in [TextField.allCases.map(\.jsonKey), TextField.allCases.map(\.csvHeader), TextField.allCases.map(\.label)] {
            #expect(Set(names).count == TextField.allCases.count, "\(names)")
        }
        #expect(Set(CSVColumn.order.map(\.header)).count == CSVColumn.order.count)
        let written = Set(CSVColumn.order.compactMap { if case .text(let field) = $0 { field } else { nil } })
        #expect(written == Set(TextField.allCases), "every text field is a CSV column")
    }

    @Test("the counts name each field as the query language does, and search its text in the scope of the same name")
    func summaryFieldNames() {
        #expect(SummaryField.countedByRepositories.map(\.queryName) == ["company", "city", "state", "eye", "fruit", "active", "age", "balance"])
        #expect(SummaryField.countedByRepositories.map(\.textScope) == [nil, .city, .state, .text(.eyeColor), .text(.favoriteFruit), nil, nil, nil])
        #expect(SummaryField.countedByRepositories.map(\.recordField) == [nil, nil, nil, .eyeColor, .favoriteFruit, nil, nil, nil])
    }

    @Test("the person's screen shows every text field, with the table's label")
    @MainActor func detailShowsEveryField() {
        let labels = DetailPresenter.fields(of: Person(firstName: "Ada", lastName: "Lovelace")).map(\.label)
        for field in TextField.allCases { #expect(labels.contains(field.label), "\(field)") }
        #expect(labels.first == "First name" && labels.last == "ID")
    }
}
