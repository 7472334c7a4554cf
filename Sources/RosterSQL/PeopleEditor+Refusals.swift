import RosterCore

/// What an edit the database refused says, in the words the screens and
/// the command line use.
extension PeopleEditor {
    /// The refusal for `error`: someone else's lock (busy: the same save may
    /// land in a moment, and the form tries it again), a lost connection,
    /// else the database's own reason, with nothing changed.
    func editFailure(for error: DatabaseError) -> EditFailure {
        if isWaitingOnOthers(error) { return EditFailure(.busy, busyReason) }
        // In words: the library's text (a FATAL, its CONTEXT) stays one key away, in the `?` help.
        if [.connectionLost, .cannotConnect].contains(error.kind) { return EditFailure(.failed, ConnectionTrouble.words(for: error)) }
        return EditFailure(.failed, "\(table.name): \(error.message); nothing changed")
    }

    /// Whether the edit gave up waiting on someone else's lock: SQLite's
    /// busy timeout, PostgreSQL's statement timeout or lock timeout (a
    /// timeout of the connection's own is a cancel, 57014 as well).
    private func isWaitingOnOthers(_ error: DatabaseError) -> Bool {
        error.isWaitingOnOthers || (table.dialect == .postgres && (error.kind == .cancelled || error.code == "55P03"))
    }

    /// Why an edit waits on someone else, in words (the screens' for a lock).
    private var busyReason: String {
        table.dialect == .postgres ? "table \(table.name) is locked, or the server busy" : "another program is writing to it"
    }
}
