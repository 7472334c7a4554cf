import RosterCore

/// The records skipped while loading, one per line, with index, line and reason.
@MainActor
public final class SkippedRecordsView: ScreenView {
    public enum Action: Sendable {
        case up, down, pageUp, pageDown, back, quit
    }

    public static let keyTable: [KeyBinding<Action>] = [
        KeyBinding([.up, .character("k")], "↑/k", "scroll up", .up),
        KeyBinding([.down, .character("j")], "↓/j", "scroll down", .down),
        KeyBinding([.pageUp, .control("b")], "PgUp", "page up", .pageUp),
        KeyBinding([.pageDown, .control("f"), .character(" ")], "PgDn", "page down", .pageDown),
        KeyBinding([.escape, .left, .character("h"), .backspace, .character("!")], "Esc", "back", .back, hint: true),
        KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
    ]

    private let sourceName: String
    private let records: [SkippedRecord]
    private let total: Int
    private let onBack: () -> Void
    private let onQuit: () -> Void
    private var top = 0

    public init(sourceName: String, records: [SkippedRecord], total: Int,
                onBack: @escaping () -> Void, onQuit: @escaping () -> Void) {
        self.sourceName = sourceName
        self.records = records
        self.total = total
        self.onBack = onBack
        self.onQuit = onQuit
    }

    /// This screen's few keys are all on its status bar.
    public var unusedKeyHint: String? { "Esc back" }

    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        let page = max(1, screenSize.rows - 2)
        switch action {
        case .up: top -= 1
        case .down: top += 1
        case .pageUp: top -= page
        case .pageDown: top += page
        case .back: onBack()
        case .quit: onQuit()
        }
        top = max(0, min(top, lines(columns: screenSize.columns).count - page))
        return true
    }

    /// The wrapped lines for the last width drawn: wrapping every record
    /// again at each key would cost a frame dearly on a file of many bad records.
    private var wrapped: (columns: Int, lines: [(text: String, record: Int)])?

    /// Every record's line, wrapped to the width (a reason is never cut),
    /// continuation lines indented; with the record each line belongs to.
    private func lines(columns: Int) -> [(text: String, record: Int)] {
        if let wrapped, wrapped.columns == columns { return wrapped.lines }
        var lines: [(text: String, record: Int)] = []
        for (index, record) in records.enumerated() {
            for (part, text) in DisplayText.wrapped(record.description, columns: max(1, columns - 4)).enumerated() {
                lines.append(((part == 0 ? " " : "   ") + text, index))
            }
        }
        wrapped = (columns, lines)
        return lines
    }

    public func draw(on screen: Screen) {
        let size = screen.size
        screen.erase()
        screen.putTitleBar(source: sourceName, then: ": skipped records",
                           right: "\(NumberText.grouped(records.count)) of \(NumberText.grouped(total)) skipped")
        let height = max(1, size.rows - 2)
        let all = lines(columns: size.columns)
        top = max(0, min(top, all.count - height))
        let shown = all.dropFirst(top).prefix(height)
        for (offset, line) in shown.enumerated() {
            screen.put(DisplayText.fit(line.text, columns: size.columns), row: 1 + offset, column: 0, style: .normal)
        }
        let first = (shown.first?.record ?? 0) + 1
        let last = (shown.last?.record ?? 0) + 1
        screen.putStatusBar(left: " \(NumberText.grouped(first))–\(NumberText.grouped(last)) of \(NumberText.grouped(records.count))",
                            hints: Self.keyTable.hints(), row: size.rows - 1, leftWins: false)
    }
}
