import RosterCore

/// The sort menu (`o`, `O`): a box over the list with every column the
/// list can sort by and its letter (`SortMenu`); a letter sorts by it,
/// ascending (`o`) or descending (`O`), keeping the grouping; the capital
/// letter sorts everyone as one flat list (`O B`: the top balances of all,
/// as a spreadsheet sorts a column). Esc or q closes it; ? shows the
/// list's help at the menu's part. The list stays drawn under it.
@MainActor
public final class SortMenuView: ScreenView {
    private let descending: Bool
    private let background: ScreenView
    /// The order chosen, and whether as one flat list.
    private let onChoose: (SortOrder, _ flat: Bool) -> Void
    private let onCancel: () -> Void

    public init(descending: Bool, background: ScreenView, onChoose: @escaping (SortOrder, _ flat: Bool) -> Void,
                onCancel: @escaping () -> Void) {
        self.descending = descending
        self.background = background
        self.onChoose = onChoose
        self.onCancel = onCancel
    }

    public var unusedKeyHint: String? { "a column's letter, or Esc" }
    /// The list's help (`?`), at the sort menu's part, while it shows over the menu.
    private var help: HelpOverlay?

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .close { help = nil }
            return true
        }
        switch key {
        case .escape, .character("q"):  // q closes, as in htop's and mutt's menus (no column's letter)
            onCancel()
        case .character("?"), .function(1):
            help = ListView.keyHelp.scrolled(to: ListView.sortMenuHeading)
        case .character(let letter):
            let lower = Character(letter.lowercased())
            guard let sortKey = SortMenu.key(for: lower) else { return false }
            onChoose(SortOrder(sortKey, descending: descending), lower != letter)
        default:
            return false
        }
        return true
    }

    /// "↑ (A→Z, smallest first)" or its reverse: which way a letter sorts.
    private var direction: String { descending ? "↓" : "↑" }

    /// The entries in columns (down, then across) as many as fit the
    /// width, in a box at the right of the screen (as the column chooser's);
    /// on a short terminal the rows that fit (every letter still works).
    public func draw(on screen: Screen) {
        if help != nil { return help?.draw(on: screen) ?? () }
        StatusBarNotice.withheld { background.draw(on: screen) }
        let size = screen.size
        let entries = SortMenu.entries
        let cellWidth = (entries.map { DisplayText.width($0.label) }.max() ?? 0) + 5
        let across = max(1, min(3, (size.columns - 4 + 2) / cellWidth))
        let down = (entries.count + across - 1) / across
        let footer = "a letter sorts \(direction); a capital: one flat list"
        let inner = min(size.columns - 4, max(across * cellWidth - 2, DisplayText.width(footer)))
        let height = down + 2
        let top = max(1, min(3, size.rows - 1 - (height + 2)))
        let left = max(0, size.columns - inner - 4)
        let title = "─ Sort \(direction) by "
        screen.put("┌" + title + String(repeating: "─", count: max(0, inner + 2 - DisplayText.width(title))) + "┐", row: top, column: left,
                   style: .bar)
        for line in 0..<height where top + 1 + line < size.rows - 1 {
            let row = top + 1 + line
            screen.put("│ " + String(repeating: " ", count: inner) + " │", row: row, column: left, style: .normal)
            if line == height - 1 {
                screen.put(DisplayText.fit(footer, columns: inner), row: row, column: left + 2, style: .dim)
            }
            guard line < down else { continue }
            for column in 0..<across {
                let index = column * down + line
                guard index < entries.count else { continue }
                let start = left + 2 + column * cellWidth
                screen.put(String(entries[index].letter), row: row, column: start, style: .bold)
                screen.put(DisplayText.fit(entries[index].label, columns: max(1, left + 2 + inner - start - 3)), row: row, column: start + 3,
                           style: .normal)
            }
        }
        if top + 1 + height < size.rows - 1 {
            screen.put("└" + String(repeating: "─", count: inner + 2) + "┘", row: top + 1 + height, column: left, style: .normal)
        }
        screen.putBar(left: " sort \(direction) by which column?", right: "a letter  Esc cancel  ? help ", row: size.rows - 1)
    }
}
