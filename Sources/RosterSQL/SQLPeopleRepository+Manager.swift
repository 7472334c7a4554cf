import RosterCore

/// A table's managers, for the form: the `manager` column read for the
/// person (none in a table without the column yet), and set as `roster
/// update DB ID manager=…` sets it (`PeopleEditor.setManager`: checked
/// against everyone first, the row's version moved on, the change logged).
extension SQLPeopleRepository: ManagerEditing {
    public var managers: (any ManagerEditing)? { self }

    public func manager(of recordID: String) throws(EditFailure) -> ManagerField {
        let table = table
        do throws(DatabaseError) {
            return try browse.sync { session throws(DatabaseError) -> ManagerField in
                guard try table.hasManagerColumn(session.rows) else { return .reference(nil) }
                let mark = table.dialect == .postgres ? "$1" : "?1"
                let rows = try session.rows("SELECT \(PeopleTable.managerColumnName) FROM \(table.table) WHERE person_key = \(mark)",
                                            [.text(recordID)])
                return .reference(rows.first?.text(0))
            }
        } catch {
            report(error)
            throw EditFailure(.failed, ConnectionTrouble.words(for: error))
        }
    }

    public func setManager(of recordID: String, to reference: String) throws(EditFailure) {
        let editor = PeopleEditor(table: table)
        if table.dialect == .sqlite {
            guard let writer else { throw EditFailure(.failed, "no connection to write with") }
            _ = try writer.write { connection throws(EditFailure) in
                try editor.setManager(of: recordID, to: reference, ifVersion: nil, on: connection)
            }
            return
        }
        var outcome: Result<PeopleEditor.ManagerReceipt, EditFailure> = .failure(EditFailure(.failed, "no connection to write with"))
        do throws(DatabaseError) {
            try browse.sync { session throws(DatabaseError) in
                guard let connection = session as? PostgresConnection else { return }
                outcome = Result { () throws(EditFailure) in try editor.setManager(of: recordID, to: reference, ifVersion: nil, on: connection) }
            }
        } catch {
            report(error)
            throw EditFailure(.failed, ConnectionTrouble.words(for: error))
        }
        _ = try outcome.get()
    }
}
