import RosterCore
import RosterStore

/// The screens' edits of a table: through the browse lane's connection
/// (PostgreSQL: the lane serializes it with reads, and its timeout and
/// cancelling hold), or the repository's writing connection (SQLite: the
/// browse connections are read-only; `SQLiteWriter`).
extension SQLPeopleRepository: PeopleEditing {
    public func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
        try apply([.update(id: recordID, changes: changes)], base: base)
    }

    public func add(recordID: String, changes: [FieldChange]) throws(EditFailure) {
        try apply([.add(id: recordID, changes: changes)])
    }

    public func delete(_ people: [Person]) throws(EditFailure) {
        let receipt = try apply([.delete(ids: people.map(\.id))], deleting: people)
        removedPlaces.withLock { $0 = receipt.removed }
    }

    /// Each as the last delete here found them, where they were: their
    /// position and `index` again, every value Roster knows, in one
    /// transaction (all come back, or none). One the last delete did not
    /// take out is added after everyone.
    public func restore(_ people: [Person]) throws(EditFailure) {
        let places = removedPlaces.withLock { $0 }
        try apply(people.map { RecordOperation.add(id: $0.id, changes: $0.allValues) }, places: places)
    }

    /// An edit made offline, sent now under its `operationID`, checked as
    /// it was made (against `base`, the person then shown; `deleting`, the
    /// people then shown): true when applied now, false when the table had
    /// applied it already (sent before, its reply lost).
    ///
    /// The screens' saves to a server come this way too, each under an id
    /// of its own: one whose connection broke before its reply came is
    /// kept in the outbox under the same id, and recognised if it had
    /// landed after all. A delete is remembered for `restore` as `delete`'s is.
    public func send(_ operation: RecordOperation, operationID: String, base: Person? = nil,
                     deleting: [Person] = []) throws(EditFailure) -> Bool {
        let receipt = try apply([operation], base: base, deleting: deleting, operationID: operationID)
        if case .delete = operation, !receipt.wasAppliedBefore { removedPlaces.withLock { $0 = receipt.removed } }
        return !receipt.wasAppliedBefore
    }

    /// A writer of its own for edits sent from an outbox: on PostgreSQL a
    /// second connection beside the browse lane (the same server, user and
    /// password), so that a long sending never holds up the screen's reads.
    public func outboxWriter() -> OutboxWriter {
        OutboxWriter(repository: self, connection: secondConnectionParameters().flatMap { try? PostgresConnection(duplicating: $0) })
    }

    /// PostgreSQL: what a connection beside the browse lane needs. Only
    /// these are read under the lane (no statement): a server that stops
    /// answering while the second connection is made holds up whoever
    /// makes it, never the screen's reads. Nil for SQLite.
    func secondConnectionParameters() -> PostgresConnection.Parameters? {
        guard table.dialect == .postgres else { return nil }
        return (try? browse.sync { session throws(DatabaseError) in try (session as? PostgresConnection)?.parameters() }) ?? nil
    }

    @discardableResult
    private func apply(_ operations: [RecordOperation], base: Person? = nil, deleting: [Person] = [],
                       places: [String: PeopleEditor.Place] = [:], operationID: String? = nil) throws(EditFailure) -> PeopleEditor.Receipt {
        let editor = PeopleEditor(table: table)
        switch table.dialect {
        case .postgres:
            var outcome: Result<PeopleEditor.Receipt, EditFailure> = .failure(EditFailure(.failed, "no connection to write with"))
            do throws(DatabaseError) {
                try browse.sync { session throws(DatabaseError) in
                    guard let connection = session as? PostgresConnection else { throw DatabaseError(.failed, "no connection to write with") }
                    do throws(EditFailure) {
                        outcome = .success(try editor.apply(operations, ifVersion: nil, base: base, deleting: deleting,
                                                            places: places, operationID: operationID, connection))
                    } catch {
                        outcome = .failure(error)
                    }
                }
            } catch {
                // The lane was down already (or went down): the title and the watcher hear of it as of a read.
                report(error)
                throw EditFailure(.failed, ConnectionTrouble.words(for: error))
            }
            // The editor says a failed statement in words of its own: one that
            // failed because the server went away is found so, as a read's is.
            if case .failure(let failure) = outcome, failure.kind == .failed { _ = checkConnection() }
            return try outcome.get()
        case .sqlite:
            guard let writer else { throw EditFailure(.failed, "no connection to write with") }
            do throws(EditFailure) {
                return try writer.write { connection throws(EditFailure) in
                    try editor.apply(operations, ifVersion: nil, base: base, deleting: deleting, places: places,
                                     operationID: operationID, connection)
                }
            } catch where error.kind == .busy {
                // The form says why it waits: by the file's name.
                throw EditFailure(.busy, "another program is writing to \(writer.path.split(separator: "/").last.map(String.init) ?? writer.path)")
            }
        }
    }

    /// Whether anyone (this process included) has saved to the table since
    /// it was read: its change log has moved on. False when that cannot be told.
    public var hasChangedSinceRead: Bool {
        guard let since = changeLogPosition else { return false }
        let changes = try? browse.sync { session throws(DatabaseError) in try ChangeLog.changes(of: table, after: since, session) }
        return changes.map { !$0.entries.isEmpty } ?? false
    }

    /// The same table read again (its summary, so new companies and counts
    /// show) over the same lanes: what a screen shows after a save.
    /// A re-read that fails is reported as any read is: one that found the
    /// connection gone marks it lost (the title says so, the watcher reconnects).
    /// An SQLite file replaced since is opened again first.
    public func reread() throws(DatabaseError) -> SQLPeopleRepository {
        do throws(DatabaseError) {
            // An SQLite file another program replaced is read anew, not the one held open.
            if table.dialect == .sqlite {
                for lane in [browse, searching] { try lane.reconnect(statementTimeout: Self.statementTimeout) }
            }
            return try SQLPeopleRepository(table: table, target: target, lanes: (browse, searching), removedPlaces: removedPlaces, writer: writer,
                                           lastSeen: lastSeen)
        } catch {
            report(error)
            throw error
        }
    }
}

/// Sends edits from an outbox to a table, each under its operation id
/// (`SQLPeopleRepository.send`), over a connection of its own where it has
/// one. Used from one thread at a time (the sending's).
public final class OutboxWriter: @unchecked Sendable {
    private let repository: SQLPeopleRepository
    private let connection: PostgresConnection?

    init(repository: SQLPeopleRepository, connection: PostgresConnection?) {
        self.repository = repository
        self.connection = connection
    }

    /// True when applied now, false when the table had applied it already.
    public func send(_ operation: RecordOperation, operationID: String, base: Person?, deleting: [Person]) throws(EditFailure) -> Bool {
        guard let connection else { return try repository.send(operation, operationID: operationID, base: base, deleting: deleting) }
        return try !PeopleEditor(table: repository.table).apply(operation, ifVersion: nil, base: base, deleting: deleting,
                                                               operationID: operationID, on: connection).wasAppliedBefore
    }
}
