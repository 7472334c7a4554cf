import RosterCore
import RosterSQL

/// Opening a database to browse: the one place that turns a target and a
/// table into a repository, or into the one line that says why not.
///
/// Called before the screen starts, so that a failure is a plain line on
/// standard error and the terminal is never touched. The password prompt
/// (`PasswordPrompt`) and the check of the table's shape happen here; an
/// unreachable server leaves the offline copy (`OfflineFallback`).
enum DatabaseSource {
    /// The table browsed when no `--table` is given.
    static let defaultTable = "people"

    /// The repository over `table` of `target`, or the message to print.
    /// `prompt` asks for a password if the server wants one (nil: never).
    static func open(_ target: DatabaseTarget, table: String?, prompt: PasswordPrompt? = nil) -> Result<SQLPeopleRepository, OpenFailure> {
        let table = table ?? defaultTable
        do throws(DatabaseError) {
            switch target {
            case .postgres(let conninfo):
                var ask: ((String) throws(DatabaseError) -> String)?
                if let prompt { ask = { text throws(DatabaseError) in try prompt.ask(text) } }
                return .success(try SQLPeopleRepository.open(postgres: conninfo, table: table, askPassword: ask))
            case .sqlite(let path): return .success(try SQLPeopleRepository.open(sqlite: path, table: table))
            }
        } catch {
            return .failure(OpenFailure(target: target.displayName, table: table, error: error))
        }
    }

    /// Why `target` cannot even be read (a malformed URI or connection
    /// string): a usage error, said without quoting it; nil when it can.
    static func malformation(of target: DatabaseTarget) -> String? {
        guard case .postgres(let conninfo) = target else { return nil }
        return PostgresConnection.malformation(of: conninfo)
    }

    /// Where the remembered place is kept: the target without password,
    /// and the table when it is not the default one.
    static func placeKey(_ target: DatabaseTarget, table: String?) -> String {
        let name = target.displayName
        guard let table, table != defaultTable else { return name }
        return name + " (table " + table + ")"
    }

    /// Why a database could not be opened, as one line naming the target.
    struct OpenFailure: Error, Equatable {
        let target: String
        let table: String
        let error: DatabaseError

        /// The message without the target it starts with (for a line that names it already).
        var reason: String {
            let line = message
            return line.hasPrefix(target + ": ") ? String(line.dropFirst(target.count + 2)) : line
        }

        var message: String {
            // SQLite's messages start with the path: the target is said once.
            // The shape check's lines name the target, the table and what to run.
            if error.code == PeopleTable.shapeCode { return DisplayText.sanitized(error.message) }
            var reason = DisplayText.sanitized(error.message)
            if reason.hasPrefix(target + ": ") { reason.removeFirst(target.count + 2) }
            switch error.kind {
            case .missingTable:
                return "\(target): no table \(table) to browse (fill one with 'roster import FILE --into \(target)'): \(reason)"
            case .authentication:
                return "\(target): the server refused the user or password: \(reason)"
            case .passwordRequired:
                return "\(target): \(reason)"
            case .unknownDatabase:
                return "\(target): no such database: \(reason)"
            case .cannotConnect, .connectionLost:
                return "\(target): cannot open: \(reason)"
            case .invalidTarget:
                return reason
            case .cancelled, .timedOut, .failed, .staleSummary:
                return "\(target): cannot browse table \(table): \(reason)"
            }
        }
    }
}

/// The list's interactor for a repository opened before the screen
/// started (a database): loading is already done.
struct OpenedRepositoryInteractor: ListInteractorInput {
    let repository: any PeopleRepository

    func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError> {
        .success(repository)
    }
}
