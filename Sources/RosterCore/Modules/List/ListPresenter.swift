import Foundation

/// Turns a grouped directory into list view models and user intents into
/// selection changes and routes. Holds its view weakly; knows no ncurses.
@MainActor
public final class ListPresenter: ListFrameInput, ListMovingInput, ListScreensInput {
    weak var view: ListViewInterface?
    weak var wireframe: ListWireframe?
    /// The list's data: every read goes through it.
    let interactor: ListInteractorInput
    /// Everyone (of a company's list: the company), grouped and sorted.
    var everyone: PeopleArrangement
    /// Counts the orders `everyone` has had, so a search that started on
    /// an older one is reapplied to the newer.
    var ordersMade = 0
    /// A new order is being sorted; these intents wait for it.
    var isArranging = false
    var waitingForArrangement: [@MainActor (ListPresenter) -> Void] = []
    public internal(set) var sortOrder: SortOrder
    public internal(set) var isGroupedByCompany: Bool
    /// What the list shows: everyone, or the people the search matched.
    public internal(set) var displayed: PeopleArrangement {
        didSet { window = makeWindow() }
    }
    /// The rows of `displayed` read so far (a database's are read off the
    /// main actor, and drawn as loading until they come).
    var window: ListWindow
    var rows: ListRows
    /// The search prompt and the filter in force.
    var search = ListSearch()
    /// What each prompt accepted earlier this session (↑ recalls it).
    let history: PromptHistory
    /// Display position of the selected person.
    public internal(set) var selection = 0
    /// Companies whose people are hidden (Space), by company id.
    public internal(set) var collapsedCompanies: Set<Int> = []
    /// The selected person (file position), remembered while a search hides
    /// everyone, so that clearing the search goes back to them.
    var selectedPerson: PersonID?
    /// The remembered person being looked up, then the one to place (over
    /// whoever the first frame selected) until a placement shows them.
    var isFindingPlace = false
    var rememberedPerson: PersonID?
    /// What the latest placement was asked to show (nil: everyone): while it
    /// is on its way, not the filter in force (Esc cleared it a moment ago).
    var resultAsked: PeopleArrangement?

    /// What a list pushed over another screen is of; nil for the main list.
    let scope: ListScope?
    /// The breadcrumb after the source's name ("COMGY").
    var scopeTitle: String? { scope?.title }

    /// The export's name prompt, question and file name.
    let exportFlow: ListExportFlow
    /// The people `D` is about to delete, while its question waits.
    var pendingDeletion: [Person]?
    var message: String?
    /// A message that waits for the search or new order in flight, to show
    /// with its result (a message shows for one frame: the result's frame
    /// would wipe one said before it).
    var messageAfterWork: String?
    /// Run once nothing is in flight (`whenSettled`).
    var settledWaiters: [@MainActor (ListPresenter) -> Void] = []
    /// Run once the selected row is read, if still selected (`whenSelectionRead`).
    var selectionWaiters: [(selection: Int, body: @MainActor (ListPresenter) -> Void)] = []
    /// Searches asked for, and the last one whose result was shown (a newer
    /// search supersedes an older, whose result never comes): a search is
    /// in flight while they differ.
    var searchesAsked = 0
    var searchesAnswered = 0
    /// Marks and columns, shared with the session's other lists.
    let session: ListSession
    let clipboard: Clipboard?
    /// How many marked people `displayed` shows, as of a marks version (nil: to count again).
    var markedShown: (version: Int, count: Int?)?

    /// `M` is reading the ids of everyone shown.
    var isMarkingAll = false

    /// The marks version being counted in the background.
    var markedBeingCounted: Int?

    /// True while `render` builds the model (an answer at once needs no second frame).
    var isInRender = false

    /// What `n` and `N` found and are finding (`ListMatches`).
    var matches = ListMatches()

    /// Results asked to be shown, and the last one shown: placing while they differ.
    var placementsAsked = 0

    var placementsShown = 0

    /// Shows `arrangement` (its order and grouping are the list's; a
    /// company's list opens in the order its parent list had);
    /// `scope` says what a list pushed over another screen is of.
    public init(interactor: ListInteractorInput, arrangement: PeopleArrangement, wireframe: ListWireframe,
                exportWriter: ExportWriting? = nil, scope: ListScope? = nil, history: PromptHistory? = nil,
                session: ListSession? = nil, clipboard: Clipboard? = nil) {
        self.interactor = interactor
        // Made here, not as a default argument: those run outside the main
        // actor (the fuzzers' one-module build rejects that).
        self.history = history ?? PromptHistory()
        self.session = session ?? ListSession()
        self.clipboard = clipboard
        exportFlow = ListExportFlow(writer: exportWriter, history: self.history, reader: interactor.exportReader)
        exportFlow.managerReading = { [session = self.session] in session.orgChartReading?($0) }
        sortOrder = arrangement.sort
        isGroupedByCompany = arrangement.byCompany
        self.scope = scope
        everyone = arrangement
        displayed = arrangement
        self.wireframe = wireframe
        window = interactor.window(on: arrangement)
        rows = ListRows(window)
        exportFlow.written = { [weak self] said in
            self?.quitWarned = false
            self?.message = said
            self?.render()
        }
    }

    /// A window on `displayed`: a source that may wait is read in the
    /// background (a list with no scheduler, in tests, reads while drawing).
    func makeWindow() -> ListWindow {
        interactor.window(on: displayed)
    }

    public var peopleCount: Int { displayed.count }

    public var hasWorkInFlight: Bool { isArranging || isPlacing || isFindingPlace || isMarkingAll || matches.isFinding || searchesAnswered < searchesAsked }

    /// The selected person, if anyone is shown.
    /// Nothing typed into, asked or still working: the list may be read
    /// again under the user (a file changed on disk) without losing anything.
    public var isIdle: Bool {
        !search.isEditing && exportFlow.line == nil && exportFlow.writing == nil && exportFlow.fileName == nil
            && pendingDeletion == nil && !hasWorkInFlight
    }

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
        if let company = displayed.sections[displayed.sectionIndex(containing: position)].companyID,
           collapsedCompanies.remove(company) != nil {
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
                message = ListStatusText.flatList
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

    /// On a folded company's heading no one is to be seen, so no one is
    /// edited or deleted: says so (true), or false when a person is selected.
    func saidFoldedHeading() -> Bool {
        let section = displayed.sectionIndex(containing: selection)
        guard isCollapsed(section) else { return false }
        message = "\(DisplayText.sanitized(displayed.sections[section].title)) is folded: Space opens it to choose someone"
        render()
        return true
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

    /// Says `text` in the status line, its reason before the source it names:
    /// at once, or with the result of the work in flight, whose frame would wipe it.
    public func say(_ text: String) {
        messageAfterWork = MessageText.reasonFirst(text, target: interactor.sourceName)
        sayMessageAfterWorkIfDone()
        refresh()
    }

    public func toggleSection() {
        if waitForArrangement({ $0.toggleSection() }) { return }
        guard peopleCount > 0 else { return }
        let section = displayed.sections[displayed.sectionIndex(containing: selection)]
        // The flat list's one section is everyone, no company to fold.
        guard let company = section.companyID else {
            message = ListStatusText.flatList
            return render()
        }
        if collapsedCompanies.remove(company) == nil {
            collapsedCompanies.insert(company)
            selection = section.range.lowerBound
        }
        rows = makeRows()
        render()
    }

    func makeRows() -> ListRows {
        rowsMarksVersion = session.marksVersion
        return ListRows(window, collapsedCompanies: collapsedCompanies, marked: session.marked, unsent: session.unsent.people)
    }

    /// The marks `rows` show, as of this version of them.
    var rowsMarksVersion = 0

    func isCollapsed(_ section: Int) -> Bool {
        !collapsedCompanies.isEmpty && displayed.sections[section].companyID.map(collapsedCompanies.contains) == true
    }

    public func showSkippedRecords() {
        guard interactor.skippedRecordCount > 0 else {
            message = "no records were skipped"
            render()
            return
        }
        wireframe?.navigate(to: .skippedRecords)
    }

    /// Says `messageAfterWork` once no search or new order is in flight.
    func sayMessageAfterWorkIfDone() {
        guard !hasWorkInFlight else { return }
        let waiters = settledWaiters
        settledWaiters = []
        for waiter in waiters { waiter(self) }
        guard let waiting = messageAfterWork else { return }
        messageAfterWork = nil
        message = waiting
        render()
    }

    /// Runs `body` once the list has landed: no order, search, placement
    /// or remembered place still in flight (at once if none is).
    public func whenSettled(_ body: @escaping @MainActor (ListPresenter) -> Void) {
        settledWaiters.append(body)
        sayMessageAfterWorkIfDone()
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
    var quitWarned = false

    // MARK: Columns

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

    var companiesInAll: Int { interactor.companiesWithPeople }

    /// Companies with someone shown; kept from the last search, so that a
    /// frame does not count them again.
    var shownCompanyCount: Int? = 0

    /// Draws again for something read in the background (rows, a count):
    /// the message the last frame showed stays, as it would without it.
    func refresh() {
        message = messageShown
        render()
    }

    /// The message of the last frame.
    var messageShown: String?

    /// Whether the status line still shows what `say(text)` said (no key nor other message since).
    public func isStillSaying(_ text: String) -> Bool {
        messageShown == MessageText.reasonFirst(text, target: interactor.sourceName)
    }

    func render() {
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

    /// Reads, off the main actor, the rows the frame that just showed
    /// `shown` (rows of `ListRows`) was missing, with a screen's worth
    /// around them, and draws again when they come.
    public func frameDrawn(rows shown: Range<Int>) {
        let window = self.window
        // A source that answers at once was read while the frame drew.
        guard !window.readsWhileDrawing, let drawn = rows.positions(inRows: shown) else { return }
        interactor.fill(window, drawn: drawn) { [weak self] in
            guard let self, self.window === window else { return }
            self.rows = self.makeRows()
            self.refresh()
            self.runWaitingIntents()  // a D waiting for its row, and what waits for the selected one
            // Rows that could not be read (a lock, a timeout, a lost
            // server) are asked for again a little later, while shown.
            if window.holdsUnread {
                self.interactor.retryLater { [weak self] in
                    guard let self, self.window === window, window.holdsUnread else { return }
                    window.readUnreadAgain()
                    self.refresh()
                }
            }
        }
    }
}
