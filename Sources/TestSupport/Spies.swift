import RosterCore
import RosterStore

/// Records what a presenter shows; tests read `models`.
@MainActor
public final class SpyListView: ListViewInterface {
    public private(set) var models: [ListViewModel] = []
    public init() {}
    public func show(_ model: ListViewModel) { models.append(model) }
    public var last: ListViewModel? { models.last }
}

/// Records the routes a list presenter asks for.
@MainActor
public final class SpyListWireframe: ListWireframe {
    public private(set) var routes: [ListRoute] = []
    /// The filters the screens above were told to count again under.
    public private(set) var recounts: [String?] = []
    /// What the source says when asked to be edited (nil: it can be).
    public var editingRefusal: String?
    /// What each time the source was to be read again whole said (`r`, a reconnect).
    public private(set) var readsAgain: [String] = []
    /// Whether it reads the source again itself (as the app does), or leaves it to the list.
    public var readsSourceAgain = false
    public init() {}
    public func navigate(to route: ListRoute) { routes.append(route) }
    public func filterDidChange(shown: PeopleArrangement, filter: String?) { recounts.append(filter) }
    public func readAgain(saying said: String) -> Bool {
        readsAgain.append(said)
        return readsSourceAgain
    }
}

@MainActor
public final class SpyDetailView: DetailViewInterface {
    public private(set) var models: [DetailViewModel] = []
    public init() {}
    public func show(_ model: DetailViewModel) { models.append(model) }
}

@MainActor
public final class SpyDetailWireframe: DetailWireframe {
    public private(set) var routes: [DetailRoute] = []
    public init() {}
    public func navigate(to route: DetailRoute) { routes.append(route) }
}

/// Records the intents a view sends to its list presenter.
@MainActor
public final class SpyListModule: ListModuleInterface {
    public enum Call: Equatable {
        case move(Int), first, last, select(Int), open, edit, editInEditor, add, delete, undo, skipped, quit
        case beginSearch, editSearch(String), editPrompt(LineEdit), commitSearch, cancelSearch
        case cycleSort, reverseSort, toggleGrouping, jumpToCompany(Int), back, companies, counts, orgChart, toggleSection
        case beginExport, editExportName(String), commitExport, cancelExport, confirmOverwrite(Bool)
        case toggleMark, markAllShown, unmarkAll, copyAddresses, copyVCards, chooseColumns, reconnect
        case showMatch(forward: Bool), chooseSortOrder(descending: Bool), openCommandLine
    }

    public private(set) var calls: [Call] = []
    /// What `hasWorkInFlight` answers (a test sets it).
    public var hasWorkInFlight = false
    public init() {}
    public func frameDrawn(rows: Range<Int>) {}
    public func endMessage() {}
    public func moveSelection(by delta: Int) { calls.append(.move(delta)) }
    public func selectFirst() { calls.append(.first) }
    public func selectLast() { calls.append(.last) }
    public func select(position: Int) { calls.append(.select(position)) }
    public func openSelected() { calls.append(.open) }
    public func editSelected() { calls.append(.edit) }
    public func deleteMarkedOrSelected() { calls.append(.delete) }
    public func addPerson() { calls.append(.add) }
    public func editInEditor() { calls.append(.editInEditor) }
    public func undo() { calls.append(.undo) }
    public func showSkippedRecords() { calls.append(.skipped) }
    public func quit() { calls.append(.quit) }
    public func beginSearch() { calls.append(.beginSearch) }
    public func editSearch(_ text: String) { calls.append(.editSearch(text)) }
    public func editPrompt(_ edit: LineEdit) { calls.append(.editPrompt(edit)) }
    public func commitSearch() { calls.append(.commitSearch) }
    public func cancelSearch() { calls.append(.cancelSearch) }
    public func cycleSortOrder() { calls.append(.cycleSort) }
    public func reverseSortOrder() { calls.append(.reverseSort) }
    public func toggleGrouping() { calls.append(.toggleGrouping) }
    public func jumpToCompany(by delta: Int) { calls.append(.jumpToCompany(delta)) }
    public func goBack(by key: BackKey) { calls.append(.back) }
    public func showCompanies() { calls.append(.companies) }
    public func showCounts() { calls.append(.counts) }
    public func showOrgChart() { calls.append(.orgChart) }
    public func toggleSection() { calls.append(.toggleSection) }
    public func beginExport() { calls.append(.beginExport) }
    public func editExportName(_ name: String) { calls.append(.editExportName(name)) }
    public func commitExport() { calls.append(.commitExport) }
    public func cancelExport() { calls.append(.cancelExport) }
    public func confirmOverwrite(_ yes: Bool) { calls.append(.confirmOverwrite(yes)) }
    public func toggleMark() { calls.append(.toggleMark) }
    public func markAllShown() { calls.append(.markAllShown) }
    public func unmarkAll() { calls.append(.unmarkAll) }
    public func copyAddresses() { calls.append(.copyAddresses) }
    public func copyVCards() { calls.append(.copyVCards) }
    public func chooseColumns() { calls.append(.chooseColumns) }
    public func reconnect() { calls.append(.reconnect) }
    public func showMatch(forward: Bool) { calls.append(.showMatch(forward: forward)) }
    public func chooseSortOrder(descending: Bool) { calls.append(.chooseSortOrder(descending: descending)) }
    public func openCommandLine() { calls.append(.openCommandLine) }
}

/// Runs each search at once, on the caller's actor: tests see results
/// without waiting. In-memory repositories only (their search has a
/// synchronous form).
@MainActor
public final class ImmediateSearchScheduler: ListSearchScheduling {
    public private(set) var searches: [String] = []
    /// For each search, the query whose result it was searched within (nil: everyone).
    public private(set) var searchedWithin: [String?] = []
    public init() {}
    public func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?,
                       repository: any PeopleRepository, completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                       failed: @escaping @MainActor @Sendable (String) -> Void) {
        searches.append(query.text)
        searchedWithin.append(within?.query?.text)
        guard let memory = repository as? InMemoryPeopleRepository else {
            preconditionFailure("ImmediateSearchScheduler runs in-memory searches only")
        }
        if let result = memory.searchNow(query, in: everyone, within: within) { completion(result) }
    }
    public func cancelPending() {}
    public func arrange(_ repository: any PeopleRepository, sort: SortOrder, byCompany: Bool, company: Int?,
                        completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
        completion(repository.arrange(sort: sort, byCompany: byCompany, company: company))
    }
}

/// A scheduler that holds every result until the test lets it go, in the
/// order the test chooses: the way a slow machine interleaves them.
@MainActor
public final class ManualSearchScheduler: ListSearchScheduling {
    private var searches: [() -> Void] = []
    private var arrangements: [() -> Void] = []
    public init() {}
    public func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?,
                       repository: any PeopleRepository, completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                       failed: @escaping @MainActor @Sendable (String) -> Void) {
        guard let memory = repository as? InMemoryPeopleRepository else {
            preconditionFailure("ManualSearchScheduler runs in-memory searches only")
        }
        let result = memory.searchNow(query, in: everyone, within: within)
        searches.append { if let result { completion(result) } }
    }
    public func cancelPending() {}
    public func arrange(_ repository: any PeopleRepository, sort: SortOrder, byCompany: Bool, company: Int?,
                        completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
        let arranged = repository.arrange(sort: sort, byCompany: byCompany, company: company)
        arrangements.append { completion(arranged) }
    }
    /// Delivers the searches that finished, oldest first.
    public func finishSearches() {
        let waiting = searches
        searches = []
        for deliver in waiting { deliver() }
    }
    /// Delivers the new orders that finished, oldest first.
    public func finishArrangements() {
        let waiting = arrangements
        arrangements = []
        for deliver in waiting { deliver() }
    }
}

/// Holds every background read (rows, a person, counts, a reconnection)
/// until the test lets it go: a database that has not answered yet. The
/// read itself runs when it is let go, in the order asked.
@MainActor
public final class HeldReads: ListSearchScheduling {
    private var held: [() -> Void] = []
    public init() {}
    /// Reads asked for and not let go.
    public var waiting: Int { held.count }
    public func read<Value: Sendable>(_ work: nonisolated(nonsending) @escaping @Sendable () async -> Value,
                                      then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
        // Let go, a read of a fake that answers at once is delivered before `finish` returns.
        held.append { Task.immediate { @MainActor in deliver(await work()) } }
    }
    public func perform<Value: Sendable>(_ work: @escaping @Sendable () -> Value, then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
        held.append { deliver(work()) }
    }
    /// Runs the reads held, oldest first (and none asked for meanwhile).
    public func finish() {
        let waiting = held
        held = []
        for read in waiting { read() }
    }
    /// Runs only the newest read held, as a later answer can come first.
    public func finishNewest() {
        held.popLast()?()
    }
    /// Work asked to run later (a read tried again on its own).
    public private(set) var scheduledLater = 0
    public func after(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void) {
        scheduledLater += 1
        Task { @MainActor in
            try? await Task.sleep(for: delay)
            work()
        }
    }
    public func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?,
                       repository: any PeopleRepository, completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                       failed: @escaping @MainActor @Sendable (String) -> Void) {
        preconditionFailure("HeldReads holds reads only")
    }
    public func cancelPending() {}
    public func arrange(_ repository: any PeopleRepository, sort: SortOrder, byCompany: Bool, company: Int?,
                        completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
        completion(repository.arrange(sort: sort, byCompany: byCompany, company: company))
    }
}

/// An interactor that answers with a fixed result, at once.
public struct StubDirectoryLoading: DirectoryLoading {
    public let result: Result<any PeopleRepository, LoadError>
    public init(repository result: Result<any PeopleRepository, LoadError>) { self.result = result }
    /// A loaded directory, held in memory.
    public init(_ result: Result<LoadedDirectory, LoadError>) {
        self.result = result.map { InMemoryPeopleRepository($0) }
    }
    public func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError> { result }
}

/// A clipboard that records what it was given and answers `succeeds`.
@MainActor
public final class SpyClipboard: Clipboard {
    public private(set) var copied: [String] = []
    public var succeeds = true
    /// Where a successful copy says it went.
    public var delivery = ClipboardDelivery.terminal
    public init() {}
    public func copy(_ text: String) -> ClipboardDelivery? {
        copied.append(text)
        return succeeds ? delivery : nil
    }
}

/// Records the routes the company overview asks for.
@MainActor
public final class SpyCompaniesWireframe: CompaniesWireframe {
    public private(set) var routes: [CompaniesRoute] = []
    public init() {}
    public func navigate(to route: CompaniesRoute) { routes.append(route) }
}

@MainActor
public final class SpyCompaniesView: CompaniesViewInterface {
    public private(set) var models: [CompaniesViewModel] = []
    public init() {}
    public func show(_ model: CompaniesViewModel) { models.append(model) }
}

/// Records the routes the frequency view asks for.
@MainActor
public final class SpyFrequencyWireframe: FrequencyWireframe {
    public private(set) var routes: [FrequencyRoute] = []
    public init() {}
    public func navigate(to route: FrequencyRoute) { routes.append(route) }
}

@MainActor
public final class SpyFrequencyView: FrequencyViewInterface {
    public private(set) var models: [FrequencyViewModel] = []
    public init() {}
    public func show(_ model: FrequencyViewModel) { models.append(model) }
}

/// Files in memory: what exists, and what was written; `others` are
/// things that are not regular files (directories, devices, links).
@MainActor
public final class InMemoryExportWriter: ExportWriting {
    /// Written off the main actor, as the real writer is.
    private let stored = Locked<[String: [UInt8]]>([:])
    public var files: [String: [UInt8]] { stored.withLock { $0 } }
    public var others: [String: ExportTarget] = [:]
    public init(existing: [String] = [], others: [String: ExportTarget] = [:]) {
        stored.withLock { files in for name in existing { files[name] = [] } }
        self.others = others
    }
    public func target(at path: String) -> ExportTarget { others[path] ?? (files[path] != nil ? .regularFile : .nothing) }
    public nonisolated func write(to path: String, replacing: Bool, _ produce: (inout OutputBuffer) async -> String?) async -> String? {
        if stored.withLock({ $0[path] }) != nil, !replacing { return "\(path) exists" }
        var output = OutputBuffer(descriptor: -1)
        // As the real writer: what is not whole never replaces the file.
        if let unread = await produce(&output) { return "could not write \(path) (\(unread))" }
        stored.withLock { $0[path] = output.bytes }
        return nil
    }

    /// The files' names in `folder`, and the folders below it (ending in `/`).
    public func fileNames(in folder: String) -> [String] {
        let names = Set((Array(files.keys) + others.keys).compactMap { path -> String? in
            guard path.hasPrefix(folder) else { return nil }
            let rest = path.dropFirst(folder.count)
            guard let slash = rest.firstIndex(of: "/") else { return String(rest) }
            return String(rest[...slash])
        })
        return Array(names)
    }
}
