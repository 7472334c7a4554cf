import Foundation

/// `m`, `M`, `u`, `y` and `Y`: marks, and copying the marked people.
extension ListPresenter: ListMarkingInput {

    // MARK: Marks and copying

    public func toggleMark() {
        if waitForArrangement({ $0.toggleMark() }) { return }
        guard let id = selectedID else { return }
        session.toggleMark(id)
        moveSelection(by: 1)
    }

    /// `M`: marks everyone shown, their ids read off the main actor from a
    /// source that may wait; keys typed meanwhile act once they are marked.
    public func markAllShown() {
        if waitForArrangement({ $0.markAllShown() }) { return }
        isMarkingAll = true
        render()
        interactor.personIDs(in: displayed) { [weak self] ids in
            guard let self else { return }
            self.isMarkingAll = false
            switch ids {
            case .success(let ids): self.session.mark(ids)
            case .failure(let error): self.message = "nobody marked: \(error.reason)"
            }
            self.render()
        }
    }

    public func unmarkAll() {
        session.unmarkAll()
        render()
    }

    /// Marks made in another list (a company's) show here too.
    /// `keepingMessage`: the message of the last frame stays (a mark that
    /// changed by itself, as an outbox line sent, is no reason to drop it).
    public func marksMayHaveChanged(keepingMessage: Bool = false) {
        if keepingMessage, message == nil { message = messageShown }
        render()
    }

    public func copyAddresses() {
        readPeopleToCopy { $0.copyAddresses(of: $1) }
    }

    private func copyAddresses(of people: [Person]) {
        let list = ClipboardText.addressList(people)
        if list.text.isEmpty {
            message = people.count == 1 ? "no email to copy" : "none of them has an email"
        } else if !ClipboardText.fits(list.text) {
            message = ClipboardText.tooMuchMessage(list.text)
        } else if let delivery = clipboard?.copy(list.text) {
            message = ClipboardText.addressesCopiedMessage(list, of: people.count, delivery: delivery)
        } else {
            message = "could not copy"
        }
        render()
    }

    public func copyVCards() {
        readPeopleToCopy { $0.copyVCards(of: $1) }
    }

    private func copyVCards(of people: [Person]) {
        let cards = ClipboardText.vCards(people)
        if !ClipboardText.fits(cards.text) {
            message = ClipboardText.tooMuchMessage(cards.text)
        } else if let delivery = clipboard?.copy(cards.text) {
            message = ClipboardText.copiedMessage(NumberText.count(people.count, "vCard", "vCards"), leftOut: ClipboardText.removedCount(cards.removed), delivery: delivery)
        } else {
            message = "could not copy"
        }
        render()
    }

    /// Reads the marked people, else the selected one (off the main actor
    /// from a source that may wait), and hands them to `copy`; nobody, nothing.
    func readPeopleToCopy(_ copy: @escaping @MainActor (ListPresenter, [Person]) -> Void) {
        let selected = selectedID
        if session.marked.isEmpty, selected == nil, peopleCount > 0 {
            switch window.row(at: selection) {
            case .loading:
                // Not read yet (a database's row, just after G or a re-read): it goes on once it is, never dropped.
                waitingForArrangement.append { $0.readPeopleToCopy(copy) }
                return
            case .failed(let error):
                message = "the selected row could not be read: \(error.reason)"
                return render()
            case .loaded:
                break
            }
        }
        guard !session.marked.isEmpty || selected != nil else { return }
        interactor.peopleToCopy(marked: session.marked, orderedBy: everyone, selected: selected) { [weak self] people in
            guard let self else { return }
            switch people {
            case .success(let people) where !people.isEmpty: copy(self, people)
            case .success: break
            case .failure(let error):
                self.message = "nothing copied: \(error.reason)"
                self.render()
            }
        }
    }

    /// "3 marked"; "3 marked (1 shown)" when the list shows fewer of them
    /// ("(… shown)" while a source that may wait counts them).
    var marksLabel: String? {
        let count = session.marked.count
        guard count > 0 else { return nil }
        countMarkedShown()
        guard let shown = markedShown, shown.version == session.marksVersion else {
            return "\(NumberText.grouped(count)) marked (… shown)"
        }
        guard let shownCount = shown.count else { return "\(NumberText.grouped(count)) marked (? shown)" }
        return "\(NumberText.grouped(count)) marked" + (shownCount == count ? "" : " (\(NumberText.grouped(shownCount)) shown)")
    }

    /// Counts how many marked people the list shows, unless counted (or
    /// being counted) for these marks and this list.
    func countMarkedShown() {
        let version = session.marksVersion
        guard markedShown?.version != version, markedBeingCounted != version else { return }
        if displayed.count == interactor.personCount {  // everyone is shown: nothing to count
            markedShown = (version, session.marked.count)
            return
        }
        markedBeingCounted = version
        let shown = displayed
        interactor.markedCount(of: session.marked, in: shown) { [weak self] count in
            guard let self, self.markedBeingCounted == version, self.displayed == shown else { return }
            self.markedBeingCounted = nil
            // Not counted (the source failed): said as "? shown", not tried
            // again on every frame; the next change of marks or list counts again.
            self.markedShown = (version, count)
            if self.view != nil, !self.isInRender { self.refresh() }
        }
    }
}
