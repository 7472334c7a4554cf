import RosterCore
import RosterStore
import RosterSQL

/// `roster update TARGET ID manager=…`: in a database, the manager changed
/// in its own transaction, checked first (`PeopleEditor.setManager`), the
/// row's new version printed as any update prints it; in a file, checked
/// and written as any file edit is saved (`FileSave`, `RecordFile.settingManager`).
/// Either says what changed.
enum ManagerEditCommand {
    static func save(_ reference: String, of id: String, toFile path: String, arguments: EditCommand.Arguments) -> ExitStatus {
        var setting: RecordFile.ManagerSetting?
        switch FileSave.save(.setManager(id: id, reference: reference), to: path, format: arguments.format, backup: arguments.backup,
                             managerSet: { setting = $0 }) {
        case .saved:
            if !arguments.quiet, let setting {
                Platform.writeError("roster: " + line(DisplayText.sanitized(path), setting.name, before: setting.before, after: setting.after))
            }
            return .success
        case .refused(let message), .conflict(let message, _):
            Platform.writeError("roster: \(message)")
            return .failure
        }
    }

    /// `people.json: Ada Lovelace: manager (none) → grace@example.org`, or
    /// that it was so already; a table's with the row's new version.
    private static func line(_ source: String, _ name: String, before: String?, after: String?, version: Int64? = nil) -> String {
        let shown = { (reference: String?) in reference.map { DisplayText.sanitized($0) } ?? "(none)" }
        guard before != after else { return "\(source): \(name): manager is \(shown(after)) already; nothing changed" }
        return "\(source): \(name): manager \(shown(before)) → \(shown(after))" + (version.map { " (version \($0))" } ?? "")
    }

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
            Platform.writeError("roster: " + line(name, receipt.name, before: receipt.before, after: receipt.after, version: receipt.version))
        }
        return .success
    }
}
