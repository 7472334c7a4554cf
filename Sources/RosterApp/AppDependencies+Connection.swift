import RosterCore
import RosterSQL

/// A live directory whose connection breaks and comes back: edits kept in
/// the outbox meanwhile, the screen read again when it is back, and the
/// change listener's connection taken as a sign about the screen's.
extension AppDependencies {
    /// How the screens edit a server's table: to the server while the
    /// connection works, to the outbox (and the offline copy) while it is
    /// lost. Nil where there is no outbox (a file, SQLite, standard input).
    func editingThatCanBeLost(_ repository: any PeopleRepository) -> (any PeopleEditing)? {
        guard let outbox, let offlineCopy, let connection = repository.connection, !connection.isLocal,
              let live = repository as? any PeopleEditing & OutboxDestination else { return nil }
        return OutboxFallbackEditing(live: live, connection: connection,
                                     offline: OutboxEditing(outbox: outbox, copyPath: offlineCopy.snapshot.path, copyIsShown: false),
                                     keptOffline: keptOffline)
    }

    /// A server's table is on screen (opened, or in the offline copy's
    /// place): while its connection is lost, whole people are read from
    /// the offline copy, and edits made offline are sent now.
    func wentLive(_ table: SQLPeopleRepository) {
        if let offlineCopy { table.keepLastSeen(OfflineCopyLookup(path: offlineCopy.snapshot.path)) }
        sendOutbox(to: table)
    }

    /// The connection is back (the watcher, or `r`): the edits kept in the
    /// outbox meanwhile are sent, and what the screen shows is read again
    /// (its summary and rows: what changed while away shows), saying
    /// `said` once it lands. False over the offline copy (its way back is
    /// the live directory in its place), a source with no connection, or
    /// before the event loop runs (nothing to read in the background with).
    func readAgain(saying said: String) -> Bool {
        guard post != nil, let shown = listWireframe.shownRepository, shown.connection != nil, !(shown is OfflineCopyRepository) else {
            return false
        }
        if let table = shown as? SQLPeopleRepository, outbox != nil, listWireframe.session.unsent.count > 0 {
            sendOutbox(to: table, reconnected: said == Reconnection.reconnected)
        } else {
            sourceSaved(recordID: listWireframe.place?.selectedID, note: .reconnected(said))
        }
        return true
    }

    /// A save went to the outbox: the list marks the person `⇡` and says
    /// so; nothing is read (the connection is lost). Back meanwhile, the
    /// outbox is sent at once.
    func landOffline(_ note: ListScreenWireframe.SavedNote) {
        let unsent = outbox?.unsent() ?? UnsentEdits()
        unsentChanged(unsent)
        listWireframe.say(Self.said(after: note, in: sourceName, isOffline: true, unsent: unsent, isTable: true))
        if let table = listWireframe.shownRepository as? SQLPeopleRepository, !table.isConnectionLost { sendOutbox(to: table) }
    }

    /// A reconnect's read has landed with edits in the outbox that nothing
    /// is sending: saved offline while the connection came back (the
    /// reconnect found none to send yet, and the save found it still
    /// lost). They are sent now, not at the end of the next outage.
    func sendOutboxLeftBehind() {
        guard listWireframe.session.unsent.count > 0, let table = listWireframe.shownRepository as? SQLPeopleRepository,
              !table.isConnectionLost else { return }
        sendOutbox(to: table)
    }

    /// The change listener's own connection was lost (`isUp` false): the
    /// screen's is read over, off the main actor, and found lost if it
    /// went too (the title says so at once, and the watcher starts its
    /// tries). Back (`isUp` true): the server answers, so a lost
    /// connection is tried at once rather than at the next backoff step.
    func listenerConnection(isUp: Bool) {
        guard !isUp else { return connectionWatcher?.tryNow() ?? () }
        guard let connection = listWireframe.shownRepository?.connection else { return }
        makeSearcher().perform({ connection.checkConnection() }) { [weak self] works in
            if !works { self?.connectionWatcher?.tryNow() }
        }
    }
}
