import RosterCore

/// Counts by any field (`F`): a row per value with its figures and a bar.
@MainActor
public final class FrequencyView: FrequencyViewInterface, ScreenView {
    public enum Action: Sendable {
        case up, down, pageUp, pageDown, halfPageUp, halfPageDown, first, last, open, sort, reverseSort
        case nextField, previousField, clearFilterOrBack, back, help, quit
    }

    public static let keyTable: [KeyBinding<Action>] = KeyBinding.movement(
        up: .up, down: .down, pageUp: .pageUp, pageDown: .pageDown, halfPageUp: .halfPageUp, halfPageDown: .halfPageDown,
        first: .first, last: .last, noun: "value") + [
        KeyBinding([.enter, .right, .character("l")], "⏎/→/l", "people", .open, hint: true),
        KeyBinding([.character("f")], "f", "count by the next field (company, city, state, eye colour, fruit, active, age, balance)",
                   .nextField),
        KeyBinding([.character("F")], "F", "count by the previous field", .previousField),
        KeyBinding([.character("s")], "s", "next order (value, people, total, average)", .sort),
        KeyBinding([.character("S")], "S", "reverse the order", .reverseSort),
        KeyBinding([.escape], "Esc", "clear the filter; else back to people", .clearFilterOrBack),
        KeyBinding([.tab, .left, .character("h"), .backspace], "Tab/←/h", "back to people", .back, hint: true),
        KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
        KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
    ]

    /// "f field" joins the hints: the one key that is new here.
    static let hints = hints(escape: nil)
    static let filteredHints = hints(escape: "clear filter")

    private static func hints(escape: String?) -> String {
        keyTable.filter { escape == nil || $0.action != .back }
            .map { binding -> KeyBinding<Action> in
                switch binding.action {
                case .nextField: return binding.hinting("field")
                case .back: return binding.hinting("back")
                case .clearFilterOrBack: return escape.map(binding.hinting) ?? binding
                default: return binding
                }
            }.hints()
    }

    static let table = FigureTable(titles: ["People", "Share", "Total", "Average"], usualWidths: [8, 7, 16, 12], dropOrder: [3, 1, 2])

    private let presenter: FrequencyModuleInterface
    private var model: FrequencyViewModel?
    private var scroll = ScrollWindow()
    private var help: HelpOverlay?
    /// Each figure column's width for the model shown.
    private var figureWidths: [Int] = []

    public init(presenter: FrequencyModuleInterface) {
        self.presenter = presenter
    }

    public func show(_ model: FrequencyViewModel) {
        self.model = model
        figureWidths = Self.table.figureWidths(model.rows.map(Self.figures))
    }

    static func figures(_ row: FrequencyViewModel.Row) -> [String] {
        [row.headcount, row.share, row.total, row.average]
    }

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
        case .nextField: presenter.cycleField(by: 1)
        case .previousField: presenter.cycleField(by: -1)
        case .clearFilterOrBack: if model?.filter == nil { presenter.goBack() } else { presenter.clearFilter() }
        case .back: presenter.goBack()
        case .help: help = HelpOverlay(title: "Counts keys (F)", table: Self.keyTable)
        case .quit: presenter.quit()
        }
        return true
    }

    /// `--mouse`: the wheel moves three rows, a click selects one, a double
    /// click opens its people.
    private func handleMouse(_ event: MouseEvent, screenSize: ScreenSize) -> Bool {
        switch event.kind {
        case .wheelUp: presenter.moveSelection(by: -3)
        case .wheelDown: presenter.moveSelection(by: 3)
        case .click, .doubleClick:
            guard let model, event.row >= 2, event.row < screenSize.rows - 1 else { return false }
            let index = scroll.top + event.row - 2
            guard index < model.rows.count, let selected = model.selectedRow else { return false }
            presenter.moveSelection(by: index - selected)
            if event.kind == .doubleClick { presenter.openSelected() }
        }
        return true
    }

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putBar(left: " Roster — \(model.sourceName): counts of \(model.fieldLabel)", right: "\(model.summary) ", row: 0)
        let height = max(1, size.rows - 3)
        if let selected = model.selectedRow {
            scroll.reveal(selected, rowCount: model.rows.count, height: height)
        }
        let layout = Self.table.layout(figureWidths, columns: size.columns, keeping: model.sortedColumn)
        let head = model.fieldLabel.prefix(1).uppercased() + model.fieldLabel.dropFirst()
        screen.put(Self.table.line([head] + Self.table.titles, layout: layout), row: 1, column: 0, style: .bold)
        for (offset, row) in model.rows.dropFirst(scroll.top).prefix(height).enumerated() {
            let index = scroll.top + offset
            let text = Self.table.line([row.title] + Self.figures(row), layout: layout,
                                       bar: BarText.bar(count: row.count, largest: model.largestCount, cells: layout.barWidth))
            screen.put(text, row: 2 + offset, column: 0, style: index == model.selectedRow ? .selected : .normal)
        }
        if model.rows.isEmpty {
            screen.put(" Nobody to count.", row: 2, column: 0, style: .dim)
        }
        let filter = model.filter.map { "filter: \($0)" }
        let status = [model.position, "by " + model.fieldLabel, model.sortLabel, filter, model.notice].compactMap { $0 }
            .joined(separator: " · ")
        screen.putBar(left: " " + status, right: (model.filter == nil ? Self.hints : Self.filteredHints) + " ", row: size.rows - 1,
                      leftWins: true)
        help?.draw(on: screen)
    }
}
