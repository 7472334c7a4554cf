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
        figureWidths = Self.figureWidths(model.rows)
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

    /// The figure columns, in the order shown; `dropOrder` says which go
    /// first when the terminal is too narrow for every number whole.
    private static let figureTitles = ["People", "Active", "Total", "Average", "Avg age"]
    /// Widths that fit everyday figures, so the table doesn't jump about.
    private static let usualWidths = [8, 8, 16, 12, 8]
    private static let dropOrder = [4, 1, 3, 0]
    /// Below this the company name would be unreadable: drop a column instead.
    private static let minimumNameWidth = 12

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putBar(left: " Roster — \(model.sourceName): companies", right: "\(model.summary) ", row: 0)
        let height = max(1, size.rows - 3)
        if let selected = model.selectedRow {
            scroll.reveal(selected, rowCount: model.rows.count, height: height)
        }
        let layout = Self.layout(figureWidths, columns: size.columns, keeping: model.sortedColumn)
        screen.put(line(["Company"] + Self.figureTitles, layout: layout), row: 1, column: 0, style: .bold)
        for (offset, row) in model.rows.dropFirst(scroll.top).prefix(height).enumerated() {
            let index = scroll.top + offset
            let text = line([row.title, row.headcount, row.active, row.total, row.average, row.averageAge], layout: layout)
            screen.put(text, row: 2 + offset, column: 0, style: index == model.selectedRow ? .selected : .normal)
        }
        let filter = model.filter.map { "filter: \($0)" }
        let status = [model.position, model.sortLabel, filter].compactMap { $0 }.joined(separator: " · ")
        screen.putBar(left: " " + status, right: (model.filter == nil ? Self.hints : Self.filteredHints) + " ", row: size.rows - 1,
                      leftWins: true)
        help?.draw(on: screen)
    }

    /// Which figure columns fit, and how wide: each as wide as its widest
    /// number (a number is never cut), the name taking what is left.
    struct Layout {
        var nameWidth: Int
        /// Width of each figure column, or nil when it was dropped.
        var figureWidths: [Int?]
    }

    static func figureWidths(_ rows: [CompaniesViewModel.Row]) -> [Int] {
        var widest = figureTitles.map(DisplayText.width)
        for row in rows {
            for (index, cell) in [row.headcount, row.active, row.total, row.average, row.averageAge].enumerated() {
                widest[index] = max(widest[index], DisplayText.width(cell))
            }
        }
        return zip(widest, usualWidths).map { max($0 + 1, $1) }
    }

    /// Which of the columns `figureWidths` measured fit in `columns`.
    static func layout(_ figureWidths: [Int], columns: Int, keeping sorted: Int? = nil) -> Layout {
        var widths: [Int?] = figureWidths
        var dropping = dropOrder.filter { $0 != sorted }.makeIterator()
        while columns - widths.reduce(0, { $0 + ($1 ?? 0) }) - 2 < minimumNameWidth, let next = dropping.next() {
            widths[next] = nil
        }
        // With every column but Total gone, the name gives way rather than the number.
        return Layout(nameWidth: max(4, columns - widths.reduce(0) { $0 + ($1 ?? 0) } - 2), figureWidths: widths)
    }

    /// " name…   figures right-aligned in their columns".
    private func line(_ cells: [String], layout: Layout) -> String {
        var text = " " + DisplayText.padded(cells[0], columns: layout.nameWidth - 1)
        for (cell, width) in zip(cells.dropFirst(), layout.figureWidths) {
            guard let width else { continue }
            let fitted = DisplayText.fit(cell, columns: width - 1)
            text += String(repeating: " ", count: max(0, width - DisplayText.width(fitted))) + fitted
        }
        return text
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
