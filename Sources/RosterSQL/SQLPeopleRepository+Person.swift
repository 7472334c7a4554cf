import RosterCore

/// A whole person as the tables hold one: the columns read, in order, and
/// the `Person` made of a row.
extension SQLPeopleRepository {
    /// The columns of a whole person, in `person(from:at:)`'s order: its
    /// figures, then every text field in `TextField`'s order.
    static let personColumns = (["record_index", "is_active", "balance_cents", "age", "present_fields"]
        + TextField.allCases.map(PeopleTable.column(of:))).joined(separator: ", ")
    static let personColumnCount = 5 + TextField.allCases.count

    /// The people at `positions` with their row ids, each pair from one
    /// row (an export writing managers): never paired across a change.
    public func identifiedPeople(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [(id: PersonID, person: Person)] {
        try await offCaller { () throws(RepositoryError) in
            let wanted = positions.clamped(to: 0..<arrangement.count)
            guard !wanted.isEmpty else { return [] }
            do {
                let people = try self.windows.identifiedPeople(in: arrangement, handle: self.handle(of: arrangement), positions: wanted,
                                                               repository: self)
                self.statementWorked()
                return people
            } catch {
                throw self.report(error)
            }
        }
    }

    /// A whole person from `row`'s columns from `start` on.
    static func person(from row: SQLRow, at start: Int) -> Person {
        Person(index: row.int(start).map { Int($0) }, isActive: row.bool(start + 1), balanceCents: row.int(start + 2),
               age: row.int(start + 3).map { Int($0) }, presentTextFields: UInt16(truncatingIfNeeded: row.int(start + 4) ?? 0)) {
            row.text(start + 5 + $0.rawValue) ?? ""
        }
    }
}

extension PeopleTable.Dialect {
    /// The column that numbers people for the app (`PersonID`).
    var rowID: String { self == .postgres ? "row_id" : "rowid" }
}
