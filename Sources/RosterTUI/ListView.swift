import RosterCore

/// The people list: title bar, company headers and people, status bar.
///
/// Passive: it draws the last model the presenter gave it and turns keys
/// into presenter calls. Only the rows on screen are read from the model's
/// row collection, so a frame costs the same for ten people or a million.
@MainActor
public final class ListView: ListViewInterface, ScreenView {
    public enum Action: Sendable {
        case up, down, pageUp, pageDown, first, last, open, search, clearFilter, skipped, quit
        case sort, reverseSort, grouping, previousCompany, nextCompany, help, companies, collapse, export, back
    }

    public static let keyTable: [KeyBinding<Action>] = KeyBinding.movement(
        up: .up, down: .down, pageUp: .pageUp, pageDown: .pageDown, first: .first, last: .last, noun: "person") + [
        KeyBinding([.enter, .right, .character("l")], "⏎/→/l", "open", .open, hint: true),
        KeyBinding([.character("/")], "/", "search", .search, hint: true),
        KeyBinding([.escape], "Esc", "clear the filter; else back (from a company's list)", .clearFilter),
        KeyBinding([.left, .character("h"), .backspace], "←/h/⌫", "back to the overview (from a company's list)", .back),
        KeyBinding([.tab], "Tab", "company overview", .companies),
        KeyBinding([.character("s")], "s", "next sort order (last, first name, balance, age)", .sort),
        KeyBinding([.character("S")], "S", "reverse the sort order", .reverseSort),
        KeyBinding([.character("c")], "c", "group by company / one flat list", .grouping),
        KeyBinding([.character(" ")], "Space", "collapse / expand the company", .collapse),
        KeyBinding([.character("[")], "[", "previous company", .previousCompany),
        KeyBinding([.character("]")], "]", "next company", .nextCompany),
        KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
        KeyBinding([.character("e")], "e", "export what the list shows to a file (.csv, .json, .vcf)", .export),
        KeyBinding([.character("!")], "!", "skipped records", .skipped),
        KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
    ]

    /// While the search prompt is open, keys edit the text; only these move.
    public static let promptKeyTable: [KeyBinding<Action>] = [
        KeyBinding([.up], "↑", "up", .up),
        KeyBinding([.down], "↓", "down", .down),
        KeyBinding([.pageUp], "PgUp", "page up", .pageUp),
        KeyBinding([.pageDown], "PgDn", "page down", .pageDown),
    ]

    static let promptHints = "⏎ keep  Esc clear  ^U erase"


    /// The status bar's key hints: the table's hinted keys; with a filter
    /// in force, Esc clears it; in a company's list, else it goes back.
    static let hints = keyTable.hints()
    static let filteredHints = hints(escape: "clear", dropping: .search)
    static let companyListHints = hints(escape: "overview")

    private static func hints(escape: String, dropping dropped: Action? = nil) -> String {
        keyTable.filter { $0.action != dropped }.map { $0.action == .clearFilter ? $0.hinting(escape) : $0 }.hints()
    }

    private let presenter: ListModuleInterface
    private var model: ListViewModel?
    /// First row on screen; kept between frames so scrolling is stable.
    private var scroll = ScrollWindow()
    var topRow: Int { scroll.top }
    /// The key overlay (`?`): drawn from `keyTable` itself.
    private(set) var isShowingHelp = false

    public init(presenter: ListModuleInterface) {
        self.presenter = presenter
    }

    public func show(_ model: ListViewModel) {
        self.model = model
    }

    // MARK: Keys

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if isShowingHelp {
            // Esc, ? or F1 close the help; q still quits.
            if key == .character("q") { presenter.quit() } else { isShowingHelp = false }
            return true
        }
        if model?.question != nil {
            presenter.confirmOverwrite(key == .character("y") || key == .character("Y"))
            return true
        }
        if let name = model?.exportPrompt {
            switch key {
            case .character(let character): presenter.editExportName(name + String(character))
            case .backspace: presenter.editExportName(String(name.dropLast()))
            case .control("u"): presenter.editExportName("")
            case .enter: presenter.commitExport()
            case .escape: presenter.cancelExport()
            default: return false
            }
            return true
        }
        if let prompt = model?.searchPrompt {
            if handlePrompt(key, text: prompt) { return true }
            guard let action: Action = Self.promptKeyTable.action(for: key) else { return false }
            perform(action, screenSize: screenSize)
            return true
        }
        if case .mouse(let event) = key { return handleMouse(event, screenSize: screenSize) }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        if action == .clearFilter, model?.filter == nil {
            presenter.goBack()
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
            guard let model, event.row >= 1, event.row <= Self.bodyHeight(screenSize) else { return false }
            let row = topRow + event.row - 1
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

    /// Keys that edit the search text; letters are text here, not commands.
    private func handlePrompt(_ key: Key, text: String) -> Bool {
        switch key {
        case .character(let character):
            presenter.editSearch(text + String(character))
        case .backspace:
            if !text.isEmpty { presenter.editSearch(String(text.dropLast())) }
        case .control("u"):
            presenter.editSearch("")
        case .enter:
            presenter.commitSearch()
        case .escape:
            presenter.cancelSearch()
        default:
            return false
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
        case .first: presenter.selectFirst()
        case .last: presenter.selectLast()
        case .open: presenter.openSelected()
        case .search: presenter.beginSearch()
        case .clearFilter: presenter.cancelSearch()
        case .skipped: presenter.showSkippedRecords()
        case .quit: presenter.quit()
        case .sort: presenter.cycleSortOrder()
        case .reverseSort: presenter.reverseSortOrder()
        case .grouping: presenter.toggleGrouping()
        case .previousCompany: presenter.jumpToCompany(by: -1)
        case .nextCompany: presenter.jumpToCompany(by: 1)
        case .help: isShowingHelp = true
        case .companies: presenter.showCompanies()
        case .collapse: presenter.toggleSection()
        case .export: presenter.beginExport()
        case .back: presenter.goBack()
        }
    }

    // MARK: Drawing

    static func bodyHeight(_ size: ScreenSize) -> Int { max(1, size.rows - 2) }

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        let summary = [model.summary, model.notice].compactMap { $0 }.joined(separator: " · ")
        let title = model.scopeTitle.map { "\(model.sourceName) › \($0)" } ?? model.sourceName
        screen.putBar(left: " Roster — \(title)", right: "\(summary) ", row: 0)
        let height = Self.bodyHeight(size)
        if let emptyMessage = model.emptyMessage {
            let text = DisplayText.fit(emptyMessage, columns: size.columns)
            screen.put(text, row: 1 + height / 2, column: max(0, (size.columns - DisplayText.width(text)) / 2), style: .dim)
        } else {
            scroll(toShow: model.selectedRow ?? 0, rowCount: model.rows.count, height: height)
            let end = min(model.rows.count, topRow + height)
            for row in topRow..<end {
                draw(model.rows[row], selected: row == model.selectedRow, highlight: model.highlight, at: 1 + row - topRow, on: screen)
            }
        }
        if let question = model.question {
            // The question wins the line (it ends in "(y/n)"); the hint takes what is left.
            screen.putBar(left: " " + DisplayText.fit(question, columns: max(1, size.columns - 2), shorteningFirst: model.messageFileName),
                          right: "y yes  any other key no ", row: size.rows - 1, leftWins: true)
            return
        }
        if let name = model.exportPrompt {
            screen.putBar(left: " export to: " + name + "▏", right: "⏎ write  Esc cancel ", row: size.rows - 1)
            return
        }
        if let prompt = model.searchPrompt {
            // The prompt takes the bottom line; the cursor is drawn as a bar.
            let counts = " \(model.position) "
            screen.putBar(left: " /" + prompt + "▏", right: counts + " " + Self.promptHints + " ", row: size.rows - 1)
            return
        }
        let filter = model.filter.map { "filter: \($0)" }
        // On a narrow terminal the company goes first (its header is on
        // screen), so that the order and the filter stay readable.
        let company = DisplayText.width(" " + [model.position, model.currentCompany, model.sortLabel, filter ?? ""]
            .joined(separator: " · ")) >= size.columns ? nil : model.currentCompany
        var status = [model.position, company, model.sortLabel, filter, model.message].compactMap { $0 }.filter { !$0.isEmpty }
        if let message = model.message {
            // A message that does not fit after the place takes the line alone,
            // its file name shortened before its reason.
            // (taking the hint's room too when it must).
            let room = size.columns - DisplayText.width("q quit ") - 2
            if DisplayText.width(status.joined(separator: " · ")) > room {
                status = [DisplayText.fit(message, columns: max(1, size.columns - 2), shorteningFirst: model.messageFileName)]
            }
        }
        // A one-off message takes the room of all hints but quitting.
        let hints = model.message != nil ? "q quit"
            : model.filter != nil ? Self.filteredHints : model.scopeTitle != nil ? Self.companyListHints : Self.hints
        screen.putBar(left: " " + status.joined(separator: " · "), right: hints + " ", row: size.rows - 1, leftWins: true)
        if isShowingHelp { drawHelp(Self.keyTable, title: "List keys", on: screen) }
    }

    /// Keeps `selected` on screen, with its company header when the
    /// selection is the section's first person.
    private func scroll(toShow selected: Int, rowCount: Int, height: Int) {
        scroll.reveal(selected, rowCount: rowCount, height: height, alsoShow: selected > 0 && isHeader(selected - 1) ? selected - 1 : nil)
    }

    /// Redraws the matching parts of a (fitted) name in the match style.
    private func highlightMatches(in name: String, query: SearchQuery, row: Int, selected: Bool, on screen: Screen) {
        let characters = Array(name)
        for range in PeopleSearch.matchRanges(in: name, query: query) {
            let column = 2 + characters[..<range.lowerBound].reduce(0) { $0 + DisplayText.width(of: $1) }
            screen.put(String(characters[range]), row: row, column: column, style: selected ? .selectedMatch : .match)
        }
    }

    private func isHeader(_ row: Int) -> Bool {
        guard let model, row >= 0, row < model.rows.count else { return false }
        if case .header = model.rows[row] { return true }
        return false
    }

    private func draw(_ row: ListRow, selected: Bool, highlight: SearchQuery?, at line: Int, on screen: Screen) {
        let width = screen.size.columns
        switch row {
        case .header(let header):
            let count = header.count == header.total ? " (\(header.count))" : " (\(header.count)/\(header.total))"
            let marker = header.isCollapsed ? "▸ " : ""
            let title = DisplayText.fit(marker + header.title, columns: max(1, width - count.count - 1))
            screen.put(title, row: line, column: 0, style: selected ? .selected : .header)
            screen.put(count, row: line, column: DisplayText.width(title), style: selected ? .selected : .dim)
        case .person(let person):
            let balance = DisplayText.fit(person.balance, columns: max(0, width / 3))
            let balanceWidth = DisplayText.width(balance)
            let nameColumns = max(1, width - 4 - balanceWidth - 2)
            let name = DisplayText.padded(person.name, columns: nameColumns)
            let gap = String(repeating: " ", count: max(0, width - 4 - nameColumns - balanceWidth))
            screen.put("  " + name + "  " + gap + balance, row: line, column: 0, style: selected ? .selected : .normal)
            if !selected {
                screen.put(balance, row: line, column: width - balanceWidth, style: .balance)
            }
            if let highlight {
                highlightMatches(in: name, query: highlight, row: line, selected: selected, on: screen)
            }
        }
    }
}
