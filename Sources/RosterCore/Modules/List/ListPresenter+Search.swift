import Foundation

/// The list's search: the prompt, each keystroke's search in the background,
/// and the filter it leaves.
extension ListPresenter: ListSearchInput {
    public func beginSearch() {
        search.begin(selected: selectedID, history: history.entries(for: .search))
        // Opened on a search that failed (a lock since released): it runs again.
        if let retry = search.retryFailed() { return run(retry) }
        render()
    }

    public func editSearch(_ text: String) {
        run(search.replace(with: text))
    }

    public func editPrompt(_ edit: LineEdit) {
        if exportFlow.apply(edit) {
            render()
        } else if search.isEditing {
            run(search.apply(edit))
        }
    }

    /// Shows the prompt as edited and runs the search it asks for, if any
    /// (none: the last good result stays).
    func run(_ request: ListSearch.Request?) {
        guard let request, interactor.runsSearches else { return render() }
        let searched = ordersMade
        searchesAsked += 1
        let asked = searchesAsked
        render()  // the prompt as edited, and that its search is coming
        interactor.search(request.query, in: everyone, within: request.within, then: { [weak self] result in
            guard let self else { return }
            self.searchesAnswered = max(self.searchesAnswered, asked)
            defer { self.sayMessageAfterWorkIfDone() }
            // A new order landed meanwhile: the matches, in that order.
            self.showSearchResult(searched == self.ordersMade ? result : self.interactor.reapply(result, to: self.everyone))
        }, failed: { [weak self] reason in
            // The list keeps the last good result; the prompt (or, closed,
            // the status line) says why this one is not shown.
            guard let self else { return }
            self.searchesAnswered = max(self.searchesAnswered, asked)
            self.search.failure = "search failed: " + reason
            if !self.search.isEditing { self.message = self.search.failure }
            self.render()
        })
    }

    public func commitSearch() {
        // Enter on a query with an error keeps the prompt open on it.
        guard let text = search.commit() else {
            render()
            return
        }
        history.record(text, for: .search)
        // A search that failed leaves the filter as it was: the status line says why.
        if let failure = search.failure { message = failure }
        if SearchQuery(text).isEmpty { clearSearch() } else { render() }
    }

    public func cancelSearch() {
        let cancelled = search.cancel()
        if let person = cancelled.selection { selectedPerson = person }
        guard let before = cancelled.restoring else {
            clearSearch()
            return
        }
        // Laid over `everyone` again: a sort may have finished meanwhile.
        interactor.cancelSearches()
        searchesAnswered = searchesAsked
        showSearchResult(interactor.reapply(before, to: everyone))
    }

    func clearSearch() {
        search.clear()
        interactor.cancelSearches()
        searchesAnswered = searchesAsked
        // Nothing narrowed the list (Esc on a prompt that found nothing
        // yet): it shows everyone already, the selection where it was.
        guard filter != nil || displayed != everyone else { return render() }
        showSearchResult(nil)
        render()  // the prompt closes now, the list follows once the selection is placed
    }

    /// Narrows the list to `text` without the prompt (`--filter`, a
    /// company's list opened under a filter); nil or empty clears it.
    public func applyFilter(_ text: String?) {
        guard let text, !SearchQuery(text).isEmpty else {
            clearSearch()
            return
        }
        // Filters come checked (`--filter`, another list's filter); a bad
        // one leaves the list as it is.
        guard SearchQuery(text).error == nil else { return }
        editSearch(text)
        search.close()
        render()
    }

    /// The filter in force (the last finished search), if any.
    public var filter: String? { search.filter }

    /// The company of the selected person (the overview opens on it).
    /// The selected person's company: from their row, or, grouped by
    /// company, from the section they are in (a row not read yet still
    /// opens the overview on their company).
    public var selectedCompanyID: Int? {
        if let row = selectedRow { return row.companyID }
        guard isGroupedByCompany, peopleCount > 0 else { return nil }
        return displayed.sections[displayed.sectionIndex(containing: selection)].companyID
    }

    /// The selected person's row, if anyone is shown.
    var selectedRow: ListedPerson? { window.loadedRow(at: selection) }
}
