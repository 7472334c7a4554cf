import RosterCore

/// Counts by any field (`F`): a row per value with its figures and a bar.
@MainActor
public final class FrequencyView: FrequencyViewInterface, ScreenView {
    public enum Action: Sendable, Equatable {
        case table(TableAction)
        case nextField, previousField
    }

    public static let keyTable: [KeyBinding<Action>] = TableKeys.bindings(
        noun: "value", sortHelp: "next order (value; people, total, average: largest first)",
        extra: [
            KeyBinding([.character("f")], "f", "count by the next field (company, city, state, eye color, fruit, active, age, balance, manager)",
                       .nextField),
            KeyBinding([.character("F")], "F", "count by the previous field", .previousField),
        ], wrap: Action.table)

    /// `?`: the counts' keys.
    static let keyHelp = HelpOverlay(title: "Counts keys (F)", table: keyTable)

    /// "f field" joins the hints: the one key that is new here.
    static let hints = hints(escape: nil)
    static let filteredHints = hints(escape: "clear filter")

    private static func hints(escape: String?) -> StatusHints {
        keyTable.filter { escape == nil || $0.action != .table(.back) }
            .map { binding -> KeyBinding<Action> in
                switch binding.action {
                case .nextField: return binding.hinting("field")
                case .table(.back): return binding.hinting("back")
                case .table(.clearFilterOrBack): return escape.map(binding.hinting) ?? binding
                default: return binding
                }
            }.hints()
    }

    static let table = FigureTable(titles: ["People", "Share", "Total", "Average"], usualWidths: [8, 7, 16, 12], dropOrder: [3, 1, 2],
                                   barTitle: "Size")

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
        let measured = self.model?.rowsVersion
        self.model = model
        // Measured once per change of the rows (a version of 0 is unknown: measured).
        guard model.rowsVersion == 0 || model.rowsVersion != measured else { return }
        figureWidths = Self.table.figureWidths(model.rows.map(Self.figures))
    }

    static func figures(_ row: FrequencyViewModel.Row) -> [String] {
        [row.headcount, row.share, row.total, row.average]
    }

    /// `f`/`F` while counting wait too: the next field is counted after
    /// the one being counted, and the keys typed after it act on its rows.
    public func timing(of key: Key) -> KeyTiming {
        guard help == nil, let action = Self.keyTable.action(for: key) else { return .inOrder }
        switch action {
        case .nextField, .previousField: return presenter.isCounting ? .waits : .inOrder
        case .table(let action): return TableKeys.timing(of: action, isCounting: presenter.isCounting)
        }
    }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let handled = TableKeys.handleOverlayOrMouse(key, help: &help, screenSize: screenSize, scrollTop: scroll.top,
                                                        rowCount: model?.rows.count ?? 0, selectedRow: model?.selectedRow,
                                                        presenter: presenter) {
            return handled
        }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        switch action {
        case .nextField: presenter.cycleField(by: 1)
        case .previousField: presenter.cycleField(by: -1)
        case .table(.help): openHelp()
        case .table(let action): TableKeys.perform(action, on: presenter, hasFilter: model?.filter != nil, screenSize: screenSize)
        }
        return true
    }

    /// The word in the status bar ends at the next key, as the list's message.
    public func keyPressed() {
        presenter.endMessage()
    }

    /// The help screen (`?`, `:help`).
    public func openHelp() {
        help = Self.keyHelp.withProblem(model?.problemDetail)
    }

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putTitleBar(source: model.sourceName, then: ": counts by \(model.fieldLabel)", right: model.summary)
        let head = model.fieldLabel.prefix(1).uppercased() + model.fieldLabel.dropFirst()
        let rows = model.rows
        Self.table.draw(head: head, rowCount: rows.count, largest: model.largestCount,
                        row: { .init(title: rows[$0].title, figures: Self.figures(rows[$0]), count: rows[$0].count) },
                        selectedRow: model.selectedRow, figureWidths: figureWidths, sortedColumn: model.sortedColumn,
                        descending: model.sortDescending, scroll: &scroll, on: screen)
        if model.rows.isEmpty {
            // Wrapped, never cut: it says how to get the counts back.
            for (offset, line) in wrap(model.emptyMessage, columns: max(10, size.columns - 2)).enumerated() where 2 + offset < size.rows - 1 {
                screen.put(" " + line, row: 2 + offset, column: 0, style: .dim)
            }
        }
        let filter = model.filter.map { "filter: \($0)" }
        let status = [model.position, "by " + model.fieldLabel, model.sortLabel, filter, model.notice].compactMap { $0 }
            .joined(separator: " · ")
        screen.putStatusBar(left: " " + status, hints: model.filter == nil ? Self.hints : Self.filteredHints, row: size.rows - 1)
        help?.draw(on: screen)
    }
}
