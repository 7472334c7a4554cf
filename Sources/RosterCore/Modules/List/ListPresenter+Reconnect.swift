import Foundation

/// The list over a connection: `r`, the watcher's tries, the live directory
/// in the offline copy's place.
extension ListPresenter {
    /// `r`: a source over a connection connects again (or, when it was not
    /// known to be lost, is read over first), and what the list shows is
    /// read again at the same place; on failure the screen keeps what it
    /// has and says why in one line.
    public func reconnect() {
        message = Reconnection.inProgress
        render()
        interactor.reconnect { [weak self] said, reconnected in
            guard let self else { return }
            guard reconnected else {
                self.message = said
                return self.render()
            }
            self.sayReconnected(said)
        }
    }

    /// Has the source read again whole by the wireframe (which says
    /// `said` once it lands); else says `said`, a redraw fetches the rows
    /// that were not, and the overview or counts over this list (if open)
    /// count again: what they read while the connection was lost is read now.
    func sayReconnected(_ said: String) {
        if wireframe?.readAgain(saying: said) == true { return }
        window = makeWindow()
        rows = makeRows()
        message = said
        // A search that failed meanwhile runs again.
        if let retry = search.retryFailed() { run(retry) } else { render() }
        wireframe?.filterDidChange(shown: displayed, filter: filter)
    }

    /// The connection was tried again on its own (the app's watcher, with
    /// backoff). A success reads the source again and says "reconnected;
    /// read again". A failure says nothing: the title already says
    /// the connection is lost, and a message every few seconds would push
    /// the position and filter off the status line (`r` says why).
    public func reconnectedOnItsOwn(_ attempt: ReconnectAttempt) {
        switch attempt {
        case .lost:
            // The title says so; a message that it was back is no longer true.
            if messageShown.map(Reconnection.saysConnected) == true { messageShown = nil }
            refresh()
        case .reconnected: sayReconnected(Reconnection.reconnected)
        case .recovered:
            // A lock or a slow spell is over: the title is back to normal,
            // rows not read are read again, and a search it stopped runs
            // again (its failure was said; its result now shows).
            window = makeWindow()
            rows = makeRows()
            if let retry = search.retryFailed() { run(retry) } else { refresh() }
        case .failed: break
        }
    }

    /// The list shows the live directory in place of its offline copy (at
    /// the same person, order and filter, with the same people marked);
    /// `marksNotFound` marked people of the copy are not in it. Said once
    /// the order and filter being applied have landed.
    public func wentLive(marksNotFound: Int) {
        let said = "reconnected: live again"
            + (marksNotFound > 0 ? " (\(NumberText.count(marksNotFound, "marked person", "marked people")) not found)" : "")
        if hasWorkInFlight {
            messageAfterWork = said
        } else {
            message = said
            render()
        }
    }
}
