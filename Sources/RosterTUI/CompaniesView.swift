import RosterCore

/// The company overview: a table of companies with their figures.
@MainActor
public final class CompaniesView: CompaniesViewInterface, ScreenView {
    public enum Action: Sendable {
        case up, down, pageUp, pageDown, halfPageUp, halfPageDown, first, last, open, sort, reverseSort, clearFilterOrBack, back
        case help, quit
    }

    public static let keyTable: [KeyBinding<Action>] = KeyBinding.movement(
        up: .up, down: .down, pageUp: .pageUp, pageDown: .pageDown, halfPageUp: .halfPageUp, halfPageDown: .halfPageDown,
        first: .first, last: .last, noun: "company") + [
        KeyBinding([.enter, .right, .character("l")], "⏎/→/l", "people", .open, hint: true),
        KeyBinding([.character("s")], "s", "next order (name, people, active, total, average, age)", .sort),
        KeyBinding([.character("S")], "S", "reverse the order", .reverseSort),
        KeyBinding([.escape], "Esc", "clear the filter; else back to people", .clearFilterOrBack),
        KeyBinding([.tab, .left, .character("h"), .backspace], "Tab/←/h", "back to people", .back, hint: true),
        KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
        KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
    ]

    static let hints = keyTable.hints()
    /// With a filter in force, Esc clears it, and the hints say so.
    static let filteredHints = keyTable.filter { $0.action != .back }
        .map { $0.action == .clearFilterOrBack ? $0.hinting("clear filter") : $0 }.hints()

    private let presenter: CompaniesModuleInterface
    private var model: CompaniesViewModel?
    private var scroll = ScrollWindow()
    /// The key overlay (`?`), while it shows.
    private var help: HelpOverlay?

    public init(presenter: CompaniesModuleInterface) {
        self.presenter = presenter
    }

    public func show(_ model: CompaniesViewModel) {
        self.model = model
        // Measured once per model, not per frame: thousands of companies.
        figureWidths = Self.table.figureWidths(model.rows.map(Self.figures))
    }

    /// Each figure column's width for the model shown (widest cell, or the usual).
    private var figureWidths: [Int] = []

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .quit { presenter.quit() } else if outcome == .close { help = nil }
            return true
        }
        if case .mouse(let event) = key { return handleMouse(event, screenSize: screenSize) }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        let page = max(1, screenSize.rows - 4)
        switch action {
        case .up: presenter.moveSelection(by: -1)
        case .down: presenter.moveSelection(by: 1)
        case .pageUp: presenter.moveSelection(by: -page)
        case .pageDown: presenter.moveSelection(by: page)
        case .halfPageUp: presenter.moveSelection(by: -max(1, (page + 1) / 2))
        case .halfPageDown: presenter.moveSelection(by: max(1, (page + 1) / 2))
        case .first: presenter.selectFirst()
        case .last: presenter.selectLast()
        case .open: presenter.openSelected()
        case .sort: presenter.cycleSortOrder()
        case .reverseSort: presenter.reverseSortOrder()
        case .clearFilterOrBack: if model?.filter == nil { presenter.goBack() } else { presenter.clearFilter() }
        case .back: presenter.goBack()
        case .help: help = HelpOverlay(title: "Company overview keys", table: Self.keyTable)
        case .quit: presenter.quit()
        }
        return true
    }

    /// `--mouse`: the wheel moves three companies, a click selects one, a
    /// double click opens its people.
    private func handleMouse(_ event: MouseEvent, screenSize: ScreenSize) -> Bool {
        switch event.kind {
        case .wheelUp: presenter.moveSelection(by: -3)
        case .wheelDown: presenter.moveSelection(by: 3)
        case .click, .doubleClick:
            guard let model, event.row >= Self.firstRow, event.row < screenSize.rows - 1 else { return false }
            let index = scroll.top + event.row - Self.firstRow
            guard index < model.rows.count, let selected = model.selectedRow else { return false }
            presenter.moveSelection(by: index - selected)
            if event.kind == .doubleClick { presenter.openSelected() }
        }
        return true
    }

    /// The screen row of the first company (below the title and the column heads).
    static let firstRow = 2

    /// The figure columns; on a narrow screen the bar goes first, then
    /// average age, active, average and people: Total stays.
    static let table = FigureTable(titles: ["People", "Active", "Total", "Average", "Avg age"], usualWidths: [8, 8, 16, 12, 8],
                                   dropOrder: [4, 1, 3, 0])

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putBar(left: " Roster — \(model.sourceName): companies", right: "\(model.summary) ", row: 0)
        let height = max(1, size.rows - 3)
        if let selected = model.selectedRow {
            scroll.reveal(selected, rowCount: model.rows.count, height: height)
        }
        let layout = Self.table.layout(figureWidths, columns: size.columns, keeping: model.sortedColumn)
        let largest = model.rows.map(\.count).max() ?? 0
        screen.put(Self.table.line(["Company"] + Self.table.titles, layout: layout), row: 1, column: 0, style: .bold)
        for (offset, row) in model.rows.dropFirst(scroll.top).prefix(height).enumerated() {
            let index = scroll.top + offset
            let text = Self.table.line([row.title] + Self.figures(row), layout: layout,
                                       bar: BarText.bar(count: row.count, largest: largest, cells: layout.barWidth))
            screen.put(text, row: 2 + offset, column: 0, style: index == model.selectedRow ? .selected : .normal)
        }
        let filter = model.filter.map { "filter: \($0)" }
        let status = [model.position, model.sortLabel, filter].compactMap { $0 }.joined(separator: " · ")
        screen.putBar(left: " " + status, right: (model.filter == nil ? Self.hints : Self.filteredHints) + " ", row: size.rows - 1,
                      leftWins: true)
        help?.draw(on: screen)
    }

    static func figures(_ row: CompaniesViewModel.Row) -> [String] {
        [row.headcount, row.active, row.total, row.average, row.averageAge]
    }
}

/// The first row on screen, moved just enough to keep a row in view.
struct ScrollWindow {
    private(set) var top = 0

    /// Shows `row`, and `alsoShow` (a header just above it) when it fits.
    mutating func reveal(_ row: Int, rowCount: Int, height: Int, alsoShow above: Int? = nil) {
        let wanted = above ?? row
        if wanted < top { top = wanted }
        if row >= top + height { top = row - height + 1 }
        top = max(0, min(top, max(0, rowCount - height)))
        if row < top { top = row }
    }
}
