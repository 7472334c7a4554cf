import RosterCore

/// What a key does in a table screen (the company overview, the counts).
public enum TableAction: Sendable, Equatable {
    case up, down, pageUp, pageDown, halfPageUp, halfPageDown, first, last, open, sort, reverseSort, clearFilterOrBack, back
    case reconnect, help, quit
    /// `:`: the command line.
    case commandLine
}

/// The keys and the mouse that every table screen shares, so that the
/// overview and the counts move, sort, open and go back alike.
@MainActor
enum TableKeys {
    /// The screen row of the first table row (below the title and the column heads).
    static let firstRow = 2

    /// The shared bindings, `extra` (a screen's own keys) after Enter;
    /// `wrap` makes a table action the screen's own.
    static func bindings<Action>(noun: String, sortHelp: String, extra: [KeyBinding<Action>] = [],
                                 wrap: (TableAction) -> Action) -> [KeyBinding<Action>] {
        let moves = KeyBinding<TableAction>.movement(
            up: .up, down: .down, pageUp: .pageUp, pageDown: .pageDown, halfPageUp: .halfPageUp, halfPageDown: .halfPageDown,
            first: .first, last: .last, noun: noun)
        let open = [
            KeyBinding<TableAction>([.enter, .right, .character("l")], "⏎/→/l", "people", .open, hint: true),
            KeyBinding([.character(":")], ":", "command line: :12 the 12th row, :q, :help (the rest on the people list)", .commandLine),
        ]
        let rest: [KeyBinding<TableAction>] = [
            KeyBinding([.character("s")], "s", sortHelp, .sort),
            KeyBinding([.character("S")], "S", "reverse the order", .reverseSort),
            KeyBinding([.escape], "Esc", "clear the filter; else back to people", .clearFilterOrBack),
            KeyBinding([.tab, .left, .character("h"), .backspace], "Tab/←/h", "back to people", .back, hint: true),
            KeyBinding([.character("r")], "r", "reconnect now (after \"connection lost\") and count again", .reconnect),
            KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
            KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
        ]
        func wrapped(_ bindings: [KeyBinding<TableAction>]) -> [KeyBinding<Action>] {
            bindings.map { KeyBinding($0.keys, $0.label, $0.help, wrap($0.action), hint: $0.isHint) }
        }
        return wrapped(moves + open) + extra + wrapped(rest)
    }

    /// When a key of `action` is handled while the figures are counted:
    /// one that acts on the rows (moving, opening, sorting) waits for them,
    /// so that keys typed ahead (`Tab j j ⏎`) act on the rows they were
    /// typed for; the ways out and the help answer in order, at once when
    /// nothing waits before them.
    static func timing(of action: TableAction?, isCounting: Bool) -> KeyTiming {
        guard isCounting, let action else { return .inOrder }
        switch action {
        case .up, .down, .pageUp, .pageDown, .halfPageUp, .halfPageDown, .first, .last, .open, .sort, .reverseSort: return .waits
        case .clearFilterOrBack, .back, .reconnect, .help, .quit, .commandLine: return .inOrder
        }
    }

    /// Does `action` (all but `.help`, which the screen opens itself);
    /// `hasFilter`: Esc clears it rather than going back.
    static func perform(_ action: TableAction, on presenter: TableModuleInterface, hasFilter: Bool, screenSize: ScreenSize) {
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
        case .clearFilterOrBack: if hasFilter { presenter.clearFilter() } else { presenter.goBack() }
        case .back: presenter.goBack()
        case .reconnect: presenter.reconnect()
        case .commandLine: presenter.openCommandLine()
        case .help: break
        case .quit: presenter.quit()
        }
    }

    /// Keys for the help overlay while it shows (closing it, or quitting),
    /// then the mouse: true when `key` was one of those and was dealt with.
    static func handleOverlayOrMouse(_ key: Key, help: inout HelpOverlay?, screenSize: ScreenSize, scrollTop: Int, rowCount: Int,
                                     selectedRow: Int?, presenter: TableModuleInterface) -> Bool? {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .close { help = nil }
            return true
        }
        if case .mouse(let event) = key {
            return handleMouse(event, screenSize: screenSize, scrollTop: scrollTop, rowCount: rowCount, selectedRow: selectedRow,
                               presenter: presenter)
        }
        return nil
    }

    /// `--mouse`: the wheel moves three rows, a click selects one, a double
    /// click opens its people; false for a click off the rows.
    private static func handleMouse(_ event: MouseEvent, screenSize: ScreenSize, scrollTop: Int, rowCount: Int, selectedRow: Int?,
                            presenter: TableModuleInterface) -> Bool {
        switch event.kind {
        case .wheelUp: presenter.moveSelection(by: -3)
        case .wheelDown: presenter.moveSelection(by: 3)
        case .click, .doubleClick:
            guard event.row >= firstRow, event.row < screenSize.rows - 1 else { return false }
            let index = scrollTop + event.row - firstRow
            guard index < rowCount, let selectedRow else { return false }
            presenter.moveSelection(by: index - selectedRow)
            if event.kind == .doubleClick { presenter.openSelected() }
        }
        return true
    }
}
