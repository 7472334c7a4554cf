import RosterCore

/// The org chart (`T`): who reports to whom, one person a line under their
/// manager, each manager with a ▸ (closed) or ▾ (open) and their team and
/// organisation sizes; the chart's problems in the title; `/` searches.
@MainActor
public final class OrgChartView: OrgChartViewInterface, ScreenView {
    public enum Action: Sendable, Equatable {
        case up, down, pageUp, pageDown, halfPageUp, halfPageDown, first, last
        case expandOrEnter, collapseOrLeave, expand, collapse, toggle, open, search, clearSearchOrBack, back, help
    }

    public static let keyTable: [KeyBinding<Action>] = KeyBinding.movement(
        up: .up, down: .down, pageUp: .pageUp, pageDown: .pageDown, halfPageUp: .halfPageUp, halfPageDown: .halfPageDown,
        first: .first, last: .last, noun: "line") + [
        KeyBinding([.right, .character("l")], "→/l", "open the manager; on an open one, go to their first report", .expandOrEnter),
        KeyBinding([.left, .character("h")], "←/h", "close the manager; else go to the person's manager", .collapseOrLeave),
        KeyBinding([.character("+")], "+", "open the manager", .expand),
        KeyBinding([.character("-")], "-", "close the manager (on a report: their manager's team)", .collapse),
        KeyBinding([.character(" ")], "Space", "open / close the manager", .toggle, hint: true),
        KeyBinding([.enter], "⏎", "the person's screen", .open, hint: true),
        KeyBinding([.character("/")], "/", "search: the matches inside their chains of managers (empty: everyone)", .search,
                   hint: true),
        KeyBinding([.escape], "Esc", "clear the search, else back to the list", .clearSearchOrBack),
        KeyBinding([.character("q"), .backspace], "q", "back to the list", .back, hint: true),
        KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
    ]

    /// The search prompt's keys.
    public static let promptKeyTable: [KeyBinding<PromptAction>] = [
        KeyBinding([.enter], "⏎", "search: keep the matches shown as typed (empty: everyone)", .accept),
        KeyBinding([.escape], "Esc", "search: put back what was shown", .cancel),
    ]

    public enum PromptAction: Sendable, Equatable { case accept, cancel }

    /// `?`: the chart's keys.
    static let keyHelp = HelpOverlay(title: "Org chart keys (T)", table: keyTable)
        .adding("Org chart search (/)", table: promptKeyTable)

    /// A word or two each: the status bar is short.
    static let hints = keyTable.map { binding -> KeyBinding<Action> in
        switch binding.action {
        case .toggle: return binding.hinting("open/close")
        case .open: return binding.hinting("person")
        case .search: return binding.hinting("search")
        case .back: return binding.hinting("back")
        default: return binding
        }
    }.hints()
    /// Without a chart only going back and help do anything.
    static let messageHints = keyTable.filter { $0.action == .back || $0.action == .help }
        .map { $0.action == .back ? $0.hinting("back") : $0 }.hints()

    private let presenter: OrgChartModuleInterface
    private var model: OrgChartViewModel?
    private var scroll = ScrollWindow()
    private var help: HelpOverlay?
    /// The search being typed, nil while none is.
    private var prompt: LineEditor?
    /// The search shown when `/` opened the prompt: Esc goes back to it
    /// (each key typed searches at once, as the list's `/` does).
    private var searchBeforePrompt = ""
    private var promptBar = PromptBar()

    public init(presenter: OrgChartModuleInterface) {
        self.presenter = presenter
    }

    public func show(_ model: OrgChartViewModel) {
        self.model = model
    }

    public var acceptsTypedText: Bool { prompt != nil }
    public var unusedKeyHint: String? { prompt == nil ? "? help" : "Esc cancels the search" }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .close { help = nil }
            return true
        }
        if prompt != nil { return handlePrompt(key) }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        let page = max(1, Self.chartHeight(screenSize) - 1)
        switch action {
        case .up: presenter.move(by: -1)
        case .down: presenter.move(by: 1)
        case .pageUp: presenter.move(by: -page)
        case .pageDown: presenter.move(by: page)
        case .halfPageUp: presenter.move(by: -max(1, page / 2))
        case .halfPageDown: presenter.move(by: max(1, page / 2))
        case .first: presenter.moveToFirst()
        case .last: presenter.moveToLast()
        case .expandOrEnter: presenter.expandOrEnter()
        case .collapseOrLeave: presenter.collapseOrLeave()
        case .expand: presenter.expand()
        case .collapse: presenter.collapse()
        case .toggle: presenter.toggle()
        case .open: presenter.openPerson()
        case .search:
            searchBeforePrompt = model?.filter ?? ""
            prompt = LineEditor(searchBeforePrompt)
        case .clearSearchOrBack: presenter.clearSearchOrBack()
        case .back: presenter.goBack()
        case .help: help = Self.keyHelp
        }
        return true
    }

    private func handlePrompt(_ key: Key) -> Bool {
        switch Self.promptKeyTable.action(for: key) {
        case .accept:
            prompt = nil  // the search typed is shown already
        case .cancel:
            prompt = nil
            presenter.search(searchBeforePrompt)
        case nil:
            guard let edit = key.typedEdit ?? Self.lineEdit(for: key) else { return false }
            let before = prompt?.text
            prompt?.apply(edit)
            if let text = prompt?.text, text != before { presenter.search(text) }
        }
        return true
    }

    private static func lineEdit(for key: Key) -> LineEdit? {
        switch key {
        case .backspace: return .deleteBackward
        case .delete: return .deleteForward
        case .left: return .moveLeft
        case .right: return .moveRight
        case .home, .control("a"): return .moveToStart
        case .end, .control("e"): return .moveToEnd
        case .control("w"): return .deleteWordBackward
        case .control("u"): return .deleteToStart
        case .control("k"): return .deleteToEnd
        default: return nil
        }
    }

    /// The title's figures: the problems in words where they fit whole,
    /// else in brief (`! 4 problems`): a title never drops them for want
    /// of room while a shorter word would do.
    static func titleFigures(_ model: OrgChartViewModel, columns: Int) -> String {
        func figures(_ problems: String?) -> String {
            [problems.map { "! " + $0 }, model.summary.isEmpty ? nil : model.summary].compactMap { $0 }.joined(separator: " · ")
        }
        let whole = figures(model.problems)
        guard let brief = model.problemsBrief, model.problems != nil,
              !TitleBar.layout(source: model.sourceName, then: ": org chart", figures: whole, columns: columns).right.contains("!") else {
            return whole
        }
        return figures(brief)
    }

    /// Rows for the chart: all but the title and status bars.
    static func chartHeight(_ size: ScreenSize) -> Int { max(1, size.rows - 2) }

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putTitleBar(source: model.sourceName, then: ": org chart", right: Self.titleFigures(model, columns: size.columns))
        switch model.content {
        case .loading:
            screen.put(" Reading who reports to whom…", row: 2, column: 0, style: .dim)
        case .message(let text):
            for (offset, line) in DisplayText.wrapped(text, columns: max(10, size.columns - 2)).enumerated()
            where 2 + offset < size.rows - 1 {
                screen.put(" " + line, row: 2 + offset, column: 0, style: .normal)
            }
        case .chart:
            drawChart(model, on: screen)
        }
        drawStatus(model, on: screen)
        help?.draw(on: screen)
    }

    private func drawChart(_ model: OrgChartViewModel, on screen: Screen) {
        let size = screen.size
        let height = Self.chartHeight(size)
        if model.rowCount == 0, let text = model.emptyText {
            return screen.put(" " + DisplayText.fit(text, columns: max(1, size.columns - 1)), row: 2, column: 0, style: .dim)
        }
        scroll.reveal(model.selectedRow, rowCount: model.rowCount, height: height)
        let lines = model.lines(scroll.top..<min(model.rowCount, scroll.top + height))
        for (offset, line) in lines.enumerated() {
            let row = scroll.top + offset
            let style: TextStyle = row == model.selectedRow ? .selected : line.isContext ? .dim : .normal
            screen.putLine(Self.text(of: line, columns: size.columns), row: 1 + offset, style: style)
        }
    }

    /// A line's text: two spaces a level (at most half the width, then the
    /// level in figures), the marker, the name, the email and the counts.
    static func text(of line: OrgChartLine, columns: Int) -> String {
        let levels = line.depth * 2 <= columns / 2 ? String(repeating: "  ", count: line.depth)
            : String(repeating: " ", count: max(0, columns / 2 - 6)) + "[\(line.depth)] "
        let marker: String
        switch line.marker {
        case .none: marker = "  "
        case .collapsed: marker = "▸ "
        case .expanded: marker = "▾ "
        }
        let name = " " + levels + marker + line.text
        var rest = line.counts.isEmpty ? "" : "  (" + line.counts + ")"
        if let problem = line.problem { rest += "  ! " + problem }
        let text = line.email.isEmpty ? name + rest : name + "  " + line.email + rest
        // Too narrow for everything: the email goes first, so that the
        // counts and a problem (`! manager not here`) stay in sight.
        guard DisplayText.width(text) > columns, line.problem != nil || !line.counts.isEmpty else {
            return DisplayText.fit(text, columns: columns)
        }
        return DisplayText.fit(name + rest, columns: columns)
    }

    private func drawStatus(_ model: OrgChartViewModel, on screen: Screen) {
        let row = screen.size.rows - 1
        if let prompt {
            promptBar.draw(label: " / ", text: prompt.text, cursor: prompt.cursor, hints: ["⏎ search", "Esc cancel"], row: row,
                           on: screen)
            return
        }
        var parts: [String] = []
        var hints = Self.messageHints
        if case .chart = model.content {
            parts = [model.position, model.shown]
            hints = Self.hints
        }
        if let notice = model.notice { parts.append(notice) }
        screen.putStatusBar(left: " " + parts.joined(separator: " · "), hints: hints, row: row)
    }
}
