import RosterCore
import RosterTUI

/// Where a re-read lands once the list under it has settled: at the person
/// saved (their screen again if the save was made from it), or at the row
/// of someone who went, or on the person's screen that was open when
/// someone else's change came.
extension AppDependencies {
    /// After a save, once the list has landed: the person's screen again if
    /// the save was made from it; or, when the search on no longer matches
    /// the person saved, a word saying so (they are not lost, only hidden),
    /// the selection on the row they were on (`row`: their neighbour, as
    /// after a delete), not the top of the list.
    static func landed(on recordID: String, in presenter: ListPresenter, row: Int?, reopeningDetail: Bool) {
        // A database's rows load after the frame: who is selected is known once their row is read.
        guard presenter.selectedID != nil || presenter.peopleCount == 0 else {
            return presenter.whenSelectionRead { landed(on: recordID, in: $0, row: row, reopeningDetail: reopeningDetail) }
        }
        guard let selected = presenter.place.selectedID else { return }
        guard selected == recordID else {
            guard presenter.filter != nil else { return }
            if let row, presenter.displayed.count > 0 { presenter.select(position: min(row, presenter.displayed.count - 1)) }
            presenter.say("saved; they no longer match the search (Esc shows everyone)")
            return
        }
        if reopeningDetail { presenter.openSelected() }
    }

    /// Someone else's change read again, the list settled: the person's
    /// screen that was open again on them (`reopening`), or, if they went,
    /// the list at their row, now their neighbour's, not the top.
    func landedAfterOthersChange(_ recordID: String, row: Int, in presenter: ListPresenter, saying said: String, reopening: Bool) {
        // A database's rows come after the frame: who is selected is known once their row is read.
        guard presenter.selectedID != nil || presenter.peopleCount == 0 else {
            return presenter.whenSelectionRead { [weak self] presenter in
                self?.landedAfterOthersChange(recordID, row: row, in: presenter, saying: said, reopening: reopening)
            }
        }
        guard let selected = presenter.place.selectedID, presenter.displayed.count > 0 else { return }
        if selected == recordID {
            guard reopening else { return }
            presenter.openSelected()
            return listWireframe.detailWireframe?.say(said) ?? ()
        }
        presenter.select(position: min(row, presenter.displayed.count - 1))
        presenter.say(said)  // the move drew a frame of its own: what happened is still to be read
    }

    /// Takes `screen` (kept up while the list was made again) off the top.
    func drop(_ screen: ScreenView) {
        if root.topView === screen { root.pop() }
    }
}
