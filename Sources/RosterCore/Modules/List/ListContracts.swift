// Every protocol of the list module: who may say what to whom.

/// Presenter → view: what to draw.
@MainActor
public protocol ListViewInterface: AnyObject {
    func show(_ model: ListViewModel)
}

/// View → presenter: what the user asked for, in the list's own terms.
/// One protocol per family of keys, so that each reads on its own; the
/// presenter answers them all (each in the file of its family).
public typealias ListModuleInterface = ListFrameInput & ListMovingInput & ListSearchInput & ListOrderInput & ListMarkingInput
    & ListExportInput & ListEditingInput & ListScreensInput & ListMatchInput

/// The frame and the work behind it.
@MainActor
public protocol ListFrameInput: AnyObject {
    /// A search or a new order is in flight: keys that act on the list
    /// wait for it (typed ahead, in order), so they act on what it shows.
    var hasWorkInFlight: Bool { get }
    /// A frame showed `rows` (of the model's `ListRows`): those it drew as
    /// loading are read now.
    func frameDrawn(rows: Range<Int>)
    /// A key was pressed, here or on a screen over the list (the sort
    /// menu, the command line, the help): the message shown ends, as a
    /// message lasts until the next key, whatever that key opens or closes.
    func endMessage()
}

/// Moving the selection.
@MainActor
public protocol ListMovingInput: AnyObject {
    /// Moves the selection by `delta` people (negative: up), clamped.
    func moveSelection(by delta: Int)
    func selectFirst()
    func selectLast()
    /// Selects the person at a display position (a mouse click).
    func select(position: Int)
    /// `[` and `]`: the first person of the previous / next company.
    func jumpToCompany(by delta: Int)
    /// Space: collapses the selected person's company, or expands it.
    func toggleSection()
}

/// `/` and its prompt.
@MainActor
public protocol ListSearchInput: AnyObject {
    /// Opens the search prompt, holding the filter in force.
    func beginSearch()
    /// Replaces the search prompt's text: narrow the list as the user types.
    func editSearch(_ text: String)
    /// Edits the open prompt's line (search or export name) at its cursor;
    /// a search narrows the list as the text changes.
    func editPrompt(_ edit: LineEdit)
    /// Enter: keep the filter, close the prompt.
    func commitSearch()
    /// Esc: in the prompt, cancels the edit and puts back the filter that
    /// was in force before `/`; on the list, clears the filter.
    func cancelSearch()
}

/// `n` and `N`, as in less and vim.
@MainActor
public protocol ListMatchInput: AnyObject {
    /// The next (`forward`) or previous match: under a filter, the next or
    /// previous person; with none, the next or previous person (in list
    /// order) who matches the last search. At the last one it stays put
    /// and says so, as less does.
    func showMatch(forward: Bool)
}

/// The order, the grouping and the columns.
@MainActor
public protocol ListOrderInput: AnyObject {
    /// `s`: the next sort key; `S`: the other direction.
    func cycleSortOrder()
    func reverseSortOrder()
    /// `c`: grouped by company, or one flat list.
    func toggleGrouping()
    /// `C`: the column chooser.
    func chooseColumns()
    /// `o` / `O`: a letter per column, to sort by it ascending / descending.
    func chooseSortOrder(descending: Bool)
}

/// Marks, and copying the marked people.
@MainActor
public protocol ListMarkingInput: AnyObject {
    /// `m`: marks the selected person, or unmarks them, and moves down.
    func toggleMark()
    /// `M`: marks everyone the list shows (under its filter).
    func markAllShown()
    /// `u`: unmarks everyone, shown or not.
    func unmarkAll()
    /// `y`: copies the marked people (else the selected one) as an address
    /// list, `Name <email>, …`.
    func copyAddresses()
    /// `Y`: copies the marked people (else the selected one) as vCards.
    func copyVCards()
}

/// `e` and its prompt.
@MainActor
public protocol ListExportInput: AnyObject {
    /// `e`: asks for a file name (suggesting `<data name>.csv`), then
    /// writes what the list shows there.
    func beginExport()
    func editExportName(_ name: String)
    func commitExport()
    func cancelExport()
    /// The answer to "overwrite?".
    func confirmOverwrite(_ yes: Bool)
}

/// Changing people.
@MainActor
public protocol ListEditingInput: AnyObject {
    /// `E`: the selected person's editor.
    func editSelected()
    /// `D`: asks, then deletes the marked people, else the selected one.
    func deleteMarkedOrSelected()
    /// `a`: a form for a new person, in the selected person's company.
    func addPerson()
    /// `v`: the selected person's record in the user's own editor.
    func editInEditor()
    /// `U`: takes back the last change saved from a screen.
    func undo()
}

/// Other screens, the source, and leaving.
@MainActor
public protocol ListScreensInput: AnyObject {
    func openSelected()
    /// Esc with no filter, or `←`/`h`/Backspace: back, when this list was
    /// opened from elsewhere; the whole list says why nothing happens.
    func goBack(by key: BackKey)
    /// Tab: the company overview.
    func showCompanies()
    /// `F`: counts by a field (first the one the list is sorted on).
    func showCounts()
    /// `T`: the org chart, opened at the selected person.
    func showOrgChart()
    func showSkippedRecords()
    /// `r`: connects to the database again after it went away.
    func reconnect()
    func quit()
    /// `:`: the command line (`:sort balance desc`, `:42`, `:q`).
    func openCommandLine()
}

/// The key that asked to go back: Esc closes, the others go up a level.
public enum BackKey: Equatable, Sendable {
    case escape
    /// `←`, `h` or Backspace, as a message names it.
    case back(name: String)
}

/// What is at the path an export is about to write.
public enum ExportTarget: Equatable, Sendable {
    /// Nothing yet: the export creates it.
    case nothing
    /// A regular file (or a symbolic link to one): replaced only after a yes.
    case regularFile
    case directory
    /// A symbolic link to nothing.
    case brokenSymbolicLink
    /// Never offered for replacement.
    case characterDevice, blockDevice, namedPipe, socket
    /// Something the checks could not classify (a path through a file, say).
    case unusable(reason: String)
}

/// Writes an export to a file; never replaces one unless told to. The
/// write itself runs off the main actor (a long export never freezes the
/// screen), so it touches no state of the main actor's.
@MainActor
public protocol ExportWriting: AnyObject, Sendable {
    /// What is at `path` now (the link itself for a dangling symbolic link).
    func target(at path: String) -> ExportTarget
    /// Writes to `path` what `produce` appends to the output, a block at a
    /// time as it is produced; a message for the status line on failure.
    /// `produce` returns why what it wrote is not whole (people that could
    /// not be read), or nil: then `path` is left as it was.
    nonisolated func write(to path: String, replacing: Bool, _ produce: (inout OutputBuffer) async -> String?) async -> String?
    /// The entries of `folder` (`""`: the current one), folders ending in
    /// `/`, for Tab to complete a file name; none when it cannot be read.
    func fileNames(in folder: String) -> [String]
}

extension ExportWriting {
    public func fileNames(in folder: String) -> [String] { [] }
}

/// Runs searches, new orders and reads of rows off the main actor; a newer
/// search makes older ones moot.
@MainActor
public protocol ListSearchScheduling: BackgroundReading {
    /// Searches and calls `completion` on the main actor, unless a newer
    /// search (or `cancelPending`) came first.
    /// `within` is the filter in force (the repository searches only its
    /// matches when `query` narrows it). A search that fails (not one
    /// cancelled: a database that went away, a statement timeout) calls
    /// `failed` with why, as one line.
    func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?, repository: any PeopleRepository,
                completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                failed: @escaping @MainActor @Sendable (String) -> Void)
    func cancelPending()
    /// Groups and sorts everyone (or one company's people) again, off the main actor.
    func arrange(_ repository: any PeopleRepository, sort: SortOrder, byCompany: Bool, company: Int?,
                 completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void)
}

extension ListSearchScheduling {
    /// A search whose failure nobody needs to hear of (tests of ordering).
    public func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?, repository: any PeopleRepository,
                       completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
        search(query, in: everyone, within: within, repository: repository, completion: completion, failed: { _ in })
    }
}

/// A list of its own, pushed over another screen: what it is of, and
/// where Esc takes it.
public struct ListScope: Equatable, Sendable {
    /// After the source's name in the title: "COMGY", "counts by city".
    public var title: String
    /// The screen Esc goes back to, as the hint names it: "overview", "counts".
    public var parent: String
    /// The list's filter holds what the list is of (a value's term, from
    /// the counts): Esc goes back at once, rather than first clearing the
    /// filter, which would show people of every value under the value's title.
    public var filterIsScope: Bool

    public init(title: String, parent: String, filterIsScope: Bool = false) {
        self.title = title
        self.parent = parent
        self.filterIsScope = filterIsScope
    }
}

/// Where the list can lead; each route carries what the next screen needs.
public enum ListRoute: Equatable, Sendable {
    /// The detail screen, walking the people the list shows from display `position`.
    case detail(shown: PeopleArrangement, position: Int)
    /// The editor of the person at display `position` of `shown`; with
    /// `inEditor`, the user's own editor on their record (`v`).
    case edit(shown: PeopleArrangement, position: Int, inEditor: Bool = false)
    /// These people deleted (the user said yes).
    case delete([Person])
    /// The last change saved from a screen, taken back.
    case undo
    /// A form for a new person, in the company of the person at display
    /// `position` of `shown` (nil: the list is empty).
    case add(shown: PeopleArrangement, position: Int?)
    /// The records that were skipped while loading, with reasons.
    case skippedRecords
    /// The company overview, counting the people the list shows under
    /// `filter`, opened on `selectedCompany`.
    case companies(shown: PeopleArrangement, filter: String?, selectedCompany: Int?)
    /// The column chooser, over the list, starting from `choice`; the
    /// list's sorted column is always shown whatever the choice.
    case columns(ColumnChoice, sorted: ListColumn)
    /// A letter per column, over the list, to sort by it (`o`, `O`: descending).
    case sortMenu(descending: Bool)
    /// The command line (`:`), over the list.
    case commandLine
    /// Counts by `field` of the people the list shows under `filter`.
    case counts(shown: PeopleArrangement, filter: String?, field: SummaryField)
    /// The org chart of everyone, in `shown`'s order, opened at `person`.
    case orgChart(shown: PeopleArrangement, person: PersonID?)
    /// Back to where this list was opened from (nothing for the main list),
    /// handing on the filter it ended with.
    case back(filter: String?)
    case quit
}

/// Presenter → wireframe: navigation only.
@MainActor
public protocol ListWireframe: AnyObject {
    func navigate(to route: ListRoute)
    /// The filter in force changed (a search landed or was cleared), or the
    /// connection came back: screens built from this list's people (the
    /// overview, the counts) count `shown` again.
    func filterDidChange(shown: PeopleArrangement, filter: String?)
    /// Why the source cannot be edited (standard input, the bundled
    /// directory, an offline copy), or nil: asked before a question that
    /// would lead nowhere (`D`).
    var editingRefusal: String? { get }
    /// The connection is back (or was read over just now): the source is
    /// read again whole (its summary, its rows) in place of what the list
    /// shows, which then says `said`. False when the wireframe leaves it to
    /// the list (its rows fetched again as it redraws).
    func readAgain(saying said: String) -> Bool
}

extension ListWireframe {
    public func filterDidChange(shown: PeopleArrangement, filter: String?) {}
    public var editingRefusal: String? { nil }
    public func readAgain(saying said: String) -> Bool { false }
}
