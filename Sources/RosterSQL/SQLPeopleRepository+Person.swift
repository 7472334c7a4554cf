import RosterCore

/// A whole person as the tables hold one: the columns read, in order, and
/// the `Person` made of a row.
extension SQLPeopleRepository {
    /// The columns of a whole person, in `person(from:at:)`'s order.
    static let personColumns = """
    id, record_index, guid, is_active, balance, balance_cents, picture, age, eye_color, first_name, last_name, company, \
    email, phone, address, favorite_fruit, present_fields
    """
    static let personColumnCount = 17

    /// A whole person from `row`'s columns from `start` on.
    static func person(from row: SQLRow, at start: Int) -> Person {
        func text(_ offset: Int) -> String { row.text(start + offset) ?? "" }
        return Person(id: text(0), index: row.int(start + 1).map { Int($0) }, guid: text(2), isActive: row.bool(start + 3),
                      balance: Balance(text: text(4), cents: row.int(start + 5)), picture: text(6),
                      age: row.int(start + 7).map { Int($0) }, eyeColor: text(8), firstName: text(9), lastName: text(10),
                      company: text(11), email: text(12), phone: text(13), address: text(14), favoriteFruit: text(15),
                      presentTextFields: UInt16(truncatingIfNeeded: row.int(start + 16) ?? 0))
    }
}

extension PeopleTable.Dialect {
    /// The column that numbers people for the app (`PersonID`).
    var rowID: String { self == .postgres ? "row_id" : "rowid" }
}
