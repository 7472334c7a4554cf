import RosterCore
import RosterStore

/// A connection an edit runs on: statements with bound parameters, in a
/// transaction.
protocol EditingConnection {
    func rows(_ sql: String, _ parameters: [SQLValue]) throws(DatabaseError) -> [SQLRow]
    func transaction<Result>(_ body: () throws(DatabaseError) -> Result) throws(DatabaseError) -> Result
}

extension PostgresConnection: EditingConnection {}
extension SQLiteConnection: EditingConnection {}

/// Edits of a people table `roster import` made, one transaction each: the
/// row, its folded keys and search text, and its companies' summary rows
/// change together, so that counts, totals, order and search stay exact.
/// Every row carries a `version`; an edit names the version it was based
/// on, and a row no longer at it is a conflict, never overwritten.
public struct PeopleEditor: Sendable {
    public let table: PeopleTable

    public init(table: PeopleTable) {
        self.table = table
    }

    /// What an edit did.
    public struct Receipt: Equatable, Sendable {
        /// The row's version after the edit (nil: deleted).
        public let version: Int64?
        /// Whether the table had no version column and got one first.
        public let addedVersions: Bool
        /// Sent with an operation id the table had applied already: nothing was done again.
        public var wasAppliedBefore = false
        /// Where each person a delete took out was, by `_id`.
        public var removed: [String: Place] = [:]
        /// The people an update or a delete changed, as the table held them
        /// just before (what `roster update` says it changed). An update
        /// that changes none of their values is not written: the row keeps
        /// its version, and no change is logged.
        public var before: [Person] = []
    }

    /// What an attempt learnt on its way, for its receipt.
    struct Notes {
        var removed: [String: Place] = [:]
        var before: [Person] = []
        /// How many updates changed nothing (and wrote nothing).
        var unchanged = 0
    }

    /// Where a person was in the table: the row's position (the order of
    /// the file it came from, which breaks ties in every order) and the
    /// record's `index`. An undone delete puts the person back there.
    public struct Place: Equatable, Sendable {
        public let position: Int
        public let index: Int?
    }

    /// `base`, for an update from a screen: the person as first shown; a
    /// field someone changed since that this edit changes too is a
    /// conflict (their other changes stay).
    /// `deleting`, for a delete from a screen: the people as shown; one
    /// changed since is a conflict, and nobody is deleted.
    /// `operationID`, for an edit made offline and sent now: claimed in
    /// the edit's transaction (`AppliedOperations`); one claimed before is
    /// not applied again (`Receipt.wasAppliedBefore`).
    public func apply(_ operation: RecordOperation, ifVersion: Int64?, base: Person? = nil, deleting: [Person] = [],
                      operationID: String? = nil, on connection: PostgresConnection) throws(EditFailure) -> Receipt {
        try apply([operation], ifVersion: ifVersion, base: base, deleting: deleting, operationID: operationID, connection)
    }

    public func apply(_ operation: RecordOperation, ifVersion: Int64?, base: Person? = nil, deleting: [Person] = [],
                      operationID: String? = nil, on connection: SQLiteConnection) throws(EditFailure) -> Receipt {
        try apply([operation], ifVersion: ifVersion, base: base, deleting: deleting, operationID: operationID, connection)
    }

    /// `operations` in one transaction: all of them, or none (the first
    /// refused rolls back the others). An `.add` of an `_id` in `places`
    /// goes back where that person was (an undone delete).
    ///
    /// PostgreSQL: edits of one table take turns (`lockEdits`), so that
    /// two at once never count a company from rows the other is changing,
    /// nor give two people one position; a save that still ran into
    /// another writer (a Roster from before the lock) is made again.
    func apply(_ operations: [RecordOperation], ifVersion: Int64?, base: Person? = nil, deleting: [Person] = [],
               places: [String: Place] = [:], operationID: String? = nil,
               _ connection: some EditingConnection) throws(EditFailure) -> Receipt {
        let edit = Edit(operations: operations, ifVersion: ifVersion, base: base, deleting: deleting, places: places, operationID: operationID)
        var attempt = 1
        while true {
            switch attemptOnce(edit, connection) {
            case .success(let receipt): return receipt
            case .failure(.refused(let failure)): throw failure
            case .failure(.raced) where attempt < Self.attempts: attempt += 1
            case .failure(.raced):
                throw EditFailure(.failed, "table \(table.name): others saved at the same moment, \(attempt) times running; nothing changed, try again")
            }
        }
    }

    /// One edit's operations and what they were based on.
    struct Edit {
        let operations: [RecordOperation]
        let ifVersion: Int64?
        let base: Person?
        let deleting: [Person]
        let places: [String: Place]
        let operationID: String?
    }

    /// Why an attempt wrote nothing: refused (said to the user), or it ran
    /// into another writer's save of the same moment (made again).
    enum AttemptFailure: Error {
        case refused(EditFailure)
        case raced
    }

    /// How many times a save that ran into another writer is made.
    static let attempts = 5

    /// SQLSTATEs of a transaction that ran into another's: a serialization
    /// failure, a deadlock, a key another save took meanwhile.
    static let racedStates: Set<String> = ["40001", "40P01", "23505"]

    private func attemptOnce(_ edit: Edit, _ connection: some EditingConnection) -> Result<Receipt, AttemptFailure> {
        var refusal: EditFailure?
        var wasAppliedBefore = false
        var notes = Notes()
        do throws(DatabaseError) {
            let added = try addVersionColumn(connection)
            _ = try table.addManagerColumn(connection)
            try ChangeLog.make(for: table, connection)
            if edit.operationID != nil { try AppliedOperations.make(for: table, connection) }
            let version = try connection.transaction { () throws(DatabaseError) -> Int64? in
                try lockEdits(connection)
                if let operationID = edit.operationID, try !AppliedOperations.claim(operationID, in: table, connection) {
                    wasAppliedBefore = true
                    return nil
                }
                var version: Int64?
                var changed = false
                for operation in edit.operations {
                    let unchanged = notes.unchanged
                    switch try perform(operation, edit, notes: &notes, connection) {
                    case .success(let done):
                        if notes.unchanged == unchanged {
                            try ChangeLog.record(operation, version: done, in: table, connection)
                            changed = true
                        }
                        version = done
                    case .failure(let failure):
                        // A refusal writes nothing: thrown, the transaction rolls back.
                        refusal = failure
                        throw DatabaseError(.failed, failure.message)
                    }
                }
                // Other Rosters listening on the database hear of it at commit (`PostgresChangeListener`).
                if changed, table.dialect == .postgres {
                    _ = try connection.rows("SELECT pg_notify(\(parameter(1)), \(parameter(2)))",
                                            [.text(ChangeLog.channel), .text(ChangeLog.payload(table: table.name))])
                }
                return version
            }
            return .success(Receipt(version: version, addedVersions: added, wasAppliedBefore: wasAppliedBefore, removed: notes.removed,
                                    before: notes.before))
        } catch {
            if let refusal { return .failure(.refused(refusal)) }
            if let state = error.code, table.dialect == .postgres, Self.racedStates.contains(state) { return .failure(.raced) }
            return .failure(.refused(editFailure(for: error)))
        }
    }

    private func perform(_ operation: RecordOperation, _ edit: Edit, notes: inout Notes,
                         _ connection: some EditingConnection) throws(DatabaseError) -> Result<Int64?, EditFailure> {
        switch operation {
        case .update(let id, let changes): return try update(id, changes, ifVersion: edit.ifVersion, base: edit.base, notes: &notes, connection)
        case .add(let id, let changes): return try add(id, changes, at: edit.places[id], connection)
        case .delete(let ids): return try delete(ids, ifVersion: edit.ifVersion, shown: edit.deleting, notes: &notes, connection)
        case .restore:
            // A file's records put back as their text; a table's people come back as adds at their places.
            return .failure(EditFailure(.failed, "\(table.name): a file's records cannot be put back in a table"))
        case .setManager:
            // A table's manager is set in a transaction of its own, checked against everyone (`setManager`).
            return .failure(EditFailure(.failed, "\(table.name): a manager is set on its own, not with other edits"))
        }
    }

    /// PostgreSQL: waits for any other edit of this table to commit, then
    /// holds the table's edits until this one does (an advisory lock of the
    /// transaction's, one per table name). Reads are never held up. SQLite
    /// needs none: its transaction (`BEGIN IMMEDIATE`) takes the file's.
    func lockEdits(_ connection: some EditingConnection) throws(DatabaseError) {
        guard table.dialect == .postgres else { return }
        _ = try connection.rows("SELECT pg_advisory_xact_lock(\(Self.editLockClass), hashtext($1))", [.text(table.name)])
    }

    /// The advisory locks of tables' edits: "Rost" in ASCII, as the first
    /// of two keys (imports lock one key of their own, which never meets these).
    static let editLockClass: Int32 = 0x526F_7374

    // MARK: Versions

    /// Adds the `version` column a table from before edits lacks (every
    /// row at 0); true if it did.
    func addVersionColumn(_ connection: some EditingConnection) throws(DatabaseError) -> Bool {
        switch table.dialect {
        case .postgres:
            let has = try connection.rows("SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'version' AND NOT attisdropped",
                                          [.text(table.table)])
            guard has.first?.int(0) == 0 else { return false }
            _ = try connection.rows("ALTER TABLE \(table.table) ADD COLUMN IF NOT EXISTS \(PeopleTable.versionColumn.postgres)", [])
        case .sqlite:
            let has = try connection.rows("SELECT count(*) FROM pragma_table_info(?1) WHERE name = 'version'", [.text(table.name)])
            guard has.first?.int(0) == 0 else { return false }
            _ = try connection.rows("ALTER TABLE \(table.table) ADD COLUMN \(PeopleTable.versionColumn.sqlite)", [])
        }
        return true
    }

    // MARK: Operations

    /// The `n`th bound parameter in the table's dialect.
    private func parameter(_ number: Int) -> String { table.dialect == .postgres ? "$\(number)" : "?\(number)" }

    /// The row of `id`, locked for the transaction where the server can:
    /// its position, company key, version, then the whole person.
    private func current(_ id: String, _ connection: some EditingConnection) throws(DatabaseError) -> (position: Int, companyKey: [UInt8], version: Int64, person: Person)? {
        let lock = table.dialect == .postgres ? " FOR UPDATE" : ""
        let rows = try connection.rows("""
            SELECT position, company_key, version, \(SQLPeopleRepository.personColumns) FROM \(table.table) \
            WHERE person_key = \(parameter(1))\(lock)
            """, [.text(id)])
        guard let row = rows.first else { return nil }
        return (Int(row.int(0) ?? 0), row.bytes(1) ?? [], row.int(2) ?? 0, SQLPeopleRepository.person(from: row, at: 3))
    }

    /// Whose the row of `id` is, as far as the table says: its version and,
    /// from the change log, when it was last saved (not by whom: another
    /// Roster and `roster update` look alike there).
    private func lastSaved(_ id: String, version: Int64, _ connection: some EditingConnection) -> String {
        let time = table.dialect == .postgres ? "to_char(at, 'YYYY-MM-DD HH24:MI:SS')" : "datetime(at, 'localtime')"
        let when = (try? connection.rows("SELECT \(time) FROM \(table.changeLog) WHERE person_key = \(parameter(1)) ORDER BY seq DESC LIMIT 1",
                                         [.text(id)]))?.first?.text(0)
        return "table \(table.name) at version \(version)" + (when.map { ", saved \($0) by another program or Roster" } ?? "")
    }

    private func update(_ id: String, _ changes: [FieldChange], ifVersion: Int64?, base: Person?, notes: inout Notes,
                        _ connection: some EditingConnection) throws(DatabaseError) -> Result<Int64?, EditFailure> {
        guard let row = try current(id, connection) else { return .failure(missing(id, wasSeen: ifVersion != nil || base != nil)) }
        if let ifVersion, row.version != ifVersion { return .failure(conflict(id, expected: ifVersion, actual: row.version)) }
        if let base {
            let changed = row.person.conflicts(with: changes, base: base)
            if !changed.isEmpty {
                let fields = changed.map { "\($0.name) to '\(row.person.value(of: $0))'" }.joined(separator: ", ")
                return .failure(EditFailure(.conflict, "changed meanwhile: \(fields)", theirs: row.person,
                                            theirsNote: lastSaved(id, version: row.version, connection)))
            }
        }
        notes.before.append(row.person)
        guard !row.person.effective(changes).isEmpty else {
            notes.unchanged += 1
            return .success(row.version)
        }
        let edited = row.person.applying(changes)
        if let nameless = nameless(edited) { return .failure(nameless) }
        let values = try rowValues(edited, position: row.position, key: id)
        let columns = PeopleTable.columns.dropFirst()
        let assignments = columns.enumerated().map { "\($0.element.name) = \(parameter($0.offset + 1))" }.joined(separator: ", ")
        let updated = try connection.rows("""
            UPDATE \(table.table) SET \(assignments), version = version + 1 \
            WHERE person_key = \(parameter(columns.count + 1)) AND version = \(parameter(columns.count + 2)) RETURNING version
            """, Array(values.dropFirst()) + [.text(id), .int(row.version)])
        // The row was locked (PostgreSQL) or the database was (SQLite): no
        // one can have moved it on since; zero rows would still be a conflict.
        guard let version = updated.first?.int(0) else { return .failure(conflict(id, expected: row.version, actual: nil)) }
        try refreshSummary([row.companyKey, companyKey(of: values)], connection)
        return .success(version)
    }

    /// A new row of `id`, after everyone; or at `place`, where a deleted
    /// person was (no one else takes a position: an add takes the next).
    private func add(_ id: String, _ changes: [FieldChange], at place: Place?,
                     _ connection: some EditingConnection) throws(DatabaseError) -> Result<Int64?, EditFailure> {
        // Refused as a conflict with what is there (an edit sent from the outbox is then said and let go, not retried).
        if try current(id, connection) != nil { return .failure(EditFailure(.conflict, "table \(table.name): a person already has _id \(id)")) }
        let position: Int, index: Int?
        if let place {
            (position, index) = (place.position, place.index)
        } else {
            let next = try connection.rows("SELECT coalesce(max(position), -1) + 1, coalesce(max(record_index), -1) + 1 FROM \(table.table)", [])
            // The next `index` after the highest, never the count: after a delete the count is someone's.
            (position, index) = (Int(next.first?.int(0) ?? 0), Int(max(next.first?.int(1) ?? 0, 0)))
        }
        var person = Person(index: index, isActive: nil, balanceCents: nil, age: nil, presentTextFields: TextField.bit(.id)) { _ in "" }
        person.id = id
        let added = person.applying(changes)
        if let nameless = nameless(added) { return .failure(nameless) }
        let values = try rowValues(added, position: position, key: id)
        let placeholders = (1...values.count).map(parameter).joined(separator: ", ")
        _ = try connection.rows("INSERT INTO \(table.table) (\(table.columnList), version) VALUES (\(placeholders), 1)", values)
        try refreshSummary([companyKey(of: values)], connection)
        return .success(1)
    }

    /// Deletes the rows of `ids`, saying in `removed` where each was.
    private func delete(_ ids: [String], ifVersion: Int64?, shown: [Person], notes: inout Notes,
                        _ connection: some EditingConnection) throws(DatabaseError) -> Result<Int64?, EditFailure> {
        var companies: [[UInt8]] = []
        for id in ids {
            guard let row = try current(id, connection) else { return .failure(missing(id, wasSeen: ifVersion != nil || !shown.isEmpty)) }
            if let ifVersion, row.version != ifVersion { return .failure(conflict(id, expected: ifVersion, actual: row.version)) }
            if let seen = shown.first(where: { $0.id == id }), seen.differs(from: row.person) {
                return .failure(EditFailure(.conflict, "someone else changed \(seen.fullName) meanwhile"))
            }
            _ = try connection.rows("DELETE FROM \(table.table) WHERE person_key = \(parameter(1)) AND version = \(parameter(2))",
                                    [.text(id), .int(row.version)])
            companies.append(row.companyKey)
            notes.removed[id] = Place(position: row.position, index: row.person.index)
            notes.before.append(row.person)
        }
        try refreshSummary(companies, connection)
        return .success(nil)
    }

    // MARK: Rows and the summary

    /// The table's values for `person`, keys folded exactly as an import
    /// folds them: through a store of one, loaded from the person's record.
    private func rowValues(_ person: Person, position: Int, key: String) throws(DatabaseError) -> [SQLValue] {
        let record = DirectoryExporter(format: .json).export([person])
        guard let store = try? PeopleLoader(format: .json).load(bytes: record, sourceName: "edit").store, store.count == 1 else {
            throw DatabaseError(.failed, "the edited person could not be made into a row")
        }
        var values = ImportRows.values(for: store[0], at: 0, key: key, store: store)
        if let column = PeopleTable.columns.firstIndex(where: { $0.name == "position" }) { values[column] = .int(Int64(position)) }
        return values
    }

    private func companyKey(of values: [SQLValue]) -> [UInt8] {
        guard let index = PeopleTable.columns.firstIndex(where: { $0.name == "company_key" }), case .bytes(let key) = values[index] else { return [] }
        return key
    }

    /// Counts the companies at `keys` again from their rows: their summary
    /// rows are written afresh (a company left with nobody loses its row).
    private func refreshSummary(_ keys: [[UInt8]], _ connection: some EditingConnection) throws(DatabaseError) {
        var seen = Set<[UInt8]>()
        for key in keys where seen.insert(key).inserted {
            let spelling = try connection.rows("SELECT spelling FROM \(table.summaryTable) WHERE company_key = \(parameter(1))", [.bytes(key)])
                .first?.text(0)
            let totals = try connection.rows(table.totalsQuery(where: "company_key = \(parameter(1))"), [.bytes(key)])
            guard let row = totals.first else {
                _ = try connection.rows("DELETE FROM \(table.summaryTable) WHERE company_key = \(parameter(1))", [.bytes(key)])
                continue
            }
            let name = key == ImportRows.noCompanyKey ? "" : spelling ?? (row.text(1) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard let company = CompanyTotals(totalsRow: row, spelling: name) else {
                throw DatabaseError(.failed, "the company totals could not be read")
            }
            let columns = table.summaryColumns
            let placeholders = (1...columns.count).map(parameter).joined(separator: ", ")
            let updates = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            _ = try connection.rows("""
                INSERT INTO \(table.summaryTable) (\(columns.joined(separator: ", "))) VALUES (\(placeholders)) \
                ON CONFLICT (company_key) DO UPDATE SET \(updates)
                """, company.values)
        }
    }

    // MARK: Refusals

    /// No row has `id`: a conflict when the edit was based on the row as
    /// seen (a version, a screen), else an unknown `_id`.
    private func missing(_ id: String, wasSeen: Bool) -> EditFailure {
        wasSeen
            ? EditFailure(.conflict, "table \(table.name): _id \(id) was deleted by someone else; nothing changed")
            : EditFailure(.notFound, "table \(table.name): no person has _id \(id)")
    }

    /// A person the edit would leave without a name (the rule every
    /// editor checks first): refused, as a file refuses them.
    private func nameless(_ person: Person) -> EditFailure? {
        FieldCheck.nameProblem(of: person).map { EditFailure(.invalid, "table \(table.name): \($0.message); nothing changed") }
    }

    private func conflict(_ id: String, expected: Int64, actual: Int64?) -> EditFailure {
        EditFailure(.conflict, "table \(table.name): _id \(id) is at version \(actual.map(String.init) ?? "?"), not \(expected): "
                          + "someone else changed it; nothing changed")
    }
}
