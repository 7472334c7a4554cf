import RosterCore

/// The column chooser (`C`): a box over the list, which stays drawn under
/// it and shows each change at once. The keys are listed in the box.
@MainActor
public final class ColumnChooserView: ColumnChooserViewInterface, ScreenView {
    public enum Action: Sendable {
        case up, down, toggle, moveUp, moveDown, sort, keep, cancel, help
    }

    public static let keyTable: [KeyBinding<Action>] = [
        KeyBinding([.up, .character("k")], "↑/k", "previous column", .up),
        KeyBinding([.down, .character("j")], "↓/j", "next column", .down),
        KeyBinding([.character(" "), .character("x")], "Space/x", "show / hide the column", .toggle),
        KeyBinding([.character("K"), .shiftUp], "K/S-↑", "move it up (further left)", .moveUp),
        KeyBinding([.character("J"), .shiftDown], "J/S-↓", "move it down (further right)", .moveDown),
        KeyBinding([.character("s")], "s", "sort the list by it (again: the other way)", .sort),
        // `q` closes the box as it closes htop's setup, keeping what is chosen
        // (the list under it says q quit; a chooser that ignored it read as stuck).
        KeyBinding([.enter, .character("q")], "⏎/q", "keep these columns", .keep),
        KeyBinding([.escape], "Esc", "put back the columns from before C", .cancel),
        KeyBinding([.character("?"), .function(1)], "?", "these keys", .help),
    ]

    /// `?`: the chooser's keys.
    static let keyHelp = HelpOverlay(title: "Column chooser keys", table: keyTable)

    private let presenter: ColumnChooserModuleInterface
    /// The list, drawn under the box.
    private let background: ScreenView
    private var model: ColumnChooserViewModel?
    /// `?`: the chooser's keys, over everything.
    private var help: HelpOverlay?
    /// The columns the list under the box shows at this width, as of its
    /// last frame (nil: not known): a ticked column it does not show is
    /// said to have no room.
    private let shownInList: @MainActor () -> [ListColumn]?

    public init(presenter: ColumnChooserModuleInterface, background: ScreenView,
                shownInList: @escaping @MainActor () -> [ListColumn]? = { nil }) {
        self.presenter = presenter
        self.background = background
        self.shownInList = shownInList
    }

    public func show(_ model: ColumnChooserViewModel) {
        self.model = model
    }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .close { help = nil }
            return true
        }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        switch action {
        case .up: presenter.moveCursor(by: -1)
        case .down: presenter.moveCursor(by: 1)
        case .toggle: presenter.toggle()
        case .moveUp: presenter.moveColumn(by: -1)
        case .moveDown: presenter.moveColumn(by: 1)
        case .sort: presenter.sortByColumn()
        case .keep: presenter.keep()
        case .cancel: presenter.cancel()
        case .help: help = Self.keyHelp
        }
        return true
    }

    /// The `room` rows of `count` to show, keeping `cursor` among them.
    static func window(count: Int, cursor: Int, room: Int) -> Range<Int> {
        let room = max(1, min(count, room))
        let start = min(max(0, cursor - room / 2), count - room)
        return start..<(start + room)
    }

    /// Why a column shows or not, beside its title: sorted on (so shown
    /// whatever the choice), ticked but empty in this source, the company
    /// in the flat list only, or ticked but with no room at this width (the
    /// list drops columns from the end of the order).
    static func note(_ row: ColumnChooserViewModel.Row, shown: [ListColumn]?) -> String {
        if row.isSorted { return " (sorted on: shown)" }
        if row.isShown && !row.hasValues { return " (none here)" }
        let isMissing = shown.map { !$0.contains(row.column) } ?? false
        // Ticked, the flat list's company always shows: missing, the list is grouped.
        if row.column == .company { return shown == nil || (row.isShown && isMissing) ? " (flat list only)" : "" }
        return row.isShown && isMissing ? " (no room at this width)" : ""
    }

    /// The box: a title, a line for the name (always first), one line per
    /// column (`[x] Email`), then the keys; at the right of the screen, so
    /// the name column stays in sight. On a short terminal it drops the
    /// name's line and puts the keys on one line (`?` lists them all).
    public func draw(on screen: Screen) {
        background.draw(on: screen)
        guard let model else { return }
        let size = screen.size
        let shown = shownInList()
        let columns = model.rows.enumerated().map { index, row -> (String, TextStyle) in
            ("[\(row.isShown || row.isSorted ? "x" : " ")] " + row.title + Self.note(row, shown: shown), index == model.cursor ? .selected : .normal)
        }
        let roomy = columns.count + 8 <= size.rows - 1
        let keys = roomy ? ["↑↓ move  Space show/hide", "K/J or Shift+↑↓ move it", "s sort by it  ? all keys", "⏎/q keep  Esc put back"]
            : ["Space K J s  ⏎/q keep  Esc put back"]
        // Too short for every column: the ones around the cursor, and the keys.
        let window = Self.window(count: columns.count, cursor: model.cursor, room: roomy ? columns.count : size.rows - 4 - keys.count)
        let lines: [(String, TextStyle)] = (roomy ? [("Name (always first)", .dim)] : []) + columns[window]
            + (roomy ? [("", .normal)] : []) + keys.map { ($0, .dim) }
        let inner = min(size.columns - 4, max(34, lines.map { DisplayText.width($0.0) }.max() ?? 0))
        let top = max(1, min(3, size.rows - 1 - (lines.count + 2)))
        let left = max(0, size.columns - inner - 4)
        let title = window.count == columns.count ? "─ Columns " : "─ Columns \(window.lowerBound + 1)–\(window.upperBound) of \(columns.count) "
        screen.put("┌" + title + String(repeating: "─", count: max(0, inner + 2 - DisplayText.width(title))) + "┐", row: top, column: left,
                   style: .bar)
        for (offset, line) in lines.enumerated() where top + 1 + offset < size.rows - 1 {
            // The border keeps its own look: only the inside is highlighted.
            screen.put("│", row: top + 1 + offset, column: left, style: .normal)
            screen.put(" " + DisplayText.padded(line.0, columns: inner) + " ", row: top + 1 + offset, column: left + 1, style: line.1)
            screen.put("│", row: top + 1 + offset, column: left + inner + 3, style: .normal)
        }
        if top + 1 + lines.count < size.rows - 1 {
            screen.put("└" + String(repeating: "─", count: inner + 2) + "┘", row: top + 1 + lines.count, column: left, style: .normal)
        }
        help?.draw(on: screen)
    }
}
