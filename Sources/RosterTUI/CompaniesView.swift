import RosterCore

/// The company overview: a table of companies with their figures.
@MainActor
public final class CompaniesView: CompaniesViewInterface, ScreenView {
    public typealias Action = TableAction

    public static let keyTable: [KeyBinding<Action>] = TableKeys.bindings(
        noun: "company", sortHelp: "next order (name A→Z; people, active, total, average, age: largest first)") { $0 }

    /// `?`: the overview's keys.
    static let keyHelp = HelpOverlay(title: "Company overview keys", table: keyTable)

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
        let measured = self.model?.rowsVersion
        self.model = model
        // Measured once per change of the rows, not per key or frame: tens
        // of thousands of companies (a version of 0 is unknown: measured).
        guard model.rowsVersion == 0 || model.rowsVersion != measured else { return }
        let widest = model.rows.widest
        figureWidths = Self.table.figureWidths([Self.figures(widest)])
        largest = widest.count
    }

    /// Each figure column's width for the model shown (widest cell, or the usual).
    private var figureWidths: [Int] = []
    /// The largest headcount: a full bar.
    private var largest = 0

    public func timing(of key: Key) -> KeyTiming {
        help != nil ? .inOrder : TableKeys.timing(of: Self.keyTable.action(for: key), isCounting: presenter.isCounting)
    }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let handled = TableKeys.handleOverlayOrMouse(key, help: &help, screenSize: screenSize, scrollTop: scroll.top,
                                                        rowCount: model?.rows.count ?? 0, selectedRow: model?.selectedRow,
                                                        presenter: presenter) {
            return handled
        }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        if action == .help { openHelp() }
        TableKeys.perform(action, on: presenter, hasFilter: model?.filter != nil, screenSize: screenSize)
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

    /// The figure columns; on a narrow screen the bar goes first, then
    /// average age, active, average and people: Total stays. The bar is
    /// the company's size against the largest's.
    static let table = FigureTable(titles: ["People", "Active", "Total", "Average", "Avg age"], usualWidths: [8, 8, 16, 12, 8],
                                   dropOrder: [4, 1, 3, 0], barTitle: "Size")

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putTitleBar(source: model.sourceName, then: ": companies", right: model.summary)
        let rows = model.rows
        Self.table.draw(head: "Company", rowCount: rows.count, largest: largest,
                        row: { .init(title: rows[$0].title, figures: Self.figures(rows[$0]), count: rows[$0].count) },
                        selectedRow: model.selectedRow, figureWidths: figureWidths, sortedColumn: model.sortedColumn,
                        descending: model.sortDescending, scroll: &scroll, on: screen)
        if model.rows.isEmpty {
            screen.put(" " + DisplayText.fit(DisplayText.sanitized(model.emptyMessage), columns: max(1, size.columns - 2)),
                       row: 2, column: 0, style: .dim)
        }
        let filter = model.filter.map { "filter: \($0)" }
        let status = [model.position, model.sortLabel, filter, model.notice].compactMap { $0 }.joined(separator: " · ")
        screen.putStatusBar(left: " " + status, hints: model.filter == nil ? Self.hints : Self.filteredHints, row: size.rows - 1)
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
