import Foundation
import RosterCore

/// A person's manager changed in a people table (`roster update … manager=`):
/// in one transaction, the new manager checked against everyone as the
/// table holds them (`ManagerChange`: a reference nobody is, a name several
/// people have, the person themselves, or someone under them is refused
/// with its reason, nothing written), then the row's `manager` set, its
/// version moved on and the change logged, so that other Rosters' charts
/// and lists hear of it as of any edit.
extension PeopleEditor {
    /// What a manager change did: the row's new version and the reference
    /// before and after (nil: none).
    public struct ManagerReceipt: Equatable, Sendable {
        public let version: Int64
        public let name: String
        public let before: String?
        public let after: String?
    }

    public func setManager(of id: String, to reference: String, ifVersion: Int64?,
                           on connection: PostgresConnection) throws(EditFailure) -> ManagerReceipt {
        try setManager(of: id, to: reference, ifVersion: ifVersion, connection)
    }

    public func setManager(of id: String, to reference: String, ifVersion: Int64?,
                           on connection: SQLiteConnection) throws(EditFailure) -> ManagerReceipt {
        try setManager(of: id, to: reference, ifVersion: ifVersion, connection)
    }

    private func setManager(of id: String, to reference: String, ifVersion: Int64?,
                            _ connection: some EditingConnection) throws(EditFailure) -> ManagerReceipt {
        var refusal: EditFailure?
        do throws(DatabaseError) {
            _ = try addVersionColumn(connection)
            _ = try table.addManagerColumn(connection)
            try ChangeLog.make(for: table, connection)
            return try connection.transaction { () throws(DatabaseError) -> ManagerReceipt in
                try lockEdits(connection)
                switch try changeManager(of: id, to: reference, ifVersion: ifVersion, connection) {
                case .success(let receipt): return receipt
                case .failure(let failure):
                    refusal = failure
                    throw DatabaseError(.failed, failure.message)
                }
            }
        } catch {
            throw refusal ?? editFailure(for: error)
        }
    }

    /// The change inside the edit's transaction, or why it is refused.
    private func changeManager(of id: String, to reference: String, ifVersion: Int64?,
                               _ connection: some EditingConnection) throws(DatabaseError) -> Result<ManagerReceipt, EditFailure> {
        let marks = table.dialect == .postgres ? ("$1", "$2") : ("?1", "?2")
        let lock = table.dialect == .postgres ? " FOR UPDATE" : ""
        guard let row = try connection.rows("""
            SELECT version, \(PeopleTable.managerColumnName), \(table.dialect.rowID) FROM \(table.table) WHERE person_key = \(marks.0)\(lock)
            """, [.text(id)]).first else {
            return .failure(EditFailure(.notFound, "\(table.name): no one has the _id \(DisplayText.sanitized(id))"))
        }
        let version = row.int(0) ?? 0
        if let ifVersion, ifVersion != version {
            return .failure(EditFailure(.conflict, "\(table.name): \(DisplayText.sanitized(id)) is at version \(version), not \(ifVersion); nothing changed"))
        }
        let everyone = try SQLManagerReferences.read(table) { sql, parameters, body throws(DatabaseError) in
            for row in try connection.rows(sql, parameters) { row.withColumnText(body) }
        }
        guard let person = everyone.person(withID: Int(row.int(2) ?? -1)) else {
            return .failure(EditFailure(.notFound, "\(table.name): no one has the _id \(DisplayText.sanitized(id))"))
        }
        let name = DisplayText.sanitized(everyone.name(of: person))
        if case .refused(let problem) = ManagerChange.check(person, to: reference, among: everyone) {
            let message = ManagerChange.message(problem, person: person) { DisplayText.sanitized(everyone.name(of: $0)) }
            return .failure(EditFailure(.invalid, "\(message); nothing changed"))
        }
        let before = row.text(1)
        let after = ManagerChange.kept(reference)
        guard before != after else { return .success(ManagerReceipt(version: version, name: name, before: before, after: after)) }
        _ = try connection.rows("""
            UPDATE \(table.table) SET \(PeopleTable.managerColumnName) = \(marks.0), version = version + 1 WHERE person_key = \(marks.1)
            """, [.text(after), .text(id)])
        try ChangeLog.record(.update(id: id, changes: []), version: version + 1, in: table, connection)
        if table.dialect == .postgres {
            _ = try connection.rows("SELECT pg_notify($1, $2)", [.text(ChangeLog.channel), .text(ChangeLog.payload(table: table.name))])
        }
        return .success(ManagerReceipt(version: version + 1, name: name, before: before, after: after))
    }
}
