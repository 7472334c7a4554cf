import RosterCore
import RosterTUI
import RosterSQL

/// How the list first shows, from the command line (`--filter`, `--sort`).
struct StartingView: Equatable {
    var filter: String?
    var sort: SortOrder?
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
    private var connectionWatcher: ConnectionWatcher?
    /// Reads off the main actor (and searches), for work of its own.
    private let makeSearcher: @MainActor () -> ListSearchScheduling
    /// How the screens save to the source, or why they cannot; nil: the
    /// repository is its own editor if it is one (a database's table).
    private let editing: Result<any PeopleEditing, EditFailure>?
    /// Brings work done in the background to the main actor (the event loop sets it).
    var post: (@Sendable (@escaping @MainActor @Sendable () -> Void) -> Void)?
    /// Watches a directory file for other programs' changes.
    private var fileWatcher: FileWatcher?
    /// Watches a table for others' changes (SQLite's data version,
    /// PostgreSQL's notifications).
    private var tableWatch: (any TableChangeWatch)?
    /// The file as it was when last read: a change event that finds it so
    /// is a save of ours, already read again.
    private var lastReading: FileReading?
    /// Another program changed the file: read again once the list is on
    /// top and idle (a form, a prompt or the person's screen is never
    /// pulled from under the user).
    private var changedOnDisk = false
    /// Re-reads begun (the last one started is the one shown).
    private var rereadsStarted = 0
    /// A re-read that finished while the user had moved on: shown once they are back.
    private var heldReread: (startedOn: ObjectIdentifier?, show: () -> Void)?
    /// `FileSave.ownSaves` as the last change event found it.
    private var ownSavesSeen = 0
    /// Edits made offline, for a server's directory: sent once it answers.
    private let outbox: Outbox?
    /// The file the screens edit, if the source is one.
    private var filePath: String? {
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
         outbox: Outbox? = nil) {
        self.outbox = outbox
        self.placeStore = placeStore
        self.startingView = startingView
        self.makeSearcher = makeSearcher
        root = RootWireframe(screen: screen)
        listWireframe = ListScreenWireframe(root: root, makeSearcher: makeSearcher, history: PromptHistory(), session: ListSession())
        self.interactor = interactor
        self.sourceName = sourceName
        self.editing = editing
        listWireframe.editingAccess.onSaved = { [weak self] recordID, note in self?.sourceSaved(recordID: recordID, note: note) }
        // `r` reconnects from every screen over the list, as the title says.
        root.onUnhandledKey = { [listWireframe] key in
            if key == .character("r") { listWireframe.reconnect() }
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
    nonisolated static func loadAndArrange(interactor: DirectoryLoading, progress: LoadProgress) async -> Result<ArrangedDirectory, LoadError> {
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
        let recordIDs = marked.count <= Self.marksCarriedOver ? marked.compactMap { try? copy.person($0).id } : []
        session.unmarkAll()
        listWireframe.presentList(ArrangedDirectory(repository: live, arrangement: live.arrange(sort: .byLastName, byCompany: true, company: nil)))
        offerEditing(of: live)
        listWireframe.start(at: .success(place), sort: nil, filter: filter)
        if let live = live as? SQLPeopleRepository { sendOutbox(to: live) }
        live.reads(through: makeSearcher()).read({
            // One that could not be looked up is counted as not found.
            recordIDs.compactMap { (try? live.personID(recordID: $0)) ?? nil }
        }) { [weak self] found in
            session.mark(found)
            self?.listWireframe.wentLive(marksNotFound: marked.count - found.count)
        }
        watchConnection(of: live, post: post)
    }

    /// Tells the list how `E` saves to `repository`'s source, or why it cannot.
    /// `reading`: the file as it was just before `repository` was read from it.
    private func offerEditing(of repository: any PeopleRepository, reading: FileReading? = nil) {
        let offered = editing.map { $0.map { editing in (editing as? FileEditing)?.knowing(repository, read: reading) ?? editing } }
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

    /// A save landed: the source is read again in the background (a file
    /// whole; a table's summary, over the same connections), and the list
    /// shows it in place of the old, in the same order, filter and
    /// columns, at the person saved (found again by `_id`), saying so.
    /// `filter`: the search to read again under, when the list's own may
    /// not have landed (going live, the outbox sent meanwhile).
    func sourceSaved(recordID: String?, note: ListScreenWireframe.SavedNote = .saved, filter intended: String? = nil) {
        guard let post else { return }
        let (interactor, filter) = (self.interactor, listWireframe.filter ?? intended)
        let table = listWireframe.shownRepository as? SQLPeopleRepository
        var found = listWireframe.place
        found?.selectedID = recordID
        found?.selectedPosition = nil
        let place = found
        // After a delete, the row where the selection was (the next person).
        let row = recordID == nil ? listWireframe.listPresenter?.selection : nil
        // Whatever changed on disk meanwhile is read now too.
        lastReading = filePath.flatMap { FileReading(path: $0) }
        let path = filePath
        changedOnDisk = false
        let tableWatch = self.tableWatch
        let outbox = self.outbox
        // Marks are kept by who they are (`_id`), not where they were: the
        // file read again may hold people in other places (someone deleted
        // one). Past a few thousand, or without an `_id`, they are let go.
        let marked = listWireframe.session.marked
        let shown = listWireframe.shownRepository
        // A later re-read supersedes this one; the screen it began on is where it may land.
        rereadsStarted += 1
        heldReread = nil
        let generation = rereadsStarted
        let startedOn = root.topView.map(ObjectIdentifier.init)
        switch note {
        case .saved, .savedFromDetail, .savedFromCompanyList, .deleted, .undone: listWireframe.say("saved; reading it again…")
        case .reread, .changedOnDisk, .refused, .sent: listWireframe.say("reading it again…")
        }
        Task.detached {
            let markedRecords: [String] = marked.count > 5_000 ? [] : marked.compactMap { id in
                (try? shown?.person(id)).map(\.id).flatMap { $0.isEmpty ? nil : $0 }
            }
            let result: Result<ArrangedDirectory, LoadError>
            // Taken a tick after the save's rename, so that the next save can trust it (`FileSave.updateInPlace`).
            let reading: FileReading? = if let path { await FileReading.settled(path: path) } else { nil }
            if let table {
                tableWatch?.countFromNow()
                result = Result { () throws(DatabaseError) in try table.reread() }
                    .map { ArrangedDirectory(repository: $0, arrangement: $0.arrange(sort: .byLastName, byCompany: true, company: nil)) }
                    .mapError { LoadError.database(target: table.sourceName, message: $0.message) }
            } else {
                result = await Self.loadAndArrange(interactor: interactor, progress: LoadProgress())
            }
            let remarked = (try? result.get()).map { arranged in
                markedRecords.compactMap { try? arranged.repository.personID(recordID: $0) }
            } ?? []
            let unsent = outbox?.unsent()
            post { [weak self] in
                guard let self, generation == self.rereadsStarted else { return }
                self.heldReread = nil
                self.land(on: startedOn) { [weak self] in
                    guard let self, generation == self.rereadsStarted else { return }
                    // Changed again after it was read (another program's write that came with our own save's): once more.
                    if let path, let reading, FileIdentity(path: path) != reading.identity { self.changedOnDisk = true }
                    switch result {
                    case .success(let arranged):
                        let isOffline = arranged.repository is OfflineCopyRepository
                        if let unsent { self.listWireframe.session.unsent = unsent }
                        if !marked.isEmpty {
                            self.listWireframe.session.unmarkAll()
                            self.listWireframe.session.mark(remarked)
                        }
                        self.listWireframe.presentList(arranged)
                        // The directory as it was is let go once the screens are off it: its memory
                        // goes back to the system (on 1M people, five saves left 790 MB resident without this, 560 with).
                        Task.detached {
                            try? await Task.sleep(for: .seconds(1))
                            Platform.returnFreedMemory()
                        }
                        self.offerEditing(of: arranged.repository, reading: reading)
                        self.listWireframe.start(at: .success(place), sort: nil, filter: filter)
                        if let row, let presenter = self.listWireframe.listPresenter {
                            presenter.select(position: min(row, max(0, arranged.repository.personCount - 1)))
                        }
                        // A file's name, or a database's ("staff" of postgres://ann@db/staff?host=/run/pg).
                        let path = table == nil ? self.sourceName
                            : self.sourceName.split(separator: "?", maxSplits: 1).first.map(String.init) ?? self.sourceName
                        let name = path.split(separator: "/").last.map(String.init) ?? self.sourceName
                        let said = switch note {
                        case .saved, .savedFromDetail, .savedFromCompanyList:
                            isOffline ? "saved offline" + Self.unsentNote(unsent) : "saved to \(name)"
                        case .deleted: isOffline ? "deleted offline" + Self.unsentNote(unsent) : "deleted from \(name)"
                        case .undone(let what): "undone: \(what)"
                        case .reread: "nothing saved; read again with the change made meanwhile"
                        case .changedOnDisk: table == nil ? "changed on disk; read again" : "changed in the database; read again"
                        case .refused(let why): why + "; read again"
                        case .sent(let what): what
                        }
                        self.listWireframe.say(said + self.takeSendingNote(after: note))
                        if let recordID, [.saved, .savedFromDetail, .savedFromCompanyList].contains(note) {
                            self.listWireframe.listPresenter?.whenSettled { [weak self] presenter in
                                Self.landed(on: recordID, in: presenter, reopeningDetail: note == .savedFromDetail)
                                if note == .savedFromCompanyList, presenter.place.selectedID == recordID {
                                    self?.listWireframe.reopenCompanyList(selecting: recordID, saying: "saved to \(name)")
                                }
                            }
                        }
                    case .failure(let error):
                        switch note {
                        case .changedOnDisk, .reread, .refused, .sent:
                            self.listWireframe.say("\(self.sourceName) changed but could not be read again (the list shows it as it was): \(error.message)")
                        default:
                            self.listWireframe.say("saved, but \(self.sourceName) could not be read again: \(error.message)")
                        }
                    }
                }
            }
        }
    }

    /// "; 2 edits unsent ⇡, sent once the server answers".
    private static func unsentNote(_ unsent: UnsentEdits?) -> String {
        guard let count = unsent?.count, count > 0 else { return "" }
        return "; \(NumberText.count(count, "edit", "edits")) unsent ⇡, sent once the server answers"
    }

    // MARK: The outbox

    /// Edits made offline go to the server `live`, off the main actor
    /// (`OutboxSender`); then the list is read again to show them and says
    /// what was sent, and each person someone changed on the server
    /// meanwhile opens on the conflict screen, one after another.
    private func sendOutbox(to live: SQLPeopleRepository) {
        guard let outbox, listWireframe.session.unsent.count > 0 else { return }
        listWireframe.say("sending the edits made offline…")
        // The search the list is going back to: kept through the re-read even if its answer is lost meanwhile.
        let filter = listWireframe.filter
        live.reads(through: makeSearcher()).read({ (OutboxSender.send(outbox, to: live.outboxWriter()), outbox.unsent()) }) { [weak self] sent in
            guard let self else { return }
            let (report, unsent) = sent
            self.unsentChanged(unsent)
            self.heldEdits = report.held
            if report.isEmpty { return self.listWireframe.say("nothing to send") }
            // Said now, under the conflict screen if one opens: said again once it closes.
            let sent = report.summary(mentioningHeld: false)
            self.sendingNote = report.held.isEmpty || sent.isEmpty ? nil : sent
            // Read again from where the list is once it has landed (the place and search it
            // was going back to, not its top), then the conflict screens over it.
            let readAgain: @MainActor (ListPresenter?) -> Void = { [weak self] presenter in
                // A search whose answer was lost meanwhile is asked again: a re-read begun later (a conflict settled) takes it up.
                if let filter, let presenter, presenter.filter == nil, presenter.pendingFilter == nil { presenter.applyFilter(filter) }
                self?.sourceSaved(recordID: presenter?.place.selectedID, note: .sent(report.summary), filter: filter)
                self?.settleNextHeldEdit(on: live)
            }
            guard let presenter = self.listWireframe.listPresenter else { return readAgain(nil) }
            presenter.whenSettled(readAgain)
        }
    }

    /// The people with edits not sent, as the outbox has them now: marked so on every list.
    private func unsentChanged(_ unsent: UnsentEdits) {
        listWireframe.session.unsent = unsent
        listWireframe.listPresenter?.marksMayHaveChanged(keepingMessage: true)
    }

    /// What the last sending of the outbox said, while its conflict screens
    /// are up (they cover the list): said once the last one has closed.
    private var sendingNote: String?

    /// "; sent from the outbox: …" once no conflict screen is left, else "".
    private func takeSendingNote(after note: ListScreenWireframe.SavedNote) -> String {
        guard let sendingNote, heldEdits.isEmpty, root.depth == 1 else { return "" }
        self.sendingNote = nil
        if case .sent = note { return "" }
        return "; earlier: " + sendingNote
    }

    /// Edits made offline the server refused for a conflict, waiting for the conflict screen.
    private var heldEdits: [OutboxSender.HeldEdit] = []

    /// The next held edit on the conflict screen. Saved there (theirs chosen
    /// too), or thrown away, it leaves the outbox; quitting on the screen
    /// leaves it there, for the next sending.
    private func settleNextHeldEdit(on live: SQLPeopleRepository) {
        guard let outbox, !heldEdits.isEmpty else { return }
        let held = heldEdits.removeFirst()
        let editing = SettlingEditing(live: live, outbox: outbox, operations: held.operations)
        listWireframe.resolve(held, editing: editing) { [weak self] in
            guard let self else { return }
            live.reads(through: self.makeSearcher()).read({ () -> UnsentEdits in
                _ = outbox.remove(held.operations)
                return outbox.unsent()
            }) { [weak self] unsent in self?.unsentChanged(unsent) }
            self.settleNextHeldEdit(on: live)
        }
    }

    /// Shows a re-read now if the user is where it began (or back on the
    /// list) with nothing typed or asked; else holds it until they are:
    /// a form or a prompt opened meanwhile is never pulled from under them.
    private func land(on startedOn: ObjectIdentifier?, _ show: @escaping () -> Void) {
        if mayLand(on: startedOn) { return show() }
        heldReread = (startedOn, show)
    }

    private func mayLand(on startedOn: ObjectIdentifier?) -> Bool {
        let top = root.topView.map(ObjectIdentifier.init)
        return (root.depth == 1 || top == startedOn) && listWireframe.listPresenter?.isIdle != false
    }

    /// After a save, once the list has landed: the person's screen again if
    /// the save was made from it; or, when the search on no longer matches
    /// the person saved, a word saying so (they are not lost, only hidden).
    private static func landed(on recordID: String, in presenter: ListPresenter, reopeningDetail: Bool) {
        // A database's rows load after the frame: a selection not loaded yet
        // is not known to be someone else, and says nothing.
        guard let selected = presenter.place.selectedID else { return }
        guard selected == recordID else {
            if presenter.filter != nil { presenter.say("saved; they no longer match the search (Esc shows everyone)") }
            return
        }
        if reopeningDetail { presenter.openSelected() }
    }

    /// Stops watching the connection and the file (the app is ending).
    func stopWatching() {
        connectionWatcher?.stop()
        fileWatcher?.stop()
        tableWatch?.stop()
    }

    /// A directory file, or a table (SQLite or PostgreSQL), is watched from now on:
    /// another program's change (another Roster's save, an editor, `sed
    /// -i`, `roster update`) is read again in place, the place kept by
    /// `_id`, as after a save.
    func watchForChanges(post: @escaping @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void) {
        if tableWatch == nil, let table = listWireframe.shownRepository as? SQLPeopleRepository {
            // A table: someone else's commit is read again the same way. The
            // watch connects (PostgreSQL: a second connection) off the main actor.
            Task.detached {
                guard let watch = table.changeWatch() else { return }
                watch.start {
                    post { [weak self] in self?.changedElsewhere() }
                }
                post { [weak self] in
                    guard let self, self.tableWatch == nil else { return watch.stop() }
                    self.tableWatch = watch
                }
            }
        }
        guard fileWatcher == nil, let filePath else { return }
        fileWatcher = FileWatcher(path: filePath) {
            post { [weak self] in self?.fileChanged() }
        }
    }

    private func fileChanged() {
        // A save of ours since the last event: its own re-read shows it (and whatever came with it).
        let own = FileSave.ownSaves.load(ordering: .acquiring)
        defer { ownSavesSeen = own }
        guard own == ownSavesSeen else { return }
        guard let filePath, FileIdentity(path: filePath) != lastReading?.identity else { return }
        changedElsewhere()
    }

    /// Someone else changed the source: read again as soon as that takes nothing from the user.
    private func changedElsewhere() {
        changedOnDisk = true
        reloadIfDue()
    }

    /// Reads a file changed on disk again, once the list is on top and
    /// idle; the event loop asks after every round.
    func reloadIfDue() {
        if let held = heldReread, mayLand(on: held.startedOn) {
            heldReread = nil
            held.show()
        }
        guard heldReread == nil, changedOnDisk, root.depth == 1, let presenter = listWireframe.listPresenter, presenter.isIdle else { return }
        changedOnDisk = false
        sourceSaved(recordID: listWireframe.place?.selectedID, note: .changedOnDisk)
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
            if let live = arranged.repository as? SQLPeopleRepository { sendOutbox(to: live) }
        case .failure(let error):
            loadFailure = error
            root.discardTypedAhead()
            root.setRoot(ErrorView(error: error) { [weak root] in root?.finish(status: .failure) })
        }
    }
}
