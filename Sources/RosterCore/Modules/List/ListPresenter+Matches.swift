/// `n` and `N`: the next and previous match, as in less and vim. Under a
/// filter every person shown matches, so they step through the list; with
/// none (after Esc), through the people who match the last search, in
/// the list's order. At the end they stay put and say so, as less does
/// (and as `[` `]` do here): a list has a top and a bottom a key away
/// (`g`, `G`), and a jump round to the other end would lose the place.
extension ListPresenter: ListMatchInput {
    public func showMatch(forward: Bool) {
        if waitForArrangement({ $0.showMatch(forward: forward) }) { return }
        guard peopleCount > 0 else {
            message = "nobody shown to move to"
            return render()
        }
        if filter != nil { return stepThroughFilter(forward: forward) }
        guard let text = lastSearch else {
            message = "no search yet: n and N follow the last / search"
            return render()
        }
        findMatch(text, forward: forward)
    }

    /// The search `n` looks for with no filter in force: this list's last,
    /// else the last one typed in the session (its prompt's history).
    var lastSearch: String? {
        (search.lastQuery ?? history.entries(for: .search).last).flatMap { SearchQuery($0).isEmpty ? nil : $0 }
    }

    /// Under a filter: the next (previous) person shown, a company folded
    /// with Space opening to show them.
    private func stepThroughFilter(forward: Bool) {
        let target = selection + (forward ? 1 : -1)
        guard target >= 0, target < peopleCount else {
            message = forward ? "no more matches below" : "no more matches above"
            return render()
        }
        reveal(position: target)
    }

    /// With no filter: asks, in the background, for the next person after
    /// the selection who matches `text`; keys typed meanwhile wait for them.
    private func findMatch(_ text: String, forward: Bool) {
        let query = SearchQuery(text)
        guard query.error == nil else {
            message = "the last search, '\(DisplayText.sanitized(text))', is not a query"
            return render()
        }
        let everyone = self.everyone
        matches.isFinding = true
        // Searched once: found again at once, or (the filter just cleared) within that filter's result.
        let searched = matches.matches(of: text, in: everyone).map(Searched.found) ?? .within(search.earlierResult(narrowedBy: query))
        interactor.findMatch(query, in: everyone, searched: searched, from: selection, forward: forward) { [weak self] found in
            guard let self else { return }
            self.matches.isFinding = false
            defer {
                self.runWaitingIntents()
                self.sayMessageAfterWorkIfDone()
            }
            // A new order or filter since: what was found is of another list.
            guard self.everyone == everyone, self.filter == nil else { return self.render() }
            self.matches.remember(found.matches, of: text, in: everyone)
            self.showFound(found, of: text, forward: forward)
        }
    }

    private func showFound(_ found: FoundMatch, of text: String, forward: Bool) {
        let quoted = "'\(DisplayText.sanitized(text))'"
        switch found.place {
        case .success(let place?):
            message = "\(quoted): match \(NumberText.grouped(place.index + 1)) of \(NumberText.grouped(place.count))"
            reveal(position: place.position)
        case .success(nil):
            message = found.matches?.isEmpty == true ? "no one matches \(quoted)" : "no more matches \(forward ? "below" : "above") for \(quoted)"
            render()
        case .failure(let error):
            message = "could not look for \(quoted): \(DisplayText.sanitized(error.reason))"
            render()
        }
    }
}
