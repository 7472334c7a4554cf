import RosterCore

/// The people list: title bar, company headers and people, status bar.
///
/// Passive: it draws the last model the presenter gave it and turns keys
/// into presenter calls. Only the rows on screen are read from the model's
/// row collection, so a frame costs the same for ten people or a million.
@MainActor
public final class ListView: ListViewInterface, ScreenView {
    public enum Action: Sendable {
        case up, down, pageUp, pageDown, halfPageUp, halfPageDown, first, last, open, search, clearFilter, skipped, quit
        case sort, reverseSort, grouping, previousCompany, nextCompany, help, companies, counts, collapse, export, back
        case mark, markAll, unmarkAll, copyAddresses, copyVCards, columns, reconnect, edit, delete, add, editInEditor, undo
        case nextMatch, previousMatch, sortMenu, sortMenuDescending, commandLine, orgChart
    }

    public static let keyTable: [KeyBinding<Action>] = KeyBinding.movement(
        up: .up, down: .down, pageUp: .pageUp, pageDown: .pageDown, halfPageUp: .halfPageUp, halfPageDown: .halfPageDown,
        first: .first, last: .last, noun: "person") + [
        KeyBinding([.enter, .right, .character("l")], "⏎/→/l", "open", .open, hint: true),
        KeyBinding([.character("/")], "/", "search", .search, hint: true),
        KeyBinding([.character("n")], "n", "next match (no filter: the next who matches the last search)", .nextMatch),
        KeyBinding([.character("N")], "N", "previous match (at the last one, n and N stay and say so)", .previousMatch),
        KeyBinding([.escape], "Esc", "clear the filter, else back (a value's list: back at once)", .clearFilter),
        KeyBinding([.left, .character("h"), .backspace], "←/h/⌫", "back to the overview (from a company's list)", .back),
        KeyBinding([.tab], "Tab", "company overview", .companies),
        KeyBinding([.character("F")], "F", "counts by field", .counts, hint: true),
        KeyBinding([.character("T")], "T", "org chart: who reports to whom (a \"manager\" field), at the person", .orgChart),
        KeyBinding([.character("s")], "s", "next sort order, ascending: last, first name, each shown column", .sort),
        KeyBinding([.character("S")], "S", "reverse the sort order", .reverseSort),
        KeyBinding([.character("o")], "o", "sort by a column, ascending: a letter each (o l: last name)", .sortMenu),
        KeyBinding([.character("O")], "O", "sort by a column, descending (O B g: the top balances of all)", .sortMenuDescending),
        KeyBinding([.character(":")], ":", "command line: :sort balance desc, :filter …, :export …, :42, :q", .commandLine),
        KeyBinding([.character("c")], "c", "group by company / one flat list", .grouping),
        KeyBinding([.character(" ")], "Space", "collapse / expand the company", .collapse),
        KeyBinding([.character("[")], "[", "previous company", .previousCompany),
        KeyBinding([.character("]")], "]", "next company", .nextCompany),
        KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
        KeyBinding([.character("m")], "m", "mark / unmark the person, then down", .mark),
        KeyBinding([.character("M")], "M", "mark everyone shown (under the filter)", .markAll),
        KeyBinding([.character("u")], "u", "unmark everyone (shown or not)", .unmarkAll),
        KeyBinding([.character("e")], "e", "export the marked, else all shown, to a file (.csv .json .vcf)", .export),
        KeyBinding([.character("E")], "E", "edit the person (a form; ⏎ saves)", .edit),
        KeyBinding([.character("v")], "v", "edit the person's record in $VISUAL / $EDITOR", .editInEditor),
        KeyBinding([.character("a")], "a", "add a person (a form, in the selected person's company)", .add),
        KeyBinding([.character("D")], "D", "delete the marked people, else the selected one (asks first)", .delete),
        KeyBinding([.character("U")], "U", "undo the last change saved (E, v, a, D) in this session", .undo),
        KeyBinding([.character("y")], "y", "copy marked (else selected) emails: Name <email>, … (OSC 52)", .copyAddresses),
        KeyBinding([.character("Y")], "Y", "copy marked (else selected) people as vCards", .copyVCards),
        KeyBinding([.character("C")], "C", "choose, order and hide columns", .columns),
        KeyBinding([.character("!")], "!", "skipped records", .skipped),
        KeyBinding([.character("r")], "r", "reconnect now (after \"connection lost\"; also tried on its own)", .reconnect),
        KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
    ]

    /// What a key does in a prompt (search or export).
    public enum PromptAction: Sendable, Equatable {
        case edit(LineEdit)
        case accept, cancel
        /// Search only: moves through the list without leaving the prompt.
        case list(Action)
    }

    /// While a prompt is open, keys edit its line (any other character is
    /// typed: `j` and `q` are text here); these are the named ones.
    public static let promptKeyTable: [KeyBinding<PromptAction>] = [
        KeyBinding([.enter], "⏎", "search: keep the filter; export: write the file", .accept),
        KeyBinding([.escape], "Esc", "search: put back the filter from before /; export: cancel", .cancel),
        KeyBinding([.left], "←", "cursor left", .edit(.moveLeft)),
        KeyBinding([.right], "→", "cursor right", .edit(.moveRight)),
        KeyBinding([.home, .control("a")], "Home/^A", "start of the line", .edit(.moveToStart)),
        KeyBinding([.end, .control("e")], "End/^E", "end of the line", .edit(.moveToEnd)),
        KeyBinding([.tab], "Tab", "export: complete the file name (again: list the matches)", .edit(.complete)),
        KeyBinding([.backspace], "Backspace", "delete before the cursor", .edit(.deleteBackward)),
        KeyBinding([.delete], "Delete", "delete under the cursor", .edit(.deleteForward)),
        KeyBinding([.control("w")], "^W", "delete the word before the cursor (a . or / ends a word)", .edit(.deleteWordBackward)),
        KeyBinding([.control("u")], "^U", "delete to the start (^U ⏎ clears the filter)", .edit(.deleteToStart)),
        KeyBinding([.control("k")], "^K", "delete to the end", .edit(.deleteToEnd)),
        KeyBinding([.up], "↑", "earlier entry of this prompt (this session)", .edit(.previousEntry)),
        KeyBinding([.down], "↓", "later entry", .edit(.nextEntry)),
        KeyBinding([.control("p")], "^P", "search: previous person", .list(.up)),
        KeyBinding([.control("n")], "^N", "search: next person", .list(.down)),
        KeyBinding([.pageUp], "PgUp", "search: a page up the list", .list(.pageUp)),
        KeyBinding([.pageDown], "PgDn", "search: a page down the list", .list(.pageDown)),
    ]

    /// `?`: the list's keys, the prompts', the column chooser's, the sort
    /// menu's letters, the command line's commands and the query language,
    /// each from the table that runs them.
    static let keyHelp = HelpOverlay(title: "List keys", table: keyTable)
        .adding("In the search (/) and export (e) prompts", table: promptKeyTable)
        .adding("In the column chooser (C)", table: ColumnChooserView.keyTable)
        .adding(sortMenuHeading,
                examples: [("Esc/q", "close the menu, the order unchanged"), ("?", "this help, at this part")]
                    + SortMenu.entries.map { (String($0.letter), $0.label) }
                    + [("B", "a capital: by that column as one flat list (O B: the top balances of all)")])
        .adding("In the command line (:), besides the prompts' keys", table: CommandLineView.keyTable)
        .adding("The command line's commands (a name may be cut short: :s, :q)",
                examples: ListCommandTable.commands.map { ($0.synopsis, $0.help) })
        .adding("Search queries (also --filter)", examples: QueryGrammar.examples)

    static let sortMenuHeading = "In the sort menu (o ascending, O descending)"

    static let searchPromptHints = ["⏎ keep", "Esc cancel", "↑ history"]
    static let exportPromptHints = ["⏎ write", "Esc cancel"]


    /// The status bar's key hints: the table's hinted keys; with a filter
    /// in force, Esc clears it; in a list over another screen, Esc names
    /// where it goes back to.
    static let hints = hintTable.hints()
    static let filteredHints = hints(escape: "clear", dropping: [.search])
    /// A filter no one matches: nobody to open.
    static let nobodyFilteredHints = hints(escape: "clear", dropping: [.search, .open])
    static let overviewListHints = hints(escape: "overview")
    static let countsListHints = hints(escape: "counts")

    static func backHints(to parent: String) -> StatusHints {
        switch parent {
        case "overview": return overviewListHints
        case "counts": return countsListHints
        default: return hints(escape: parent)
        }
    }

    /// The key table as the status bar words it ("F counts": short).
    private static let hintTable = keyTable.map { $0.action == .counts ? $0.hinting("counts") : $0 }

    private static func hints(escape: String, dropping dropped: Set<Action> = []) -> StatusHints {
        hintTable.filter { !dropped.contains($0.action) }.map { $0.action == .clearFilter ? $0.hinting(escape) : $0 }.hints()
    }

    let presenter: ListModuleInterface
    var model: ListViewModel?
    /// First row on screen; kept between frames so scrolling is stable.
    var scroll = ScrollWindow()
    /// The open prompt's bar (its sideways scroll), and which prompt it is.
    var promptBar = PromptBar()
    var promptShown: PromptKind?
    enum PromptKind { case search, export }
    var topRow: Int { scroll.top }
    /// The header drawn over the first line when the top row is inside a
    /// company (a sticky header), as of the last frame.
    var pinnedHeaderRow: Int?
    /// The balance's and the columns' widths in the last frame with people's values.
    var lastMeasure: Measure?
    /// The list `lastMeasure` was taken of.
    var measuredList: MeasuredList?

    /// How wide a page's values are: the widest amount, and each column's widest value.
    typealias Measure = (balance: Int, widest: [ListColumn: Int])

    /// What identifies one list for `measure`: scrolling keeps it, a new
    /// search, order or column choice changes it.
    struct MeasuredList: Equatable {
        let rowCount: Int
        let filter: String?
        let sortLabel: String
        let columns: ListColumns
    }
    /// The key overlay (`?`), while it shows.
    var help: HelpOverlay?
    /// The columns the last frame showed, name first (the chooser says
    /// which have no room); nil before one, or with no one to show.
    public internal(set) var placedColumns: [ListColumn]?

    public init(presenter: ListModuleInterface) {
        self.presenter = presenter
    }

    public func show(_ model: ListViewModel) {
        self.model = model
    }

    // MARK: Keys

    /// While a search or a new order is in flight, keys wait for it, so
    /// that they act on the list it brings; typing in the search prompt
    /// goes on meanwhile (each keystroke supersedes the search before).
    public func timing(of key: Key) -> KeyTiming {
        guard presenter.hasWorkInFlight, help == nil else { return .inOrder }
        guard model?.searchPrompt != nil else {
            // q, ? and Esc do not act on the rows being searched for: they
            // answer at once when nothing waits before them (a search held up
            // by a locked table never holds up the way out).
            switch Self.keyTable.action(for: key) {
            case .quit?, .help?, .clearFilter?: return .inOrder
            default: return .waits
            }
        }
        switch Self.promptKeyTable.action(for: key) {
        case .list?: return .waits  // ^N, PgDn: through the list the search brings
        case .edit?, .accept?, .cancel?: return .inOrder
        case nil:
            switch key {
            case .character, .typed, .paste: return .inOrder  // text for the prompt
            default: return .waits
            }
        }
    }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .close { help = nil }
            return true
        }
        if model?.question != nil {
            presenter.confirmOverwrite(key == .character("y") || key == .character("Y"))
            return true
        }
        if model?.exportPrompt != nil { return handlePrompt(key, isSearch: false, screenSize: screenSize) }
        if model?.searchPrompt != nil { return handlePrompt(key, isSearch: true, screenSize: screenSize) }
        if case .mouse(let event) = key { return handleMouse(event, screenSize: screenSize) }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        if action == .clearFilter, model?.filter == nil || model?.escapeGoesBackTo != nil {
            presenter.goBack(by: .escape)
            return true
        }
        if action == .back {
            presenter.goBack(by: .back(name: key.spokenName ?? "that key"))
            return true
        }
        perform(action, screenSize: screenSize)
        return true
    }

    /// `--mouse`: the wheel scrolls three people, a click selects, a double
    /// click opens. A click on a company header selects its first person.
    private func handleMouse(_ event: MouseEvent, screenSize: ScreenSize) -> Bool {
        switch event.kind {
        case .wheelUp: presenter.moveSelection(by: -3)
        case .wheelDown: presenter.moveSelection(by: 3)
        case .click, .doubleClick:
            let first = Self.firstBodyRow
            guard let model, event.row >= first, event.row < first + Self.bodyHeight(screenSize) else { return false }
            let row = event.row == first ? pinnedHeaderRow ?? topRow : topRow + event.row - first
            guard row < model.rows.count else { return false }
            switch model.rows[row] {
            case .person(let person): presenter.select(position: person.position)
            case .header:
                guard row + 1 < model.rows.count, case .person(let first) = model.rows[row + 1] else { return false }
                presenter.select(position: first.position)
            }
            if event.kind == .doubleClick { presenter.openSelected() }
        }
        return true
    }

    /// The message ends at the next key, even one a screen over the list takes.
    public func keyPressed() {
        presenter.endMessage()
    }

    /// In a prompt `?` is text: the way out is named instead.
    public var unusedKeyHint: String? {
        model?.searchPrompt != nil || model?.exportPrompt != nil ? "Esc closes the prompt" : "? help"
    }

    public var acceptsTypedText: Bool {
        help == nil && model?.question == nil && (model?.exportPrompt != nil || model?.searchPrompt != nil)
    }

    /// Keys in a prompt: the table's, else a character is typed; a paste
    /// or characters typed ahead are one edit (one search).
    private func handlePrompt(_ key: Key, isSearch: Bool, screenSize: ScreenSize) -> Bool {
        guard let action: PromptAction = Self.promptKeyTable.action(for: key) else {
            guard let typed = key.typedEdit else { return false }
            presenter.editPrompt(typed)
            return true
        }
        switch action {
        case .edit(let edit):
            guard !(isSearch && edit == .complete) else { return false }  // Tab completes file names only
            presenter.editPrompt(edit)
        case .accept: if isSearch { presenter.commitSearch() } else { presenter.commitExport() }
        case .cancel: if isSearch { presenter.cancelSearch() } else { presenter.cancelExport() }
        case .list(let listAction):
            guard isSearch else { return false }
            perform(listAction, screenSize: screenSize)
        }
        return true
    }

    private func perform(_ action: Action, screenSize: ScreenSize) {
        let page = max(1, Self.bodyHeight(screenSize) - 1)
        switch action {
        case .up: presenter.moveSelection(by: -1)
        case .down: presenter.moveSelection(by: 1)
        case .pageUp: presenter.moveSelection(by: -page)
        case .pageDown: presenter.moveSelection(by: page)
        case .halfPageUp: presenter.moveSelection(by: -Self.halfPage(screenSize))
        case .halfPageDown: presenter.moveSelection(by: Self.halfPage(screenSize))
        case .first: presenter.selectFirst()
        case .last: presenter.selectLast()
        case .open: presenter.openSelected()
        case .edit: presenter.editSelected()
        case .delete: presenter.deleteMarkedOrSelected()
        case .add: presenter.addPerson()
        case .editInEditor: presenter.editInEditor()
        case .undo: presenter.undo()
        case .search: presenter.beginSearch()
        case .clearFilter: presenter.cancelSearch()
        case .skipped: presenter.showSkippedRecords()
        case .quit: presenter.quit()
        case .sort: presenter.cycleSortOrder()
        case .reverseSort: presenter.reverseSortOrder()
        case .grouping: presenter.toggleGrouping()
        case .previousCompany: presenter.jumpToCompany(by: -1)
        case .nextCompany: presenter.jumpToCompany(by: 1)
        case .help: openHelp()
        case .companies: presenter.showCompanies()
        case .counts: presenter.showCounts()
        case .orgChart: presenter.showOrgChart()
        case .collapse: presenter.toggleSection()
        case .export: presenter.beginExport()
        case .back: presenter.goBack(by: .back(name: "←"))  // handle names the key pressed
        case .mark: presenter.toggleMark()
        case .markAll: presenter.markAllShown()
        case .unmarkAll: presenter.unmarkAll()
        case .copyAddresses: presenter.copyAddresses()
        case .copyVCards: presenter.copyVCards()
        case .columns: presenter.chooseColumns()
        case .reconnect: presenter.reconnect()
        case .nextMatch: presenter.showMatch(forward: true)
        case .previousMatch: presenter.showMatch(forward: false)
        case .sortMenu: presenter.chooseSortOrder(descending: false)
        case .sortMenuDescending: presenter.chooseSortOrder(descending: true)
        case .commandLine: presenter.openCommandLine()
        }
    }

    /// The help screen (`?`, `:help`).
    public func openHelp() {
        help = Self.keyHelp.withProblem(model?.connection?.detail)
    }
}
