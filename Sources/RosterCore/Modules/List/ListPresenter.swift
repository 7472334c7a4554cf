import Foundation

/// Turns a grouped directory into list view models and user intents into
/// selection changes and routes. Holds its view weakly; knows no ncurses.
@MainActor
public final class ListPresenter: ListModuleInterface {
    private weak var view: ListViewInterface?
    private weak var wireframe: ListWireframe?
    private let repository: any PeopleRepository
    /// Everyone (of a company's list: the company), grouped and sorted.
    private var everyone: PeopleArrangement
    /// Counts the orders `everyone` has had, so a search that started on
    /// an older one is reapplied to the newer.
    private var ordersMade = 0
    /// A new order is being sorted; these intents wait for it.
    private var isArranging = false
    private var waitingForArrangement: [@MainActor (ListPresenter) -> Void] = []
    public private(set) var sortOrder: SortOrder
    public private(set) var isGroupedByCompany: Bool
    /// What the list shows: everyone, or the people the search matched.
    public private(set) var displayed: PeopleArrangement {
        didSet { window = makeWindow() }
    }
    /// The rows of `displayed` read so far (a database's are read off the
    /// main actor, and drawn as loading until they come).
    private var window: ListWindow
    private var rows: ListRows
    private let searcher: ListSearchScheduling?
    /// The search prompt and the filter in force.
    private var search = ListSearch()
    /// What each prompt accepted earlier this session (↑ recalls it).
    private let history: PromptHistory
    /// Display position of the selected person.
    public private(set) var selection = 0
    /// Companies whose people are hidden (Space), by company id.
    public private(set) var collapsedCompanies: Set<Int> = []
    /// The selected person (file position), remembered while a search hides
    /// everyone, so that clearing the search goes back to them.
    private var selectedPerson: PersonID?

    /// What a list pushed over another screen is of; nil for the main list.
    private let scope: ListScope?
    /// The breadcrumb after the source's name ("COMGY").
    private var scopeTitle: String? { scope?.title }

    /// The export's name prompt, question and file name.
    private let exportFlow: ListExportFlow
    private var message: String?
    /// A message that waits for the search or new order in flight, to show
    /// with its result (a message shows for one frame: the result's frame
    /// would wipe one said before it).
    private var messageAfterWork: String?
    /// Searches asked for, and the last one whose result was shown (a newer
    /// search supersedes an older, whose result never comes): a search is
    /// in flight while they differ.
    private var searchesAsked = 0
    private var searchesAnswered = 0
    /// Marks and columns, shared with the session's other lists.
    private let session: ListSession
    private let clipboard: Clipboard?
    /// How many marked people `displayed` shows, as of a marks version
    /// (nil: to count again).
    private var markedShown: (version: Int, count: Int)?

    /// Shows `arrangement` (its order and grouping are the list's; a
    /// company's list opens in the order its parent list had);
    /// `scope` says what a list pushed over another screen is of.
    public init(repository: any PeopleRepository, arrangement: PeopleArrangement, wireframe: ListWireframe,
                searcher: ListSearchScheduling? = nil, exportWriter: ExportWriting? = nil,
                scope: ListScope? = nil, history: PromptHistory? = nil, session: ListSession? = nil,
                clipboard: Clipboard? = nil) {
        self.repository = repository
        // Made here, not as a default argument: those run outside the main
        // actor (the fuzzers' one-module build rejects that).
        self.history = history ?? PromptHistory()
        self.session = session ?? ListSession()
        self.clipboard = clipboard
        exportFlow = ListExportFlow(writer: exportWriter, history: self.history, reader: searcher)
        sortOrder = arrangement.sort
        isGroupedByCompany = arrangement.byCompany
        self.scope = scope
        everyone = arrangement
        displayed = arrangement
        self.wireframe = wireframe
        self.searcher = searcher
        window = ListWindow(arrangement, repository: repository, readsWhileDrawing: searcher == nil || repository.readsAtOnce)
        rows = ListRows(window)
        exportFlow.written = { [weak self] said in
            self?.quitWarned = false
            self?.message = said
            self?.render()
        }
    }

    /// A window on `displayed`: a source that may wait is read in the
    /// background (a list with none, in tests, reads while drawing).
    private func makeWindow() -> ListWindow {
        ListWindow(displayed, repository: repository, readsWhileDrawing: searcher == nil || repository.readsAtOnce)
    }

    public var peopleCount: Int { displayed.count }

    public var hasWorkInFlight: Bool { isArranging || isPlacing || isMarkingAll || searchesAnswered < searchesAsked }

    /// The selected person, if anyone is shown.
    public var selectedID: PersonID? { window.loadedRow(at: selection)?.id }

    public func attach(view: ListViewInterface) {
        self.view = view
        render()
    }

    /// Selects the person at display `position` (coming back from detail).
    public func select(position: Int) {
        guard peopleCount > 0 else { return }
        selection = min(max(position, 0), peopleCount - 1)
        render()
    }

    /// Selects the person at `position` and opens their company if it was
    /// collapsed (coming back from the detail screen, which walks everyone shown).
    public func reveal(position: Int) {
        guard peopleCount > 0 else { return }
        let position = min(max(position, 0), peopleCount - 1)
        let section = displayed.sections[displayed.sectionIndex(containing: position)]
        if collapsedCompanies.remove(section.companyID) != nil {
            rows = makeRows()
        }
        select(position: position)
    }

    public func moveSelection(by delta: Int) {
        if waitForArrangement({ $0.moveSelection(by: delta) }) { return }
        guard !collapsedCompanies.isEmpty, peopleCount > 0 else {
            select(position: selection + delta)
            return
        }
        // With collapsed companies, a step over one lands on its header.
        var position = selection
        for _ in 0..<min(abs(delta), peopleCount) {
            let section = displayed.sectionIndex(containing: position)
            if delta > 0 {
                let next = isCollapsed(section) ? displayed.sections[section].range.upperBound : position + 1
                guard next < peopleCount else { break }
                position = next
            } else {
                guard position > 0 else { break }
                position -= 1
                let previous = displayed.sectionIndex(containing: position)
                if isCollapsed(previous) { position = displayed.sections[previous].range.lowerBound }
            }
        }
        select(position: position)
    }

    public func selectFirst() {
        if waitForArrangement({ $0.selectFirst() }) { return }
        select(position: 0)
    }

    public func selectLast() {
        if waitForArrangement({ $0.selectLast() }) { return }
        guard peopleCount > 0 else { return }
        let last = displayed.sections.count - 1
        select(position: isCollapsed(last) ? displayed.sections[last].range.lowerBound : peopleCount - 1)
    }

    public func openSelected() {
        if waitForArrangement({ $0.openSelected() }) { return }
        guard peopleCount > 0 else { return }
        if isCollapsed(displayed.sectionIndex(containing: selection)) {
            toggleSection()
            return
        }
        wireframe?.navigate(to: .detail(shown: displayed, position: selection))
    }

    public func toggleSection() {
        if waitForArrangement({ $0.toggleSection() }) { return }
        guard peopleCount > 0 else { return }
        let section = displayed.sections[displayed.sectionIndex(containing: selection)]
        if collapsedCompanies.remove(section.companyID) == nil {
            collapsedCompanies.insert(section.companyID)
            selection = section.range.lowerBound
        }
        rows = makeRows()
        render()
    }

    private func makeRows() -> ListRows {
        rowsMarksVersion = session.marksVersion
        return ListRows(window, collapsedCompanies: collapsedCompanies, marked: session.marked)
    }

    /// The marks `rows` show, as of this version of them.
    private var rowsMarksVersion = 0

    private func isCollapsed(_ section: Int) -> Bool {
        !collapsedCompanies.isEmpty && collapsedCompanies.contains(displayed.sections[section].companyID)
    }

    public func showSkippedRecords() {
        guard !repository.skippedRecords.isEmpty else {
            message = "no records were skipped"
            render()
            return
        }
        wireframe?.navigate(to: .skippedRecords)
    }

    /// `r`: a source over a connection connects again, and the rows it
    /// could not fetch are fetched as the list redraws at the same place;
    /// on failure the screen keeps what it has and says why in one line.
    public func reconnect() {
        message = Reconnection.inProgress
        render()
        Reconnection.attempt(repository, using: searcher ?? ReadingAtOnce()) { [weak self] said, reconnected in
            guard let self else { return }
            guard reconnected else {
                self.message = said
                return self.render()
            }
            self.sayReconnected(said)
        }
    }

    /// Says `said`; a redraw fetches the rows that were not, and the
    /// overview or counts over this list (if open) count again: what they
    /// read while the connection was lost is read now.
    private func sayReconnected(_ said: String) {
        window = makeWindow()
        rows = makeRows()
        message = said
        render()
        wireframe?.filterDidChange(shown: displayed, filter: filter)
    }

    /// The connection was tried again on its own (the app's watcher, with
    /// backoff). A success says "reconnected", and the redraw fetches the
    /// rows that were not. A failure says nothing: the title already says
    /// the connection is lost, and a message every few seconds would push
    /// the position and filter off the status line (`r` says why).
    public func reconnectedOnItsOwn(_ attempt: ReconnectAttempt) {
        guard attempt == .reconnected else { return }
        sayReconnected("reconnected")
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

    /// Says `messageAfterWork` once no search or new order is in flight.
    private func sayMessageAfterWorkIfDone() {
        guard let waiting = messageAfterWork, !hasWorkInFlight else { return }
        messageAfterWork = nil
        message = waiting
        render()
    }

    /// Quits; while an export is being written, the first `q` says so
    /// and a second quits without it (the file is left as it was).
    public func quit() {
        if let writing = exportFlow.writing, !quitWarned {
            quitWarned = true
            message = "still writing \(writing.name): q again quits without it"
            return render()
        }
        wireframe?.navigate(to: .quit)
    }

    /// The first `q` during an export was answered.
    private var quitWarned = false

    public func goBack() {
        wireframe?.navigate(to: .back(filter: filter))
    }

    public func showCompanies() {
        wireframe?.navigate(to: .companies(shown: displayed, filter: filter, selectedCompany: selectedCompanyID))
    }

    public func showCounts() {
        wireframe?.navigate(to: .counts(shown: displayed, filter: filter, field: SummaryField.matching(sortOrder.key)))
    }

    // MARK: Search

    public func beginSearch() {
        search.begin(selected: selectedID, history: history.entries(for: .search))
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
    private func run(_ request: ListSearch.Request?) {
        render()
        guard let request, let searcher else { return }
        let searched = ordersMade
        searchesAsked += 1
        let asked = searchesAsked
        searcher.search(request.query, in: everyone, within: request.within, repository: repository, completion: { [weak self] result in
            guard let self else { return }
            self.searchesAnswered = max(self.searchesAnswered, asked)
            defer { self.sayMessageAfterWorkIfDone() }
            // A new order landed meanwhile: the matches, in that order.
            self.showSearchResult(searched == self.ordersMade ? result : self.repository.reapply(result, to: self.everyone))
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
        searcher?.cancelPending()
        searchesAnswered = searchesAsked
        showSearchResult(repository.reapply(before, to: everyone))
    }

    private func clearSearch() {
        search.clear()
        searcher?.cancelPending()
        searchesAnswered = searchesAsked
        showSearchResult(nil)
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
    public var selectedCompanyID: Int? { selectedRow?.companyID }

    /// The selected person's row, if anyone is shown.
    private var selectedRow: ListedPerson? { window.loadedRow(at: selection) }

    // MARK: Export

    public func beginExport() {
        if let writing = exportFlow.writing {
            message = "one export at a time: still writing \(writing.name)"
            return render()
        }
        exportFlow.begin(sourceName: repository.sourceName, people: session.marked.isEmpty ? NumberText.count(displayed.count, "person", "people") : "\(NumberText.grouped(session.marked.count)) marked")
        message = nil
        render()
    }

    public func editExportName(_ name: String) {
        exportFlow.editName(name)
        render()
    }

    public func cancelExport() {
        exportFlow.cancel()
        render()
    }

    /// Enter on the file name: write, ask, or refuse, as `ExportDecision` rules.
    public func commitExport() {
        if waitForArrangement({ $0.commitExport() }) { return }
        if let said = exportFlow.commit({ exportContent }) { message = said }
        render()
    }

    public func confirmOverwrite(_ yes: Bool) {
        guard let said = exportFlow.confirm(yes, { exportContent }) else { return }
        message = said
        render()
    }

    /// What an export writes: what the list shows, or with marks the
    /// marked people (those a search hides too).
    private var exportContent: ExportContent {
        session.marked.isEmpty ? .shown(displayed, of: repository) : .marks(session.marked, of: repository, orderedBy: everyone)
    }

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
        let (shown, repository) = (displayed, self.repository)
        isMarkingAll = true
        render()
        repository.reads(through: searcher ?? ReadingAtOnce()).read({ MarkedPeople.ids(in: shown, repository: repository) }) { [weak self] ids in
            guard let self else { return }
            self.isMarkingAll = false
            self.session.mark(ids)
            self.render()
        }
    }

    /// `M` is reading the ids of everyone shown.
    private var isMarkingAll = false

    public func unmarkAll() {
        session.unmarkAll()
        render()
    }

    /// Marks made in another list (a company's) show here too.
    public func marksMayHaveChanged() {
        render()
    }

    public func copyAddresses() {
        let people = peopleToCopy
        guard !people.isEmpty else { return }
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
        let people = peopleToCopy
        guard !people.isEmpty else { return }
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

    /// The marked people, else the selected one.
    private var peopleToCopy: [Person] {
        if !session.marked.isEmpty { return markedPeople.people(orderedBy: everyone) }
        return selectedID.map { [repository.person($0)] } ?? []
    }

    private var markedPeople: MarkedPeople { MarkedPeople(repository: repository, marked: session.marked) }

    /// "3 marked"; "3 marked (1 shown)" when the list shows fewer of them
    /// ("(… shown)" while a source that may wait counts them).
    private var marksLabel: String? {
        let count = session.marked.count
        guard count > 0 else { return nil }
        countMarkedShown()
        guard let shown = markedShown, shown.version == session.marksVersion else {
            return "\(NumberText.grouped(count)) marked (… shown)"
        }
        return "\(NumberText.grouped(count)) marked" + (shown.count == count ? "" : " (\(NumberText.grouped(shown.count)) shown)")
    }

    /// Counts how many marked people the list shows, unless counted (or
    /// being counted) for these marks and this list.
    private func countMarkedShown() {
        let version = session.marksVersion
        guard markedShown?.version != version, markedBeingCounted != version else { return }
        if displayed.count == repository.personCount {  // everyone is shown: nothing to count
            markedShown = (version, session.marked.count)
            return
        }
        markedBeingCounted = version
        let (people, shown) = (markedPeople, displayed)
        repository.reads(through: searcher ?? ReadingAtOnce()).read({ people.shownCount(in: shown) }) { [weak self] count in
            guard let self, self.markedBeingCounted == version, self.displayed == shown else { return }
            self.markedBeingCounted = nil
            self.markedShown = (version, count)
            if self.view != nil, !self.isInRender { self.refresh() }
        }
    }

    /// The marks version being counted in the background.
    private var markedBeingCounted: Int?
    /// True while `render` builds the model (an answer at once needs no second frame).
    private var isInRender = false

    // MARK: Columns

    public func chooseColumns() {
        wireframe?.navigate(to: .columns(session.columns, sorted: ListColumn.sorted(by: sortOrder.key)))
    }

    /// The chooser changed the columns (shown at once, under it).
    public func setColumns(_ choice: ColumnChoice) {
        session.columns = choice
        render()
    }

    public var columnChoice: ColumnChoice { session.columns }

    // MARK: Remembered place

    /// A line about the remembered place ("state file unreadable; ignored").
    public var stateNotice: String? {
        didSet { render() }
    }

    /// Where the user is now, to remember for the next launch.
    public var place: RememberedPlace {
        RememberedPlace(person: selectedID ?? selectedPerson, sort: sortOrder,
                        byCompany: isGroupedByCompany, collapsedCompanies: collapsedCompanies, columns: session.columns,
                        repository: repository)
    }

    /// Goes back to a remembered place: its order and grouping, its person.
    /// An explicit order (`--sort`) wins over the remembered one.
    public func restore(_ place: RememberedPlace, sortOverride: SortOrder? = nil) {
        let person = place.person(in: repository)
        if let collapsed = place.collapsedCompanyIDs(in: repository) {
            collapsedCompanies = collapsed
            rows = makeRows()
        }
        if let columns = place.columns { session.columns = ColumnChoice(remembered: columns) }
        if let person, let index = repository.position(of: person, in: displayed) { selection = index }
        let sort = sortOverride ?? place.sortOrder
        if sort != sortOrder || place.groupedByCompany != isGroupedByCompany {
            rearrange(sort: sort, byCompany: place.groupedByCompany)
        } else {
            render()
        }
    }

    // MARK: Order and grouping

    public func cycleSortOrder() {
        let columns = ListColumns(choice: session.columns, sort: sortOrder, byCompany: isGroupedByCompany)
        rearrange(sort: columns.nextSort, byCompany: isGroupedByCompany)
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
    private func waitForArrangement(_ intent: @escaping @MainActor (ListPresenter) -> Void) -> Bool {
        guard isArranging || isPlacing else { return false }
        waitingForArrangement.append(intent)
        return true
    }

    public func toggleGrouping() {
        rearrange(sort: sortOrder, byCompany: !isGroupedByCompany)
    }

    public func jumpToCompany(by delta: Int) {
        if waitForArrangement({ $0.jumpToCompany(by: delta) }) { return }
        guard peopleCount > 0 else { return }
        let current = displayed.sectionIndex(containing: selection)
        let target = current + delta
        // `[` inside a company goes to its first person before the previous company.
        if delta < 0, selection > displayed.sections[current].range.lowerBound {
            select(position: displayed.sections[current].range.lowerBound)
        } else if target < 0 || target >= displayed.sections.count {
            // As `less` at the end: stay put and say why nothing moved.
            if !isGroupedByCompany {
                message = "one flat list: c groups by company"
            } else if displayed.sections.count == 1 {
                message = "only one company here"
            } else {
                message = delta > 0 ? "already at the last company" : "already at the first company"
            }
            render()
        } else {
            select(position: displayed.sections[target].range.lowerBound)
        }
    }

    /// Sorts (off the main actor) and shows the result, keeping the
    /// selected person selected and the search applied.
    private func rearrange(sort: SortOrder, byCompany: Bool) {
        guard let searcher else { return }
        sortOrder = sort
        isGroupedByCompany = byCompany
        isArranging = true
        render()
        searcher.arrange(repository, sort: sort, byCompany: byCompany, company: everyone.company) { [weak self] arranged in
            guard let self, self.sortOrder == sort, self.isGroupedByCompany == byCompany else { return }
            // A company's list asked for its company only: the new order keeps to it.
            self.everyone = arranged
            self.ordersMade += 1
            self.isArranging = false
            self.showSearchResult(self.search.result.map { self.repository.reapply($0, to: arranged) })
        }
    }

    /// The keys that waited for a new order or a result to be placed act now.
    private func runWaitingIntents() {
        guard !isArranging, !isPlacing else { return }
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
    private func showSearchResult(_ result: PeopleArrangement?) {
        let selected = selectedPerson ?? selectedID
        let shown = result.flatMap { $0.query.map { $0.isEmpty } ?? true ? nil : $0 } ?? everyone
        let (repository, byCompany) = (self.repository, isGroupedByCompany)
        placementsAsked += 1
        let asked = placementsAsked
        repository.reads(through: searcher ?? ReadingAtOnce()).read({
            Placement(position: selected.flatMap { repository.position(of: $0, in: shown) },
                      companies: byCompany ? shown.sections.count : repository.companySummaries(in: shown).count)
        }) { [weak self] placement in
            guard let self, asked == self.placementsAsked else { return }
            self.placementsShown = asked
            self.show(result, placed: placement)
            self.runWaitingIntents()
            self.sayMessageAfterWorkIfDone()
        }
    }

    /// Where a result's selected person is, and its companies' count.
    private struct Placement: Sendable {
        let position: Int?
        let companies: Int
    }

    /// Results asked to be shown, and the last one shown: placing while they differ.
    private var placementsAsked = 0
    private var placementsShown = 0
    private var isPlacing: Bool { placementsShown != placementsAsked }

    private func show(_ result: PeopleArrangement?, placed: Placement) {
        let previousFilter = filter
        let searchResult = search.show(result)
        displayed = searchResult ?? everyone
        selection = placed.position ?? 0
        if searchResult != nil, filter != previousFilter, peopleCount > 0 {
            collapsedCompanies.remove(displayed.sections[displayed.sectionIndex(containing: selection)].companyID)
        }
        rows = makeRows()
        markedShown = nil
        markedBeingCounted = nil
        shownCompanyCount = placed.companies
        render()
        if filter != previousFilter { wireframe?.filterDidChange(shown: displayed, filter: filter) }
    }

    // MARK: View model

    public func makeViewModel() -> ListViewModel {
        let people = peopleCount
        let hasPeople = people > 0
        let section = hasPeople ? displayed.sections[displayed.sectionIndex(containing: selection)] : nil
        let filter = search.filter
        var emptyMessage: String?
        if !hasPeople {
            emptyMessage = filter.map { "No people match '\($0)'" } ?? ListViewModel.nobodyMessage(personCount: repository.personCount, from: repository.sourceName)
        }
        return ListViewModel(
            sourceName: repository.sourceName,
            scopeTitle: scopeTitle,
            escapeGoesBackTo: scope.flatMap { $0.filterIsScope || filter == nil ? $0.parent : nil },
            summary: summary,
            rows: rows,
            selectedRow: hasPeople ? rows.row(ofPosition: selection) : nil,
            position: hasPeople ? "\(NumberText.grouped(selection + 1))/\(NumberText.grouped(people))" : "0/0",
            currentCompany: ListStatusText.company(section: section, selected: isGroupedByCompany ? nil : selectedRow),
            notice: [repository.skippedRecords.isEmpty ? nil : "\(NumberText.grouped(repository.skippedRecords.count)) skipped (! lists)",
                     stateNotice]
                .compactMap { $0 }.joined(separator: " · ").nilIfEmpty,
            emptyMessage: emptyMessage,
            searchPrompt: search.isEditing ? search.line.text : nil,
            searchError: search.isEditing ? search.error.map { SearchErrorModel(error: $0) } ?? search.failure.map(SearchErrorModel.init(failure:)) : nil,
            filter: filter,
            highlight: search.result?.query,
            sortLabel: sortOrder.label + (isGroupedByCompany ? "" : ", flat") + (isArranging ? " (sorting…)" : ""),
            exportPrompt: exportFlow.line?.text, exportSummary: exportFlow.summary,
            promptCursor: exportFlow.line?.cursor ?? (search.isEditing ? search.line.cursor : nil),
            question: exportFlow.question,
            message: message ?? exportFlow.writing?.note,
            messageFileName: message != nil || exportFlow.question != nil ? exportFlow.fileName : nil,
            columns: ListColumns(choice: session.columns, sort: sortOrder, byCompany: isGroupedByCompany),
            marks: marksLabel, connection: ConnectionStatus(repository))
    }

    /// "400 people · 34 companies"; under a filter, what is shown of them
    /// ("3 of 400 people · 3 of 34 companies"); a company's list counts its own.
    private var summary: String {
        let all = everyone.count
        let allCompanies = companiesInAll
        if scopeTitle != nil {
            return search.result == nil ? NumberText.count(all, "person", "people") : "\(NumberText.grouped(peopleCount)) of \(NumberText.count(all, "person", "people"))"
        }
        guard search.result != nil else {
            return "\(NumberText.count(all, "person", "people")) · \(NumberText.count(allCompanies, "company", "companies"))"
        }
        return "\(NumberText.grouped(peopleCount)) of \(NumberText.count(all, "person", "people")) · "
            + "\(NumberText.grouped(shownCompanyCount)) of \(NumberText.count(allCompanies, "company", "companies"))"
    }

    private lazy var companiesInAll = repository.nonEmptyCompanyCount

    /// Companies with someone shown; kept from the last search, so that a
    /// frame does not count them again.
    private var shownCompanyCount = 0

    /// Draws again for something read in the background (rows, a count):
    /// the message the last frame showed stays, as it would without it.
    private func refresh() {
        message = messageShown
        render()
    }

    /// The message of the last frame.
    private var messageShown: String?

    private func render() {
        messageShown = message
        defer {  // a message shows once
            message = nil
            exportFlow.messageShown()
        }
        if let person = selectedID { selectedPerson = person }
        if rowsMarksVersion != session.marksVersion { rows = makeRows() }
        isInRender = true
        let model = makeViewModel()
        isInRender = false
        view?.show(model)
    }

    /// Reads, off the main actor, the rows the frame just drawn was missing
    /// (with a screen's worth around them), and draws again when they come.
    public func frameDrawn() {
        let window = self.window
        guard let searcher, let positions = window.wanted() else { return }
        searcher.read({ window.store(window.read(positions), for: positions) }) { [weak self] in
            guard let self, self.window === window else { return }
            self.refresh()
        }
    }
}
