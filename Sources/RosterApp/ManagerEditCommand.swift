import RosterCore
import RosterSQL

/// `roster update DATABASE ID manager=…`: the manager changed in its own
/// transaction, checked first (`PeopleEditor.setManager`). Prints the row's
/// new version, as any update does, and says what changed.
enum ManagerEditCommand {
    static func save(_ reference: String, of id: String, to target: DatabaseTarget, arguments: EditCommand.Arguments) -> ExitStatus {
        let name = target.displayName
        let receipt: PeopleEditor.ManagerReceipt
        do throws(DatabaseError) {
            switch target {
            case .postgres(let conninfo):
                let connection = try PasswordPrompt.connect(conninfo, prompt: PasswordPrompt.forThisTerminal())
                let table = try PeopleTable(name: arguments.table, dialect: .postgres)
                try table.verify(connection, target: name)
                receipt = try EditCommand.editing(PeopleEditor(table: table).setManager(of: id, to: reference, ifVersion: arguments.ifVersion, on: connection),
                                      target: name)
            case .sqlite(let path):
                guard Platform.fileExists(path) else { throw DatabaseError(.failed, "\(name): no such file") }
                let connection = try SQLiteConnection(path: path, access: .readWrite, busyTimeout: EditCommand.sqlitePatience)
                let table = try PeopleTable(name: arguments.table, dialect: .sqlite)
                try table.verify(connection, target: name)
                receipt = try EditCommand.editing(PeopleEditor(table: table).setManager(of: id, to: reference, ifVersion: arguments.ifVersion, on: connection),
                                      target: name)
            }
        } catch {
            Platform.writeError("roster: " + (error.message.hasPrefix(name) ? error.message : "\(name): \(error.message)"))
            return .failure
        }
        Platform.writeOutput("\(receipt.version)\n")
        if !arguments.quiet {
            let shown = { (reference: String?) in reference.map { DisplayText.sanitized($0) } ?? "(none)" }
            let line = receipt.before == receipt.after
                ? "\(name): \(receipt.name): manager is \(shown(receipt.after)) already; nothing changed"
                : "\(name): \(receipt.name): manager \(shown(receipt.before)) → \(shown(receipt.after)) (version \(receipt.version))"
            Platform.writeError("roster: " + line)
        }
        return .success
    }
}
