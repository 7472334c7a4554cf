import RosterCore
import RosterLDAP
import RosterSQL

/// The people a directory server held when it was last read, in memory,
/// over the directory's connection: what the title says of it (lost,
/// back) is the directory's, every read answers at once from memory.
final class LDAPDirectoryRepository: DelegatingRepository {
    let base: any PeopleRepository
    let directory: LDAPDirectory

    init(base: any PeopleRepository, directory: LDAPDirectory) {
        self.base = base
        self.directory = directory
    }

    var atOnce: (any ReadingAtOnce)? { base.atOnce }
    /// The title's first words while the connection is lost: what is shown
    /// is the people as last read.
    var readFailure: String? { directory.isConnectionLost ? "connection lost" : nil }
    var connection: (any Reconnecting)? { directory }
}

/// The list's interactor for a directory server bound to before the
/// screen started: the first page is waited for behind the loading
/// screen, the rest read in the background; each later load (a change
/// another client made, a page more) is what is held at that moment.
struct LDAPDirectoryInteractor: DirectoryLoading {
    let directory: LDAPDirectory

    func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError> {
        progress.stage.withLock { $0 = "reading the directory's first page" }
        switch await directory.firstPage() {
        case .success: return .success(directory.repository())
        case .failure(let error):
            let said = DisplayText.sanitized(error.message)
            return .failure(.database(target: directory.name, message: said.contains(directory.name) ? said : "\(directory.name): \(said)"))
        }
    }
}

/// Another client's changes to a directory server, as its change feed
/// (`LDAPChangeFeed`: content synchronisation, else persistent search,
/// else polling) tells them, on a connection of its own: applied to the
/// people held, and the app told to show them again. The feed's lost
/// connection is a sign the screen's went too; back, that it can be bound
/// again at once.
final class LDAPDirectoryWatch: TableChangeWatch, Sendable {
    private let directory: LDAPDirectory
    private let feed: LDAPChangeFeed
    private let task = Locked<Task<Void, Never>?>(nil)
    private let connectionChanged = Locked<(@Sendable (Bool) -> Void)?>(nil)

    init(directory: LDAPDirectory, feed: LDAPChangeFeed) {
        self.directory = directory
        self.feed = feed
    }

    func start(changed: @escaping @Sendable () -> Void) {
        directory.whenChanged(changed)
        let (directory, feed, connectionChanged) = (directory, feed, connectionChanged)
        task.withLock { running in
            running?.cancel()
            running = Task.detached {
                await feed.run(from: nil, known: nil) { change in
                    switch directory.apply(change) {
                    case .none: break
                    case .peopleChanged: changed()
                    case .lost: connectionChanged.withLock { $0 }?(false)
                    case .back: connectionChanged.withLock { $0 }?(true)
                    }
                }
            }
        }
    }

    /// Nothing to count: every change is applied, none is read again.
    func countFromNow() {}

    func stop() {
        task.withLock { $0?.cancel() }
    }

    func whenConnectionChanges(_ handler: @escaping @Sendable (Bool) -> Void) {
        connectionChanged.withLock { $0 = handler }
    }
}
