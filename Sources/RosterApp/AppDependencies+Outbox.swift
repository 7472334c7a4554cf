import RosterCore
import RosterSQL

/// Edits made offline, sent once the server answers: the list read again
/// to show them, and each one refused for a conflict on its own screen.
extension AppDependencies {
    /// Edits made offline go to the server `live`, off the main actor
    /// (`OutboxSender`); then the list is read again to show them and says
    /// what was sent, and each person someone changed on the server
    /// meanwhile opens on the conflict screen, one after another.
    /// `reconnected`: the connection just came back; said before what was
    /// sent, and the list read again even if nothing was.
    func sendOutbox(to live: SQLPeopleRepository, reconnected: Bool = false) {
        guard let outbox, listWireframe.session.unsent.count > 0 else { return }
        listWireframe.say("sending the edits made offline…")
        // The search the list is going back to: kept through the re-read even if its answer is lost meanwhile.
        let filter = listWireframe.filter
        makeSearcher().perform({ (OutboxSender.send(outbox, to: live.outboxWriter()), outbox.unsent()) }) { [weak self] sent in
            guard let self else { return }
            let (report, unsent) = sent
            self.unsentChanged(unsent)
            self.heldEdits = report.held
            if report.stopped == nil { self.outboxRetries = 0 } else { self.outboxStopped(on: live) }
            if report.isEmpty {
                guard reconnected else { return self.listWireframe.say("nothing to send") }
                return self.sourceSaved(recordID: self.listWireframe.place?.selectedID, note: .reconnected(Reconnection.reconnected))
            }
            // Stopped by the connection going again: not said to be back.
            let summary = (reconnected && report.stopped == nil ? "reconnected; " : "") + report.summary
            // Stopped before anything was sent (the connection went again): nothing new
            // to read; the reconnect reads, and sends the rest. The title says it is lost.
            if report.stopped != nil, report.sent + report.alreadyApplied == 0, report.held.isEmpty, report.refused.isEmpty {
                return self.listWireframe.say(summary)
            }
            // Said now, under the conflict screen if one opens: said again once it closes.
            let sent = report.summary(mentioningHeld: false)
            self.sendingNote = report.held.isEmpty || sent.isEmpty ? nil : sent
            // Read again from where the list is once it has landed (the place and search it
            // was going back to, not its top), then the conflict screens over it.
            let readAgain: @MainActor (ListPresenter?) -> Void = { [weak self] presenter in
                // A search whose answer was lost meanwhile is asked again: a re-read begun later (a conflict settled) takes it up.
                if let filter, let presenter, presenter.filter == nil, presenter.pendingFilter == nil { presenter.applyFilter(filter) }
                self?.sourceSaved(recordID: presenter?.place.selectedID, note: .sent(summary), filter: filter)
                self?.settleNextHeldEdit(on: live)
            }
            guard let presenter = self.listWireframe.listPresenter else { return readAgain(nil) }
            presenter.whenSettled(readAgain)
        }
    }

    /// The sending stopped on an error: its own connection ended (a
    /// terminated backend's does) with nothing to tell the watcher, and the
    /// screen's may have gone with it unseen (no read since). That one is
    /// read over, off the main actor: gone, the watcher reconnects at once,
    /// and the reconnect sends the rest; still there, the rest is sent again
    /// (over a connection of its own) after 1, 2, 4, 8 and 16 s, then left
    /// for the next reconnect.
    func outboxStopped(on live: SQLPeopleRepository) {
        guard let connection = live.connection else { return }
        makeSearcher().perform({ connection.checkConnection() }) { [weak self] works in
            guard let self else { return }
            guard works else { return self.connectionWatcher?.tryNow() ?? () }
            guard self.outboxRetries < 5 else { return }
            self.outboxRetries += 1
            self.makeSearcher().after(.seconds(1 << (self.outboxRetries - 1))) { [weak self] in
                guard let self, let shown = self.listWireframe.shownRepository as? SQLPeopleRepository, shown === live,
                      !shown.isConnectionLost else { return }
                self.sendOutbox(to: shown)
            }
        }
    }

    /// The people with edits not sent, as the outbox has them now: marked so on every list.
    func unsentChanged(_ unsent: UnsentEdits) {
        listWireframe.session.unsent = unsent
        listWireframe.listPresenter?.marksMayHaveChanged(keepingMessage: true)
    }

    /// "; sent from the outbox: …" once no conflict screen is left, else "".
    func takeSendingNote(after note: ListScreenWireframe.SavedNote) -> String {
        guard let sendingNote, heldEdits.isEmpty, root.depth == 1 else { return "" }
        self.sendingNote = nil
        if case .sent = note { return "" }
        return "; earlier: " + sendingNote
    }

    /// The next held edit on the conflict screen. Saved there (theirs chosen
    /// too), or thrown away, it leaves the outbox; quitting on the screen
    /// leaves it there, for the next sending.
    private func settleNextHeldEdit(on live: SQLPeopleRepository) {
        guard let outbox, !heldEdits.isEmpty else { return }
        let held = heldEdits.removeFirst()
        let editing = SettlingEditing(live: live, outbox: outbox, operations: held.operations)
        listWireframe.resolve(held, editing: editing) { [weak self] in
            guard let self else { return }
            self.makeSearcher().perform({ () -> UnsentEdits in
                _ = outbox.remove(held.operations)
                return outbox.unsent()
            }) { [weak self] unsent in self?.unsentChanged(unsent) }
            self.settleNextHeldEdit(on: live)
        }
    }
}
