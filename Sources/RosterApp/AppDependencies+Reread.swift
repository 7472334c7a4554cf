import Dispatch
import RosterCore
import RosterSQL

/// Reading the source again after a save, another program's change, or
/// edits sent from the outbox, and showing it in place of the old.
extension AppDependencies {
    /// What a re-read found, read off the main actor.
    struct Reread: Sendable {
        let result: Result<ArrangedDirectory, LoadError>
        /// The file as it was just before it was read again.
        let reading: FileReading?
        /// The marked people, found again by `_id` in what was read.
        let remarked: [PersonID]
        /// The edits made offline and not sent yet, if there is an outbox.
        let unsent: UnsentEdits?
    }

    /// Where the list was and what to do once it is read again.
    struct RereadLanding {
        let note: ListScreenWireframe.SavedNote
        var recordID: String?
        /// The place to show, at the person saved.
        var place: RememberedPlace?
        /// After a delete, the row where the selection was (the next person).
        var row: Int?
        /// After a delete from a company's list: that list, to open again.
        let companyList: CompanyListPlace?
        /// The row the person saved was on: under a search they no longer
        /// match, the selection stays on that row (their neighbour).
        let savedRow: Int?
        let filter: String?
        /// The search the list itself asked for when the re-read began:
        /// one typed (or cleared) while it was read is the user's to keep.
        let listFilter: String?
        /// Marked people before the re-read.
        let marked: Set<PersonID>
        let isTable: Bool
        let path: String?
        /// The person's screen was open on `recordID` (someone else's change came): open again on them.
        var reopensDetail = false

        /// The selection was moved while the source was read again (`j`
        /// typed on `saved; reading it again…`): the list lands where the
        /// user went, `place`, not back on the person saved, nor on a row
        /// a delete left, so that the next key acts on whom the user chose.
        func moved(to place: RememberedPlace?) -> RereadLanding {
            var landing = self
            landing.place = place
            landing.recordID = nil
            landing.row = nil
            return landing
        }
    }

    /// A save landed: the source is read again in the background (a file
    /// whole; a table's summary, over the same connections), and the list
    /// shows it in place of the old, in the same order, filter and
    /// columns, at the person saved (found again by `_id`), saying so.
    /// `filter`: the search to read again under, when the list's own may
    /// not have landed (going live, the outbox sent meanwhile).
    func sourceSaved(recordID: String?, note: ListScreenWireframe.SavedNote = .saved, filter intended: String? = nil,
                     reopeningDetail: Bool = false) {
        guard let post else { return }
        let (note, recordID) = carryingSaveInFlight(note, recordID)
        // A save kept in the outbox (the connection is lost): nothing to read, only to say.
        if note.isSave, keptOffline.withLock({ kept in defer { kept = false }; return kept }) { return landOffline(note) }
        let table = listWireframe.shownRepository as? SQLPeopleRepository
        var place = listWireframe.place
        place?.selectedID = recordID
        place?.selectedPosition = nil
        // Marks are kept by who they are (`_id`), not where they were: the
        // file read again may hold people in other places (someone deleted
        // one). Past a few thousand, or without an `_id`, they are let go.
        let companyList = note == .deletedFromCompanyList ? listWireframe.companiesWireframe?.openCompanyList : nil
        let landing = RereadLanding(note: note, recordID: recordID, place: place,
                                    row: recordID == nil && companyList == nil ? listWireframe.listPresenter?.selection : nil,
                                    companyList: companyList,
                                    savedRow: listWireframe.listPresenter?.selection,
                                    filter: listWireframe.filter ?? intended ?? rereadFilter, listFilter: listWireframe.filter,
                                    marked: listWireframe.session.marked,
                                    isTable: table != nil, path: filePath, reopensDetail: reopeningDetail)
        // Whatever changed on disk meanwhile is read now too.
        lastReading = filePath.flatMap { FileReading(path: $0) }
        changedOnDisk = false
        // A later re-read supersedes this one; the screen it began on is where it may land.
        rereadsStarted += 1
        saveInFlight = note.isSave ? (note, recordID) : nil
        heldReread = nil
        rereadFilter = landing.filter
        let generation = rereadsStarted
        // A reconnect's read was asked for by no screen over the list: it
        // lands on the list alone (nil), never closing a form with what was
        // typed, or a person's screen, opened over it.
        let startedOn = note.isReconnect ? nil : root.topView.map(ObjectIdentifier.init)
        if !keepsSaveSaid(over: note) { listWireframe.say(note.isSave ? "saved; reading it again…" : "reading it again…") }
        // A save that rewrote one record in place (an edit, or the undo of
        // one): that record alone is read again, and the list's order kept
        // if it moved nobody.
        let rewrite = (listWireframe.editingAccess.editing as? FileEditing)?.takeRewrite().flatMap { $0.recordID == recordID ? $0 : nil }
        let order = rewrite.flatMap { listWireframe.shownRepository as AnyObject === $0.directory } == true
            ? listWireframe.listPresenter?.displayed : nil
        let (interactor, shown, tableWatch, outbox) = (interactor, listWireframe.shownRepository, tableWatch, outbox)
        Task.detached {
            let reread = await Self.reread(interactor: interactor, table: table, tableWatch: tableWatch, shown: shown,
                                           landing: landing, rewrite: rewrite.map { ($0, order) }, outbox: outbox)
            post { [weak self] in
                guard let self, generation == self.rereadsStarted else { return }
                self.heldReread = nil
                self.saveInFlight = nil
                self.land(on: startedOn) { [weak self] in
                    guard let self, generation == self.rereadsStarted else { return }
                    self.rereadFilter = nil
                    self.show(reread, landing: landing)
                }
            }
        }
    }

    /// Reads the source again: a table's summary over its connections; a
    /// file's one record a save rewrote in place, when the file is still as
    /// that save left it (everyone else kept as they are in memory: no
    /// second directory beside the first); else the whole file. Then finds
    /// the marked people again by `_id`.
    @concurrent nonisolated static func reread(interactor: DirectoryLoading, table: SQLPeopleRepository?, tableWatch: (any TableChangeWatch)?,
                                   shown: (any PeopleRepository)?, landing: RereadLanding,
                                   rewrite: (RecordRewrite, order: PeopleArrangement?)? = nil, outbox: Outbox?) async -> Reread {
        var markedRecords: [String] = []
        if let shown, landing.marked.count <= 5_000 {
            for id in landing.marked {
                if let recordID = try? await shown.person(id).id, !recordID.isEmpty { markedRecords.append(recordID) }
            }
        }
        let result: Result<ArrangedDirectory, LoadError>
        // Taken a tick after the save's rename, so that the next save can trust it (`FileSave.updateInPlace`).
        let reading: FileReading? = if let path = landing.path { await FileReading.settled(path: path) } else { nil }
        if let table {
            tableWatch?.countFromNow()
            result = Result { () throws(DatabaseError) in try table.reread() }
                .map { ArrangedDirectory(repository: $0, arrangement: $0.arrange(sort: .byLastName, byCompany: true, company: nil)) }
                .mapError { LoadError.database(target: table.sourceName, message: $0.message) }
        } else if let (rewrite, order) = rewrite, let path = landing.path, reading?.identity == rewrite.written,
                  let (directory, kept) = rewrite.reread(path: path, keeping: order) {
            result = .success(ArrangedDirectory(repository: directory,
                                                arrangement: kept ?? directory.arrange(sort: .byLastName, byCompany: true, company: nil)))
        } else {
            result = await loadAndArrange(interactor: interactor, progress: LoadProgress())
        }
        var remarked: [PersonID] = []
        if let arranged = try? result.get() {
            for recordID in markedRecords {
                if let id = try? await arranged.repository.personID(recordID: recordID) { remarked.append(id) }
            }
        }
        return Reread(result: result, reading: reading, remarked: remarked, unsent: outbox?.unsent())
    }

    /// Shows what a re-read found, in place of the list, and says what happened.
    private func show(_ reread: Reread, landing: RereadLanding) {
        // Changed again after it was read (another program's write that came with our own save's): once more.
        if let path = landing.path, let reading = reread.reading, FileIdentity(path: path) != reading.identity { changedOnDisk = true }
        let arranged: ArrangedDirectory
        switch reread.result {
        case .success(let read): arranged = read
        case .failure where listWireframe.shownRepository?.connection?.isConnectionLost == true:
            // The title says the connection is lost; once it is back, all this is read again.
            return listWireframe.say(Self.lostBeforeRead(after: landing.note, in: shortSourceName(isTable: landing.isTable)))
        case .failure(let error):
            return sayUnread(error, after: landing.note)
        }
        // A search typed (or cleared) while it was read is the one to show.
        let asked = listWireframe.filter
        let filter = asked != landing.listFilter ? asked : landing.filter
        let landing = keepingMoves(landing)
        keepUnsentAndMarks(of: reread, marked: landing.marked)
        let keepsSave = keepsSaveSaid(over: landing.note)
        // The person's screen followed stays up while the list under it is made again: no frame of the list between.
        let keptScreen = landing.reopensDetail && root.depth == 2 ? root.topView : nil
        listWireframe.presentList(arranged)
        if let keptScreen { root.push(keptScreen) }
        // What was just read is what edits made offline will start from.
        if let table = arranged.repository as? SQLPeopleRepository { offlineCopy?.refresh(table) }
        Self.returnFreedMemorySoon()
        offerEditing(of: arranged.repository, reading: reread.reading)
        listWireframe.start(at: .success(landing.place), sort: nil, filter: filter)
        // Off the top before anything lands (a person's screen opened again goes over the list, not over it).
        if let keptScreen { listWireframe.listPresenter?.whenSettled { [weak self] _ in self?.drop(keptScreen) } }
        if let row = landing.row {
            // The next person (the one before, at the end), once the list is
            // in its own order and search again: a row of the order it first
            // opens in would be someone else's.
            listWireframe.listPresenter?.whenSettled { presenter in
                presenter.select(position: min(row, max(0, presenter.peopleCount - 1)))
            }
        }
        let name = shortSourceName(isTable: landing.isTable)
        let said = Self.said(after: landing.note, in: name, isOffline: arranged.repository is OfflineCopyRepository,
                             unsent: reread.unsent, isTable: landing.isTable)
        say(said, after: landing.note, keepingSave: keepsSave)
        if let companyList = landing.companyList {
            reopen(companyList, in: arranged.repository, selecting: landing.recordID, saying: said)
        }
        if landing.note.isReconnect { sendOutboxLeftBehind() }
        let note = landing.note
        if let recordID = landing.recordID, [.saved, .savedFromDetail, .savedFromCompanyList].contains(note) {
            listWireframe.listPresenter?.whenSettled { [weak self] presenter in
                Self.landed(on: recordID, in: presenter, row: landing.savedRow,
                            reopeningDetail: note == .savedFromDetail || landing.reopensDetail)
                if note == .savedFromCompanyList, presenter.place.selectedID == recordID {
                    self?.listWireframe.reopenCompanyList(selecting: recordID, saying: "saved to \(name)")
                }
            }
        } else if let recordID = landing.recordID, let row = landing.savedRow {
            listWireframe.listPresenter?.whenSettled { [weak self] presenter in
                self?.landedAfterOthersChange(recordID, row: row, in: presenter, saying: said, reopening: keptScreen != nil)
            }
        }
    }

    /// The directory as it was is let go once the screens are off it: its
    /// memory goes back to the system (on 1M people, five saves left 790 MB
    /// resident without this, 560 with).
    private static func returnFreedMemorySoon() {
        Task.detached {
            try? await Task.sleep(for: .seconds(1))
            Platform.returnFreedMemory()
        }
    }

    /// The unsent edits and the marks as the re-read found them (marks by who they are).
    private func keepUnsentAndMarks(of reread: Reread, marked: Set<PersonID>) {
        if let unsent = reread.unsent { listWireframe.session.unsent = unsent }
        guard !marked.isEmpty else { return }
        listWireframe.session.unmarkAll()
        listWireframe.session.mark(reread.remarked)
    }

    /// `landing`, or where the user went if the selection moved while the
    /// source was read again (`RereadLanding.moved`).
    private func keepingMoves(_ landing: RereadLanding) -> RereadLanding {
        guard let list = listWireframe.listPresenter, list.selection != landing.savedRow else { return landing }
        return landing.moved(to: listWireframe.place)
    }

    /// Why the source could not be read again after `note`: what happened
    /// and why first, the source last (a long one is shortened, never the reason).
    private func sayUnread(_ error: LoadError, after note: ListScreenWireframe.SavedNote) {
        let why = MessageText.reason(error.message, target: sourceName)
        switch note {
        case .changedOnDisk, .reread, .refused, .sent, .reconnected, .toldByTheSource:
            listWireframe.say("changed, but could not be read again: \(why); the list shows it as it was — \(sourceName)")
        default:
            listWireframe.say("saved, but could not be read again: \(why) — \(sourceName)")
        }
    }

    /// After a delete from a company's list, once the main list has
    /// landed: that company's list again, at the row the selection was on
    /// (the person selected, if not deleted); the main list if the
    /// company has no one left.
    private func reopen(_ companyList: CompanyListPlace, in repository: any PeopleRepository, selecting recordID: String?,
                        saying said: String) {
        guard let companyID = repository.companies.firstIndex(where: { $0.name == companyList.company && $0.headcount > 0 }) else { return }
        listWireframe.listPresenter?.whenSettled { [weak self] _ in
            self?.listWireframe.reopenCompanyList(companyID, selecting: recordID, at: companyList.row, saying: said)
        }
    }

    /// A file's name, or a database's ("staff" of postgres://ann@db/staff?host=/run/pg).
    private func shortSourceName(isTable: Bool) -> String {
        let path = isTable ? sourceName.split(separator: "?", maxSplits: 1).first.map(String.init) ?? sourceName : sourceName
        return path.split(separator: "/").last.map(String.init) ?? sourceName
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

    /// A directory file, or a table (SQLite or PostgreSQL), is watched from now on:
    /// another program's change (another Roster's save, an editor, `sed
    /// -i`, `roster update`) is read again in place, the place kept by
    /// `_id`, as after a save.
    func watchForChanges(post: @escaping @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void) {
        if tableWatch == nil, let watch = sourceChanges?.watch {
            // A source that tells its own changes (a directory server's feed).
            watch.whenConnectionChanges { isUp in
                post { [weak self] in self?.listenerConnection(isUp: isUp) }
            }
            watch.start {
                post { [weak self] in self?.changedElsewhere() }
            }
            tableWatch = watch
        }
        if tableWatch == nil, let table = listWireframe.shownRepository as? SQLPeopleRepository {
            // A table: someone else's commit is read again the same way. The
            // watch is made off the main actor, and off Swift's cooperative
            // pool: it waits for the browse lane, which a statement may hold.
            DispatchQueue.global(qos: .userInitiated).async {
                guard let watch = table.changeWatch() else { return }
                // Its connection lost or back is a sign about the screen's own.
                watch.whenConnectionChanges { isUp in
                    post { [weak self] in self?.listenerConnection(isUp: isUp) }
                }
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
        guard let filePath else { return }
        // The file as last read, or as a save of ours left it (whose own
        // re-read shows it): nothing new. Anything else is someone else's,
        // however soon after ours it came.
        let now = FileIdentity(path: filePath)
        guard now != lastReading?.identity, !(now.map(FileSave.isOwnWrite) ?? false) else { return }
        changedElsewhere()
    }

    /// Someone else changed the source: read again as soon as that takes nothing from the user.
    private func changedElsewhere() {
        changedOnDisk = true
        // A table's chart reads the table itself; a file's would read its store, which is read again first.
        if listWireframe.shownRepository is SQLPeopleRepository { listWireframe.orgChartSourceChanged() }
        reloadIfDue()
    }

    /// Reads a file changed on disk again, once the list (or the org chart
    /// over it, which is read again too) is on top and idle; the event
    /// loop asks after every round.
    func reloadIfDue() {
        if let held = heldReread, mayLand(on: held.startedOn) {
            heldReread = nil
            held.show()
        }
        // Under a file's chart the file is read again at once: the chart is read from what was read (a table's reads itself).
        let chartWaitsForFile = listWireframe.isOrgChartOnTop && !(listWireframe.shownRepository is SQLPeopleRepository)
        // A person's screen over the list (nothing typed there) follows the change too: read, then open again on them.
        let personShown = root.depth == 2 ? listWireframe.detailOnTop : nil
        guard heldReread == nil, changedOnDisk, root.depth == 1 || chartWaitsForFile || personShown != nil,
              let presenter = listWireframe.listPresenter, presenter.isIdle else { return }
        changedOnDisk = false
        sourceSaved(recordID: personShown ?? listWireframe.place?.selectedID,
                    note: sourceChanges.map { .toldByTheSource($0.note()) } ?? .changedOnDisk, reopeningDetail: personShown != nil)
    }
}
