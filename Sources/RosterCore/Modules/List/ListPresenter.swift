import Foundation

/// Turns a grouped directory into list view models and user intents into
/// selection changes and routes. Holds its view weakly; knows no ncurses.
@MainActor
public final class ListPresenter: ListModuleInterface {
    private weak var view: ListViewInterface?
    private weak var wireframe: ListWireframe?
    private let directory: LoadedDirectory
    /// Everyone, grouped and sorted.
    private var everyone: GroupedPeople
    /// Counts the orders `everyone` has had, so a search that started on
    /// an older one is reapplied to the newer.
    private var arrangement = 0
    /// A new order is being sorted; these intents wait for it.
    private var isArranging = false
    private var waitingForArrangement: [@MainActor (ListPresenter) -> Void] = []
    public private(set) var sortOrder = SortOrder.byLastName
    public private(set) var isGroupedByCompany = true
    /// What the list shows: everyone, or the people the search matched.
    public private(set) var displayed: GroupedPeople
    private var rows: ListRows
    private let searcher: ListSearchScheduling?
    /// The search prompt's line (kept when closed: `/` opens on the
    /// filter in force), and whether the prompt is open.
    private var searchLine = LineEditor()
    private var isEditingSearch = false
    /// The filter in force when `/` opened the prompt, for Esc to put back.
    private var searchBeforeEditing: SearchResult?
    /// What each prompt accepted earlier this session (↑ recalls it).
    private let history: PromptHistory
    /// The latest finished search (nil: no filter).
    private var searchResult: SearchResult?
    /// Display position of the selected person.
    public private(set) var selection = 0
    /// Companies whose people are hidden (Space), by company id.
    public private(set) var collapsedCompanies: Set<Int> = []
    /// The selected person (file position), remembered while a search hides
    /// everyone, so that clearing the search goes back to them.
    private var selectedPerson: UInt32?

    /// For a list of some of the people (one company's, from the overview):
    /// who they are, so that re-sorting keeps to them.
    private let scope: [UInt64]?
    /// The company a company's list shows, for its breadcrumb; nil for the main list.
    private let scopeTitle: String?

    private let exportWriter: ExportWriting?
    /// The export prompt's line while it is open.
    private var exportLine: LineEditor?
    /// An export waiting for a yes: where, whether it replaces a file, and
    /// the question asked.
    private var pendingExport: (name: String, replacing: Bool, question: String)?
    private var message: String?
    /// The file name in `message` or the question, shortened first when the
    /// status line is too narrow, so that the reason stays visible.
    private var messageFileName: String?

    /// `grouped` is already in `sortOrder` (a company's list opens in the
    /// order its parent list had); `scopeTitle` names the company of a
    /// company's list.
    public init(directory: LoadedDirectory, grouped: GroupedPeople, wireframe: ListWireframe,
                searcher: ListSearchScheduling? = nil, exportWriter: ExportWriting? = nil,
                sortOrder: SortOrder = .byLastName, scopeTitle: String? = nil, history: PromptHistory = PromptHistory()) {
        self.directory = directory
        self.history = history
        self.exportWriter = exportWriter
        self.sortOrder = sortOrder
        self.scopeTitle = scopeTitle
        scope = grouped.order.count < directory.store.count ? PeopleSearch.members(of: grouped, store: directory.store) : nil
        everyone = grouped
        displayed = grouped
        self.wireframe = wireframe
        self.searcher = searcher
        rows = ListRows(grouped: grouped, store: directory.store)
    }

    public var peopleCount: Int { displayed.order.count }

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
            rows = ListRows(grouped: displayed, store: directory.store, collapsedCompanies: collapsedCompanies)
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
        wireframe?.navigate(to: .detail(position: selection))
    }

    public func toggleSection() {
        if waitForArrangement({ $0.toggleSection() }) { return }
        guard peopleCount > 0 else { return }
        let section = displayed.sections[displayed.sectionIndex(containing: selection)]
        if collapsedCompanies.remove(section.companyID) == nil {
            collapsedCompanies.insert(section.companyID)
            selection = section.range.lowerBound
        }
        rows = ListRows(grouped: displayed, store: directory.store, collapsedCompanies: collapsedCompanies)
        render()
    }

    private func isCollapsed(_ section: Int) -> Bool {
        !collapsedCompanies.isEmpty && collapsedCompanies.contains(displayed.sections[section].companyID)
    }

    public func showSkippedRecords() {
        guard !directory.skipped.isEmpty else {
            message = "no records were skipped"
            render()
            return
        }
        wireframe?.navigate(to: .skippedRecords)
    }

    public func quit() {
        wireframe?.navigate(to: .quit)
    }

    public func goBack() {
        wireframe?.navigate(to: .back)
    }

    public func showCompanies() {
        wireframe?.navigate(to: .companies)
    }

    // MARK: Search

    public func beginSearch() {
        isEditingSearch = true
        searchBeforeEditing = searchResult
        searchLine = LineEditor(searchLine.text, history: history.entries(for: .search))
        render()
    }

    public func editSearch(_ text: String) {
        searchLine.replace(with: text)
        searchTextChanged()
    }

    public func editPrompt(_ edit: LineEdit) {
        if var line = exportLine {
            line.apply(edit)
            exportLine = line
            render()
        } else if isEditingSearch {
            let before = searchLine.text
            searchLine.apply(edit)
            if searchLine.text == before { render() } else { searchTextChanged() }
        }
    }

    private func searchTextChanged() {
        render()
        let query = SearchQuery(searchLine.text)
        let within = searchResult.flatMap { query.narrows($0.query) ? $0 : nil }
        let searched = arrangement
        searcher?.search(query, in: everyone, store: directory.store, within: within) { [weak self] result in
            guard let self else { return }
            // A new order landed meanwhile: the matches, in that order.
            self.showSearchResult(searched == self.arrangement ? result
                                  : PeopleSearch.reapply(result, to: self.everyone, store: self.directory.store))
        }
    }

    public func commitSearch() {
        isEditingSearch = false
        history.record(searchLine.text, for: .search)
        if SearchQuery(searchLine.text).isEmpty { clearSearch() } else { render() }
    }

    public func cancelSearch() {
        guard isEditingSearch else {
            clearSearch()
            return
        }
        isEditingSearch = false
        guard let before = searchBeforeEditing else {
            clearSearch()
            return
        }
        // Laid over `everyone` again: a sort may have finished meanwhile.
        searcher?.cancelPending()
        searchLine = LineEditor(before.query.text)
        showSearchResult(PeopleSearch.reapply(before, to: everyone, store: directory.store))
    }

    private func clearSearch() {
        searchLine = LineEditor()
        searcher?.cancelPending()
        showSearchResult(nil)
    }

    /// Narrows the list to `text` without the prompt (`--filter`, a
    /// company's list opened under a filter); nil or empty clears it.
    public func applyFilter(_ text: String?) {
        guard let text, !SearchQuery(text).isEmpty else {
            clearSearch()
            return
        }
        editSearch(text)
        isEditingSearch = false
        render()
    }

    /// The filter in force (the last finished search), if any.
    public var filter: String? { searchResult?.query.text }

    /// The company of the selected person (the overview opens on it).
    public var selectedCompanyID: Int? {
        peopleCount > 0 ? displayed.companyID(at: selection, store: directory.store) : nil
    }

    // MARK: Export

    public func beginExport() {
        exportLine = LineEditor(Self.suggestedExportName(for: directory.sourceName), history: history.entries(for: .export))
        message = nil
        render()
    }

    /// `people.csv` for `people.json` (or `data/people.json`), `stdin.csv`
    /// for standard input: the data's base name, as CSV.
    public nonisolated static func suggestedExportName(for sourceName: String) -> String {
        let file = (sourceName as NSString).lastPathComponent
        let base = (file as NSString).deletingPathExtension
        return (base.isEmpty || base == "/" ? "roster" : base) + ".csv"
    }

    public func editExportName(_ name: String) {
        exportLine?.replace(with: name)
        render()
    }

    public func cancelExport() {
        exportLine = nil
        pendingExport = nil
        render()
    }

    /// Writes to a new file at once; asks before replacing a file or
    /// writing a name whose extension names no format (CSV is written);
    /// refuses directories, broken links, devices, pipes and sockets,
    /// saying what they are.
    public func commitExport() {
        if waitForArrangement({ $0.commitExport() }) { return }
        guard let name = exportLine?.text.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            cancelExport()
            return
        }
        history.record(name, for: .export)
        exportLine = nil
        let known = ExportFormat(knownExtensionOf: name) != nil
        let unknown = (name as NSString).pathExtension.isEmpty ? "no extension" : "unknown extension"
        switch exportWriter?.target(at: name) ?? .nothing {
        case .nothing where known:
            export(to: name, replacing: false)
            return
        case .nothing:
            pendingExport = (name, false, "\(name): \(unknown), write CSV? (y/n)")
        case .regularFile:
            pendingExport = (name, true, known ? "\(name) exists; overwrite? (y/n)" : "\(name) exists (\(unknown)); overwrite with CSV? (y/n)")
        case .directory: refuse(name, "is a directory")
        case .brokenSymbolicLink: refuse(name, "is a broken symbolic link")
        case .characterDevice: refuse(name, "is a character device")
        case .blockDevice: refuse(name, "is a block device")
        case .namedPipe: refuse(name, "is a named pipe (FIFO)")
        case .socket: refuse(name, "is a socket")
        case .unusable(let reason): refuse(name, "cannot be written (\(reason))")
        }
        messageFileName = name
        render()
    }

    private func refuse(_ name: String, _ reason: String) {
        message = "\(name) \(reason); not written"
    }

    public func confirmOverwrite(_ yes: Bool) {
        guard let pending = pendingExport else { return }
        pendingExport = nil
        if yes {
            export(to: pending.name, replacing: pending.replacing)
        } else {
            message = "not written"
            render()
        }
    }

    /// Writes what the list shows (search and order included), in the
    /// format the file name's extension asks for.
    private func export(to name: String, replacing: Bool) {
        let format = ExportFormat(fileName: name)
        let bytes = DirectoryExporter(format: format).export(displayed, store: directory.store)
        messageFileName = name
        if let failure = exportWriter?.write(bytes, to: name, replacing: replacing) {
            message = failure
        } else {
            message = "wrote \(Self.count(displayed.order.count, "person", "people")) to \(name) (\(format.rawValue))"
        }
        render()
    }

    // MARK: Remembered place

    /// A line about the remembered place ("state file unreadable; ignored").
    public var stateNotice: String? {
        didSet { render() }
    }

    /// Where the user is now, to remember for the next launch.
    public var place: RememberedPlace {
        let person = peopleCount > 0 ? Int(displayed.order[selection]) : selectedPerson.map(Int.init)
        var place = RememberedPlace(
            selectedPosition: person, selectedID: person.map { directory.store.text(.id, of: $0) },
            sortKey: "\(sortOrder.key)", descending: sortOrder.descending, groupedByCompany: isGroupedByCompany)
        place.collapsedCompanies = collapsedCompanies.isEmpty ? nil
            : collapsedCompanies.map { directory.store.companies[$0].name }.sorted()
        return place
    }

    /// Goes back to a remembered place: its order and grouping, its person.
    /// An explicit order (`--sort`) wins over the remembered one.
    public func restore(_ place: RememberedPlace, sortOverride: SortOrder? = nil) {
        let store = directory.store
        var person = place.selectedPosition.flatMap { $0 >= 0 && $0 < store.count ? $0 : nil }
        if let id = place.selectedID, !id.isEmpty, person.map({ store.text(.id, of: $0) }) != id {
            person = (0..<store.count).first { store.text(.id, of: $0) == id }
        }
        if let names = place.collapsedCompanies {
            let wanted = Set(names)
            collapsedCompanies = Set(directory.store.companies.indices.filter { wanted.contains(directory.store.companies[$0].name) })
            rows = ListRows(grouped: displayed, store: store, collapsedCompanies: collapsedCompanies)
        }
        if let person, let index = displayed.order.firstIndex(of: UInt32(person)) { selection = index }
        let sort = sortOverride ?? place.sortOrder
        if sort != sortOrder || place.groupedByCompany != isGroupedByCompany {
            rearrange(sort: sort, byCompany: place.groupedByCompany)
        } else {
            render()
        }
    }

    // MARK: Order and grouping

    public func cycleSortOrder() {
        rearrange(sort: sortOrder.nextKey(), byCompany: isGroupedByCompany)
    }

    public func reverseSortOrder() {
        rearrange(sort: sortOrder.reversed(), byCompany: isGroupedByCompany)
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
        guard isArranging else { return false }
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
        searcher.arrange(directory.store, sort: sort, byCompany: byCompany) { [weak self] grouped in
            guard let self, self.sortOrder == sort, self.isGroupedByCompany == byCompany else { return }
            self.everyone = self.scope.map { PeopleSearch.restrict(grouped, to: $0, store: self.directory.store) } ?? grouped
            self.arrangement += 1
            self.isArranging = false
            // Reapplied to this list's own people (a company's list keeps to its company).
            self.showSearchResult(self.searchResult.map { PeopleSearch.reapply($0, to: self.everyone, store: self.directory.store) })
            let waiting = self.waitingForArrangement
            self.waitingForArrangement = []
            for intent in waiting { intent(self) }
        }
    }

    /// Shows a finished search, keeping the selected person if they match.
    /// A person a search lands on is shown: their company opens if it was
    /// collapsed.
    private func showSearchResult(_ result: SearchResult?) {
        let selected = selectedPerson ?? (peopleCount > 0 ? displayed.order[selection] : nil)
        let previousFilter = filter
        searchResult = result?.query.isEmpty == true ? nil : result
        displayed = searchResult?.grouped ?? everyone
        selection = selected.flatMap { displayed.order.firstIndex(of: $0) } ?? 0
        if searchResult != nil, filter != previousFilter, peopleCount > 0 {
            collapsedCompanies.remove(displayed.sections[displayed.sectionIndex(containing: selection)].companyID)
        }
        rows = ListRows(grouped: displayed, store: directory.store, collapsedCompanies: collapsedCompanies)
        shownCompanyCount = Self.companyCount(of: displayed, store: directory.store, grouped: isGroupedByCompany)
        render()
        if filter != previousFilter { wireframe?.filterDidChange() }
    }

    // MARK: View model

    public func makeViewModel() -> ListViewModel {
        let people = peopleCount
        let hasPeople = people > 0
        let section = hasPeople ? displayed.sections[displayed.sectionIndex(containing: selection)] : nil
        let filter = searchResult?.query.text
        var emptyMessage: String?
        if !hasPeople {
            emptyMessage = filter.map { "No people match '\($0)'" } ?? "No content to show"
        }
        return ListViewModel(
            sourceName: directory.sourceName,
            scopeTitle: scopeTitle,
            summary: summary,
            rows: rows,
            selectedRow: hasPeople ? rows.row(ofPosition: selection) : nil,
            position: hasPeople ? "\(Self.grouped(selection + 1))/\(Self.grouped(people))" : "0/0",
            currentCompany: section?.title ?? "",
            notice: [directory.skipped.isEmpty ? nil : "\(Self.grouped(directory.skipped.count)) skipped (! lists)", stateNotice]
                .compactMap { $0 }.joined(separator: " · ").nilIfEmpty,
            emptyMessage: emptyMessage,
            searchPrompt: isEditingSearch ? searchLine.text : nil,
            filter: filter,
            highlight: searchResult?.query,
            sortLabel: sortOrder.label + (isGroupedByCompany ? "" : ", flat") + (isArranging ? " (sorting…)" : ""),
            exportPrompt: exportLine?.text,
            promptCursor: exportLine?.cursor ?? (isEditingSearch ? searchLine.cursor : nil),
            question: pendingExport?.question,
            message: message,
            messageFileName: message != nil || pendingExport != nil ? messageFileName : nil)
    }

    /// "400 people · 34 companies"; under a filter, what is shown of them
    /// ("3 of 400 people · 3 of 34 companies"); a company's list counts its own.
    private var summary: String {
        let all = everyone.order.count
        let allCompanies = companiesInAll
        if scopeTitle != nil {
            return searchResult == nil ? Self.count(all, "person", "people") : "\(Self.grouped(peopleCount)) of \(Self.count(all, "person", "people"))"
        }
        guard searchResult != nil else {
            return "\(Self.count(all, "person", "people")) · \(Self.count(allCompanies, "company", "companies"))"
        }
        return "\(Self.grouped(peopleCount)) of \(Self.count(all, "person", "people")) · "
            + "\(Self.grouped(shownCompanyCount)) of \(Self.count(allCompanies, "company", "companies"))"
    }

    private lazy var companiesInAll = directory.store.companies.filter { $0.headcount > 0 }.count

    /// Companies with someone shown; kept from the last search, so that a
    /// frame does not count them again.
    private var shownCompanyCount = 0

    private static func companyCount(of grouped: GroupedPeople, store: PeopleStore, grouped byCompany: Bool) -> Int {
        if byCompany { return grouped.sections.count }
        var seen = [Bool](repeating: false, count: store.companies.count)
        var count = 0
        for person in grouped.order where !seen[store.companyID(of: Int(person))] {
            seen[store.companyID(of: Int(person))] = true
            count += 1
        }
        return count
    }

    private func render() {
        defer {  // a message shows once
            message = nil
            if pendingExport == nil { messageFileName = nil }
        }
        if peopleCount > 0 { selectedPerson = displayed.order[selection] }
        view?.show(makeViewModel())
    }

    /// "3 of 200 records skipped", or nil when nothing was.
    public nonisolated static func skippedNotice(skipped: Int, loaded: Int) -> String? {
        guard skipped > 0 else { return nil }
        return "\(grouped(skipped)) of \(grouped(skipped + loaded)) records skipped"
    }

    /// "1 person", "12 people", with thousands separators.
    public nonisolated static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural)"
    }

    public nonisolated static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
