import Foundation
import RosterCore
import RosterSQL

/// Opening a database to browse: the one place that turns a target and a
/// table into a repository, or into the one line that says why not.
///
/// Connecting is done before the screen starts, so that a failure is a
/// plain line on standard error and the terminal is never touched, and the
/// password prompt (`PasswordPrompt`) has the terminal; an unreachable
/// server leaves the offline copy (`OfflineFallback`). Reading the table
/// (its shape, its company summary), which a lock can hold up, is done
/// behind the loading screen (`DatabaseOpeningInteractor`).
enum DatabaseSource {
    /// The table browsed when no `--table` is given.
    static let defaultTable = "people"

    /// The repository over `table` of `target`, or the message to print.
    static func open(_ target: DatabaseTarget, table: String?) -> Result<SQLPeopleRepository, OpenFailure> {
        connect(target, table: table).flatMap { read($0, target: target, table: table) }
    }

    /// `target` connected to, its `table` not read yet, or the message to
    /// print. `prompt` asks for a password if the server wants one (nil: never).
    static func connect(_ target: DatabaseTarget, table: String?, prompt: PasswordPrompt? = nil)
        -> Result<SQLPeopleRepository.Connected, OpenFailure> {
        let table = table ?? defaultTable
        do throws(DatabaseError) {
            switch target {
            case .postgres(let conninfo):
                var ask: ((String) throws(DatabaseError) -> String)?
                if let prompt { ask = { text throws(DatabaseError) in try prompt.ask(text) } }
                return .success(try SQLPeopleRepository.connect(postgres: conninfo, table: table, askPassword: ask))
            case .sqlite(let path): return .success(try SQLPeopleRepository.connect(sqlite: path, table: table))
            }
        } catch {
            return .failure(OpenFailure(target: target.displayName, table: table, error: error))
        }
    }

    /// The table of `connected` read: the repository, or the message to print.
    static func read(_ connected: SQLPeopleRepository.Connected, target: DatabaseTarget, table: String?)
        -> Result<SQLPeopleRepository, OpenFailure> {
        do throws(DatabaseError) {
            return .success(try connected.read())
        } catch {
            return .failure(OpenFailure(target: target.displayName, table: table ?? defaultTable, error: error))
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
            case .cancelled, .timedOut, .busy, .failed, .staleSummary:
                return "\(target): cannot browse table \(table): \(reason)"
            }
        }
    }
}

/// The list's interactor for a database connected to before the screen
/// started: its table is read here, on a thread of its own, behind the
/// loading screen, which keeps answering keys. A lock another session
/// holds (or a server too busy to answer in time) only keeps the loading
/// screen up, saying so; the read is tried again until it works or the
/// user quits. Any other failure is the error screen's one line.
final class DatabaseOpeningInteractor: DirectoryLoading {
    private let connected: SQLPeopleRepository.Connected
    private let target: DatabaseTarget
    private let table: String?
    /// Called on the reading thread with the repository once it is read.
    private let whenRead: @Sendable (SQLPeopleRepository) -> Void
    private let repository = Locked<SQLPeopleRepository?>(nil)
    /// The shortest time between two tries (a lock fails at once when the
    /// busy timeout is zero).
    static let pause: Duration = .seconds(1)

    init(connected: SQLPeopleRepository.Connected, target: DatabaseTarget, table: String?,
         whenRead: @escaping @Sendable (SQLPeopleRepository) -> Void = { _ in }) {
        self.connected = connected
        self.target = target
        self.table = table
        self.whenRead = whenRead
    }

    /// The repository, once read (nil while loading, or when it failed).
    var opened: SQLPeopleRepository? { repository.withLock { $0 } }

    func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError> {
        // A thread of its own: a statement waiting on a lock never holds
        // one of the few threads Swift's tasks share.
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.readWhenFree(progress: progress)) }
        }
    }

    private func readWhenFree(progress: LoadProgress) -> Result<any PeopleRepository, LoadError> {
        progress.stage.withLock { $0 = "reading the table and its company summary" }
        let clock = ContinuousClock()
        while true {
            let started = clock.now
            switch DatabaseSource.read(connected, target: target, table: table) {
            case .success(let read):
                repository.withLock { $0 = read }
                whenRead(read)
                return .success(read)
            case .failure(let failure) where failure.error.isWaitingOnOthers:
                progress.stage.withLock { $0 = "waiting: \(Self.waitingReason(failure.error))" }
                let left = Self.pause - (clock.now - started)
                if left > .zero { Thread.sleep(forTimeInterval: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18) }
            case .failure(let failure):
                return .failure(.database(target: failure.target, message: failure.message))
            }
        }
    }

    /// Why the table could not be read yet, in a user's words (short:
    /// the loading screen may be 40 columns wide).
    static func waitingReason(_ error: DatabaseError) -> String {
        error.kind == .busy ? "another program is writing to it" : "the table is locked, or the server busy"
    }
}
