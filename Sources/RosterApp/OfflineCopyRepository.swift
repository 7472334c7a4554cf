import RosterCore
import RosterSQL

/// The way back from a database's offline copy to its server: tries to open
/// it, and once it has, keeps the live repository and tells whoever waits.
final class LiveDirectoryLink: Sendable {
    /// The target, without secrets, as failures name it.
    let target: String
    private let open: @Sendable () -> Result<SQLPeopleRepository, DatabaseSource.OpenFailure>
    private let state = Locked<(live: SQLPeopleRepository?, onLive: (@Sendable (SQLPeopleRepository) -> Void)?)>((nil, nil))
    private let lastDetail = Locked<String?>(nil)

    /// Why the server could not be opened last, word for word.
    var detail: String? { lastDetail.withLock { $0 } }

    init(target: String, open: @escaping @Sendable () -> Result<SQLPeopleRepository, DatabaseSource.OpenFailure>) {
        self.target = target
        self.open = open
    }

    /// The server's directory, once it could be opened.
    var live: SQLPeopleRepository? { state.withLock { $0.live } }

    /// `handler` is given the live directory when it is first opened (from
    /// the thread that opened it).
    func whenLive(_ handler: @escaping @Sendable (SQLPeopleRepository) -> Void) {
        state.withLock { $0.onLive = handler }
    }

    /// Opens the server's directory unless it is open already; throws why not.
    /// Without a terminal to ask on, a server that wants a password cannot
    /// be opened here: the reason says to start again.
    func connect() throws(ReconnectFailure) {
        guard live == nil else { return }
        switch open() {
        case .success(let opened):
            // `r` and the watcher may both have opened it: the first one counts.
            let handler = state.withLock { state -> (@Sendable (SQLPeopleRepository) -> Void)? in
                guard state.live == nil else { return nil }
                state.live = opened
                return state.onLive
            }
            handler?(opened)
        case .failure(let failure):
            let restart = failure.error.kind == .passwordRequired ? "; quit and start roster again to type it" : ""
            lastDetail.withLock { $0 = failure.reason }
            throw ReconnectFailure(target: target, reason: ConnectionTrouble.words(for: failure.error) + restart, detail: failure.reason)
        }
    }
}

/// The offline copy of a database directory, browsed while its server
/// cannot be reached. It answers from the copy and counts as a lost
/// connection, so that `r`, or the `ConnectionWatcher` on its own, tries the
/// server again; once the server answers, the app shows the live directory
/// in the copy's place (`AppDependencies.sourceReplaced`).
final class OfflineCopyRepository: DelegatingRepository, Reconnecting {
    let base: any PeopleRepository
    /// Its rows are the base's, read at once when the base's are.
    var atOnce: (any ReadingAtOnce)? { base.atOnce }
    let link: LiveDirectoryLink
    /// How the screens save while offline: to the outbox, then the copy
    /// (nil: the copy is read-only).
    let editing: OutboxEditing?

    init(copy: any PeopleRepository, link: LiveDirectoryLink, editing: OutboxEditing? = nil) {
        base = copy
        self.link = link
        self.editing = editing
    }

    var isConnectionLost: Bool { link.live == nil }

    var problemDetail: String? { link.detail }

    func reconnect() throws(ReconnectFailure) {
        try link.connect()
    }
}

/// Loads the offline copy (a JSON Lines file) and hands it out as an
/// `OfflineCopyRepository` tied to `link`.
struct OfflineCopyInteractor: DirectoryLoading {
    let copy: any DirectoryLoading
    let link: LiveDirectoryLink
    var editing: OutboxEditing?

    func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError> {
        await copy.loadDirectory(progress: progress).map { OfflineCopyRepository(copy: $0, link: link, editing: editing) }
    }
}
