import RosterCore

/// The company overview: a table of companies with their figures.
@MainActor
public final class CompaniesView: CompaniesViewInterface, ScreenView {
    public enum Action: Sendable {
        case up, down, pageUp, pageDown, halfPageUp, halfPageDown, first, last, open, sort, reverseSort, back, help, quit
    }

    public static let keyTable: [KeyBinding<Action>] = KeyBinding.movement(
        up: .up, down: .down, pageUp: .pageUp, pageDown: .pageDown, halfPageUp: .halfPageUp, halfPageDown: .halfPageDown,
        first: .first, last: .last, noun: "company") + [
        KeyBinding([.enter, .right, .character("l")], "⏎/→/l", "people", .open, hint: true),
        KeyBinding([.character("s")], "s", "next order (name, headcount, total balance, average age)", .sort),
        KeyBinding([.character("S")], "S", "reverse the order", .reverseSort),
        KeyBinding([.escape, .tab, .left, .character("h")], "Esc/Tab", "back to people", .back, hint: true),
        KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
        KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
    ]

    static let hints = keyTable.hints()

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
    }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .quit { presenter.quit() } else if outcome == .close { help = nil }
            return true
        }
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
        case .back: presenter.goBack()
        case .help: help = HelpOverlay(title: "Company overview keys", table: Self.keyTable)
        case .quit: presenter.quit()
        }
        return true
    }

    /// Column widths: name takes what the figures leave.
    private static let figureColumns: [(title: String, width: Int)] = [
        ("People", 8), ("Active", 8), ("Total", 16), ("Average", 12), ("Avg age", 8),
    ]

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putBar(left: " Roster — \(model.sourceName): companies", right: "\(model.summary) ", row: 0)
        let figuresWidth = Self.figureColumns.reduce(0) { $0 + $1.width }
        let nameWidth = max(8, size.columns - figuresWidth - 2)
        screen.put(line(["Company"] + Self.figureColumns.map(\.title), nameWidth: nameWidth), row: 1, column: 0, style: .bold)
        let height = max(1, size.rows - 3)
        if let selected = model.selectedRow {
            scroll.reveal(selected, rowCount: model.rows.count, height: height)
        }
        for (offset, row) in model.rows.dropFirst(scroll.top).prefix(height).enumerated() {
            let index = scroll.top + offset
            let text = line([row.title, row.headcount, row.active, row.total, row.average, row.averageAge], nameWidth: nameWidth)
            screen.put(text, row: 2 + offset, column: 0, style: index == model.selectedRow ? .selected : .normal)
        }
        screen.putBar(left: " \(model.position) · \(model.sortLabel)", right: Self.hints + " ", row: size.rows - 1)
        help?.draw(on: screen)
    }

    /// " name…   figures right-aligned in their columns".
    private func line(_ cells: [String], nameWidth: Int) -> String {
        var text = " " + DisplayText.padded(cells[0], columns: nameWidth - 1)
        for (cell, column) in zip(cells.dropFirst(), Self.figureColumns) {
            let fitted = DisplayText.fit(cell, columns: column.width - 1)
            text += String(repeating: " ", count: column.width - DisplayText.width(fitted)) + fitted
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
