import RosterCore
import RosterTUI
import RosterSQL
import RosterStore

/// How the list first shows, from the command line (`--filter`, `--sort`).
struct StartingView: Equatable {
    var filter: String?
    var sort: SortOrder?
}

/// A source that tells of its own changes (a directory server's change
/// feed), and what the status line says once one is shown.
struct SourceChanges {
    let watch: any TableChangeWatch
    let note: @Sendable () -> String
}

/// Builds the object graph once: root wireframe, module wireframes, the
/// interactor, and the loading that starts it all.
@MainActor
public final class AppDependencies {
    public let root: RootWireframe
    public let listWireframe: ListScreenWireframe
    let interactor: DirectoryLoading
    let sourceName: String
    let progress = LoadProgress()

    /// Where the place is remembered; nil for stdin or with --no-state.
    let placeStore: PlaceStore?
    /// `--filter` and `--sort`: how the list first shows.
    let startingView: StartingView
    /// Why the directory could not be shown, if it could not: printed again
    /// on standard error once the terminal is restored, so it stays in the
    /// scrollback after the alternate screen is gone.
    private(set) var loadFailure: LoadError?
    /// Reconnects a database on its own once its connection is lost.
    var connectionWatcher: ConnectionWatcher?
    /// Reads off the main actor (and searches), for work of its own.
    let makeSearcher: @MainActor () -> ListSearchScheduling
    /// How the screens save to the source, or why they cannot; nil: the
    /// repository is its own editor if it is one (a database's table).
    private let editing: Result<any PeopleEditing, EditFailure>?
    /// Brings work done in the background to the main actor (the event loop sets it).
    var post: (@Sendable (@escaping @MainActor @Sendable () -> Void) -> Void)?
    /// Watches a directory file for other programs' changes.
    var fileWatcher: FileWatcher?
    /// Watches a table for others' changes (SQLite's data version,
    /// PostgreSQL's notifications).
    var tableWatch: (any TableChangeWatch)?
    /// The file as it was when last read: a change event that finds it so
    /// is a save of ours, already read again.
    var lastReading: FileReading?
    /// Another program changed the file: read again once the list is on
    /// top and idle (a form, a prompt or the person's screen is never
    /// pulled from under the user).
    var changedOnDisk = false
    /// What the last save's re-read said: a source's progress note does not replace it while it is on screen.
    var saveSaid: String?
    /// The save whose re-read is the one in flight (its note and person):
    /// set by each re-read begun, let go when it lands.
    var saveInFlight: (note: ListScreenWireframe.SavedNote, recordID: String?)?
    /// Re-reads begun (the last one started is the one shown).
    var rereadsStarted = 0
    /// The search the last re-read begun is to land under, until it lands:
    /// a re-read that supersedes it before then keeps it (the list's own
    /// search may not have landed yet).
    var rereadFilter: String?
    /// A re-read that finished while the user had moved on: shown once they are back.
    var heldReread: (startedOn: ObjectIdentifier?, show: () -> Void)?
    /// Edits made offline, for a server's directory: sent once it answers.
    let outbox: Outbox?
    /// The source's own word of changes, for one that gives it.
    let sourceChanges: SourceChanges?
    /// A server's offline copy, taken again as the table is read again:
    /// where edits made while the connection is lost start from.
    let offlineCopy: OfflineCopyKeeper?
    /// Whether the last save from a screen went to the outbox (the
    /// connection was lost): its landing says so instead of reading again.
    let keptOffline = Locked(false)
    /// What the last sending of the outbox said, while its conflict screens
    /// are up (they cover the list): said once the last one has closed.
    var sendingNote: String?
    /// Edits made offline the server refused for a conflict, waiting for the conflict screen.
    var heldEdits: [OutboxSender.HeldEdit] = []
    /// Sendings of the outbox tried again since one last stopped on an
    /// error over a connection that still worked (`outboxStopped`).
    var outboxRetries = 0
    /// The file the screens edit, if the source is one.
    var filePath: String? {
        if case .success(let editing as FileEditing)? = editing { return editing.path }
        return nil
    }

    /// `makeSearcher` builds a search scheduler for each list.
    public convenience init(screen: Screen, interactor: DirectoryLoading, sourceName: String,
                            makeSearcher: @escaping @MainActor () -> ListSearchScheduling) {
        self.init(screen: screen, interactor: interactor, sourceName: sourceName, makeSearcher: makeSearcher, placeStore: nil)
    }

    init(screen: Screen, interactor: DirectoryLoading, sourceName: String, makeSearcher: @escaping @MainActor () -> ListSearchScheduling,
         placeStore: PlaceStore?, startingView: StartingView = StartingView(),
         editing: Result<any PeopleEditing, EditFailure>? = .failure(EditFailure(.readOnly, "this directory cannot be edited")),
         outbox: Outbox? = nil, offlineCopy: OfflineCopyKeeper? = nil, sourceChanges: SourceChanges? = nil) {
        self.outbox = outbox
        self.sourceChanges = sourceChanges
        self.offlineCopy = offlineCopy
        self.placeStore = placeStore
        self.startingView = startingView
        self.makeSearcher = makeSearcher
        root = RootWireframe(screen: screen)
        listWireframe = ListScreenWireframe(root: root, makeSearcher: makeSearcher, history: PromptHistory(), session: ListSession())
        self.interactor = interactor
        self.sourceName = sourceName
        self.editing = editing
        listWireframe.editingAccess.onSaved = { [weak self] recordID, note in self?.sourceSaved(recordID: recordID, note: note) }
        listWireframe.onReadAgain = { [weak self] said in self?.readAgain(saying: said) ?? false }
        // `r` reconnects from every screen over the list, as the title says.
        root.onUnhandledKey = { [listWireframe] key in
            guard key == .character("r") else { return false }
            listWireframe.reconnect()
            return true
        }
    }

    /// Shows the loading screen and loads (and groups) off the main actor;
    /// `deliver` is called from the background with the outcome.
    func startLoading(deliver: @escaping @Sendable (Result<ArrangedDirectory, LoadError>) -> Void) {
        lastReading = filePath.flatMap { FileReading(path: $0) }
        root.setRoot(LoadingView(sourceName: sourceName, progress: progress) { [weak root] in
            root?.finish(status: .success)
        })
        let interactor = self.interactor
        let progress = self.progress
        Task.detached {
            deliver(await Self.loadAndArrange(interactor: interactor, progress: progress))
        }
    }

    /// Loads the directory and groups it, the two steps before a first frame.
    @concurrent nonisolated static func loadAndArrange(interactor: DirectoryLoading, progress: LoadProgress) async -> Result<ArrangedDirectory, LoadError> {
        await interactor.loadDirectory(progress: progress).map { repository in
            ArrangedDirectory(repository: repository, arrangement: repository.arrange(sort: .byLastName, byCompany: true, company: nil))
        }
    }

    /// Remembers where the user is, for the next launch of the same file.
    func savePlace() {
        guard let placeStore, let place = listWireframe.placeToRemember else { return }
        placeStore.save(place)
    }

    /// Shows an already loaded and arranged directory (benchmarks, tests).
    public func presentLoaded(_ repository: any PeopleRepository, arrangement: PeopleArrangement) {
        directoryLoaded(.success(ArrangedDirectory(repository: repository, arrangement: arrangement)))
    }

    /// A source over a connection (a database) is watched from now on: when
    /// the connection is lost, it is tried again on its own with backoff,
    /// and `post` brings each outcome to the main actor for the list to say.
    /// An offline copy is watched the same way: once its server answers,
    /// the live directory takes the copy's place (`sourceReplaced`).
    func watchConnection(of repository: any PeopleRepository,
                         post: @escaping @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void) {
        guard let connection = repository.connection else { return }
        let offline = repository as? OfflineCopyRepository
        if let offline {
            offline.link.whenLive { [weak self] live in
                post { self?.sourceReplaced(offline, by: live, post: post) }
            }
        }
        let watcher = ConnectionWatcher(connection: connection)
        watcher.start { [weak self] attempt in
            // An offline copy's success is said by the live list that replaces it.
            if offline != nil, attempt == .reconnected { return }
            post { self?.listWireframe.reconnectedOnItsOwn(attempt) }
        }
        connectionWatcher = watcher
    }

    /// The most marks carried from an offline copy to its live directory:
    /// each is a lookup by record id (a fraction of a millisecond on a
    /// local server), in the background.
    static let marksCarriedOver = 2_000

    /// The offline copy's server answered: the live directory replaces the
    /// copy, at the same person, in the same order, columns and filter, with
    /// the same people marked (found again by record id, in the background:
    /// they show marked when found). Screens opened over the list close:
    /// they showed the copy.
    func sourceReplaced(_ copy: any PeopleRepository, by live: any PeopleRepository,
                        post: @escaping @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void) {
        let place = listWireframe.place
        let filter = listWireframe.filter
        connectionWatcher?.stop()
        let session = listWireframe.session
        let marked = session.marked
        let carried = marked.count <= Self.marksCarriedOver ? Array(marked) : []
        session.unmarkAll()
        listWireframe.presentList(ArrangedDirectory(repository: live, arrangement: live.arrange(sort: .byLastName, byCompany: true, company: nil)))
        offerEditing(of: live)
        listWireframe.start(at: .success(place), sort: nil, filter: filter)
        if let live = live as? SQLPeopleRepository { wentLive(live) }
        live.reads(through: makeSearcher()).read({
            // One that could not be looked up is counted as not found.
            var found: [PersonID] = []
            for id in carried {
                guard let recordID = try? await copy.person(id).id, let person = try? await live.personID(recordID: recordID) else { continue }
                found.append(person)
            }
            return found
        }) { [weak self] found in
            session.mark(found)
            self?.listWireframe.wentLive(marksNotFound: marked.count - found.count)
        }
        watchConnection(of: live, post: post)
    }

    /// Tells the list how `E` saves to `repository`'s source, or why it cannot.
    /// `reading`: the file as it was just before `repository` was read from it.
    func offerEditing(of repository: any PeopleRepository, reading: FileReading? = nil) {
        let offered = editing.map { $0.map { editing in (editing as? FileEditing)?.knowing(repository, read: reading) ?? editing } }
            ?? editingThatCanBeLost(repository).map { .success($0) }
            ?? (repository as? any PeopleEditing).map { .success($0) }
            ?? (repository as? OfflineCopyRepository)?.editing.map { .success($0) }
            ?? .failure(EditFailure(.readOnly, "the offline copy cannot be edited; r connects to the server again"))
        switch offered {
        case .success(let editing): listWireframe.editingAccess.editing = editing
        case .failure(let reason):
            listWireframe.editingAccess.editing = nil
            listWireframe.editingAccess.readOnlyReason = reason.message
        }
    }

    /// Stops watching the connection and the file (the app is ending).
    func stopWatching() {
        connectionWatcher?.stop()
        fileWatcher?.stop()
        tableWatch?.stop()
    }

    /// The load finished: the list, or the error screen.
    func directoryLoaded(_ result: Result<ArrangedDirectory, LoadError>) {
        switch result {
        case .success(let arranged):
            // A small private file: its people show marked from the first frame.
            listWireframe.session.unsent = outbox?.unsent() ?? UnsentEdits()
            listWireframe.presentList(arranged)
            offerEditing(of: arranged.repository, reading: lastReading)
            listWireframe.start(at: placeStore?.load(), sort: startingView.sort, filter: startingView.filter)
            if let live = arranged.repository as? SQLPeopleRepository { wentLive(live) }
        case .failure(let error):
            loadFailure = error
            root.discardTypedAhead()
            root.setRoot(ErrorView(error: error) { [weak root] in root?.finish(status: .failure) })
        }
    }
}

extension AppDependencies {
    /// The org chart (`T`) reads its managers from `path`, the file the
    /// list's people were read from (its store says where each record
    /// starts), once per store: the repository keeps it.
    func readOrgChart(fromFile path: String, format: InputFormat?) {
        listWireframe.session.orgChartReading = { repository in
            guard let read = repository as? InMemoryPeopleRepository else { return nil }
            return read.orgChartReading
                ?? FileOrgChartReading(path: path, format: format, store: read.store, sourceName: repository.sourceName)
        }
    }

    /// The org chart of a database table reads its people's narrow
    /// columns and `manager` in the background (`SQLOrgChartReading`).
    func readOrgChartOfDatabase() {
        listWireframe.session.orgChartReading = { repository in
            (repository as? SQLPeopleRepository).map { SQLOrgChartReading(repository: $0) }
        }
    }
}
