import Foundation

/// The list's order and grouping, and how a new order or a search's result
/// is shown (the selected person kept, keys typed meanwhile held).
extension ListPresenter: ListOrderInput {
    public func cycleSortOrder() {
        rearrange(sort: listColumns.nextSort, byCompany: isGroupedByCompany)
    }

    public func reverseSortOrder() {
        rearrange(sort: sortOrder.reversed(), byCompany: isGroupedByCompany)
    }

    /// Sorts by `column` (the column chooser's `s`), ascending; the column
    /// already sorted on turns the other way.
    public func sort(by column: ListColumn) {
        let isSorted = ListColumn.sorted(by: sortOrder.key) == column
        rearrange(sort: isSorted ? sortOrder.reversed() : SortOrder(column.sortKey), byCompany: isGroupedByCompany)
    }

    /// Orders the list by `sort` (`--sort`), starting at its first person
    /// unless `selectingFirst` is false (a remembered person to go back to).
    public func applySortOrder(_ sort: SortOrder, selectingFirst: Bool = true) {
        guard sort != sortOrder else { return }
        rearrange(sort: sort, byCompany: isGroupedByCompany)
        if selectingFirst { selectFirst() }
    }

    /// While a new order is sorted off the main actor, a key that moves by
    /// position waits for it: `s` then `g` goes to the top of the new order,
    /// however fast they were typed. True when `intent` was put off.
    func waitForArrangement(_ intent: @escaping @MainActor (ListPresenter) -> Void) -> Bool {
        guard isArranging || isPlacing || isFindingPlace else { return false }
        waitingForArrangement.append(intent)
        return true
    }

    public func toggleGrouping() {
        rearrange(sort: sortOrder, byCompany: !isGroupedByCompany)
    }

    /// Sorts (off the main actor) and shows the result, keeping the
    /// selected person selected and the search applied.
    func rearrange(sort: SortOrder, byCompany: Bool) {
        guard interactor.runsSearches else { return }
        sortOrder = sort
        isGroupedByCompany = byCompany
        isArranging = true
        // The selected person's row not read yet (a database, right after
        // G): the new order reads who is there, rather than keeping
        // whoever was selected before.
        let unread = selectedID == nil && peopleCount > 0 ? UnreadSelection(arrangement: displayed, position: selection) : nil
        render()
        interactor.arrange(sort: sort, byCompany: byCompany, company: everyone.company) { [weak self] arranged in
            guard let self, self.sortOrder == sort, self.isGroupedByCompany == byCompany else { return }
            // A company's list asked for its company only: the new order keeps to it.
            self.everyone = arranged
            self.ordersMade += 1
            self.isArranging = false
            self.showSearchResult(self.search.result.map { self.interactor.reapply($0, to: arranged) }, selectedAt: unread)
        }
    }

    /// The keys that waited for a new order or a result to be placed act now.
    /// Runs `body` once the selected row is read (a database's rows come
    /// after the frame): at once if it is; never if the selection moves first.
    public func whenSelectionRead(_ body: @escaping @MainActor (ListPresenter) -> Void) {
        selectionWaiters.append((selection, body))
        runSelectionWaiters()
    }

    func runSelectionWaiters() {
        guard selectedID != nil || peopleCount == 0 else { return }
        let waiting = selectionWaiters
        selectionWaiters = []
        for waiter in waiting where waiter.selection == selection { waiter.body(self) }
    }

    func runWaitingIntents() {
        runSelectionWaiters()
        guard !isArranging, !isPlacing, !isFindingPlace else { return }
        let waiting = waitingForArrangement
        waitingForArrangement = []
        for intent in waiting { intent(self) }
        sayMessageAfterWorkIfDone()
    }

    /// Shows a finished search, keeping the selected person if they match.
    /// A person a search lands on is shown: their company opens if it was
    /// collapsed.
    ///
    /// Where the selected person lands, and how many companies a flat list
    /// shows, are read first (off the main actor from a source that may
    /// wait); keys typed meanwhile wait, and a newer result supersedes.
    func showSearchResult(_ result: PeopleArrangement?, selectedAt unread: UnreadSelection? = nil) {
        let selected = rememberedPerson ?? (unread == nil ? selectedPerson ?? selectedID : nil)
        let shown = result.flatMap { $0.query.map { $0.isEmpty } ?? true ? nil : $0 } ?? everyone
        resultAsked = result
        placementsAsked += 1
        let asked = placementsAsked
        interactor.placement(of: selected, orAt: unread, in: shown, byCompany: isGroupedByCompany) { [weak self] placement in
            guard let self, asked == self.placementsAsked else { return }
            self.placementsShown = asked
            self.rememberedPerson = nil
            self.show(result, placed: placement)
            self.runWaitingIntents()
            self.sayMessageAfterWorkIfDone()
        }
    }

    var isPlacing: Bool { placementsShown != placementsAsked }

    func show(_ result: PeopleArrangement?, placed: ListPlacement) {
        let previousFilter = filter
        let searchResult = search.show(result)
        displayed = searchResult ?? everyone
        selection = placed.position ?? 0
        if searchResult != nil, filter != previousFilter, peopleCount > 0,
           let company = displayed.sections[displayed.sectionIndex(containing: selection)].companyID {
            collapsedCompanies.remove(company)
        }
        rows = makeRows()
        markedShown = nil
        markedBeingCounted = nil
        shownCompanyCount = placed.companies
        render()
        if filter != previousFilter { wireframe?.filterDidChange(shown: displayed, filter: filter) }
    }

    public func chooseColumns() {
        wireframe?.navigate(to: .columns(session.columns, sorted: ListColumn.sorted(by: sortOrder.key)))
    }
}
