import RosterCore

/// The column chooser (`C`): a box over the list, which stays drawn under
/// it and shows each change at once. The keys are listed in the box.
@MainActor
public final class ColumnChooserView: ColumnChooserViewInterface, ScreenView {
    public enum Action: Sendable {
        case up, down, toggle, moveUp, moveDown, keep, cancel
    }

    public static let keyTable: [KeyBinding<Action>] = [
        KeyBinding([.up, .character("k")], "↑/k", "previous column", .up),
        KeyBinding([.down, .character("j")], "↓/j", "next column", .down),
        KeyBinding([.character(" "), .character("x")], "Space/x", "show / hide the column", .toggle),
        KeyBinding([.character("K")], "K", "move it up (further left)", .moveUp),
        KeyBinding([.character("J")], "J", "move it down (further right)", .moveDown),
        KeyBinding([.enter], "⏎", "keep these columns", .keep),
        KeyBinding([.escape], "Esc", "put back the columns from before C", .cancel),
    ]

    private let presenter: ColumnChooserModuleInterface
    /// The list, drawn under the box.
    private let background: ScreenView
    private var model: ColumnChooserViewModel?

    public init(presenter: ColumnChooserModuleInterface, background: ScreenView) {
        self.presenter = presenter
        self.background = background
    }

    public func show(_ model: ColumnChooserViewModel) {
        self.model = model
    }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        switch action {
        case .up: presenter.moveCursor(by: -1)
        case .down: presenter.moveCursor(by: 1)
        case .toggle: presenter.toggle()
        case .moveUp: presenter.moveColumn(by: -1)
        case .moveDown: presenter.moveColumn(by: 1)
        case .keep: presenter.keep()
        case .cancel: presenter.cancel()
        }
        return true
    }

    /// The box: a title, one line per column (`[x] Email`), a line for the
    /// name (always first), then the keys; at the right of the screen, so
    /// the name column stays in sight.
    public func draw(on screen: Screen) {
        background.draw(on: screen)
        guard let model else { return }
        let size = screen.size
        let keys = ["↑↓ move  Space show/hide", "K/J move it up/down", "⏎ keep  Esc put back"]
        var lines = ["Name (always first)"]
        for row in model.rows {
            let note = row.isSorted ? " (sorted on: shown)" : row.title == ListColumn.company.title ? " (flat list only)" : ""
            lines.append("[\(row.isShown || row.isSorted ? "x" : " ")] " + row.title + note)
        }
        let inner = min(size.columns - 4, max(34, (lines + keys).map(DisplayText.width).max() ?? 0))
        let height = lines.count + keys.count + 3
        let top = max(1, min(3, size.rows - height))
        let left = max(0, size.columns - inner - 4)
        func put(_ text: String, _ offset: Int, style: TextStyle = .normal) {
            guard top + offset < size.rows - 1 else { return }
            screen.put("│ " + DisplayText.padded(text, columns: inner) + " │", row: top + offset, column: left, style: style)
        }
        let rule = String(repeating: "─", count: inner + 2)
        screen.put("┌─ Columns " + String(repeating: "─", count: max(0, inner - 8)) + "┐", row: top, column: left, style: .bar)
        put(lines[0], 1, style: .dim)
        for (index, line) in lines.dropFirst().enumerated() {
            put(line, 2 + index, style: index == model.cursor ? .selected : .normal)
        }
        put("", lines.count + 1)
        for (index, line) in keys.enumerated() { put(line, lines.count + 2 + index, style: .dim) }
        if top + height - 1 < size.rows - 1 {
            screen.put("└" + rule + "┘", row: top + height - 1, column: left, style: .normal)
        }
    }
}
