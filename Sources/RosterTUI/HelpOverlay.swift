import RosterCore

/// A screen's key tables as a full screen of help (`?`): made from the
/// same tables that dispatch keys, so the two cannot disagree. On a short
/// terminal it scrolls with ↑ ↓ PgUp PgDn Home End, and less's j k Space b
/// g G (and the wheel); any other key closes it, `q` too (as in less:
/// Ctrl-C still quits, from anywhere).
struct HelpOverlay {
    struct Line: Equatable {
        var label: String
        var help: String
        /// A section's title ("In the search and export prompts").
        var isHeading = false
        /// An example (`age:30-39`) and what it does: left-aligned, so
        /// that long examples do not push the keys' column to the right.
        var isExample = false
        /// A line of prose from the left edge (what the database said).
        var isText = false
    }

    enum Outcome: Equatable { case stay, close }

    let title: String
    private(set) var lines: [Line]
    /// The first line shown.
    private(set) var top = 0

    init<Action>(title: String, table: [KeyBinding<Action>]) {
        self.title = title
        lines = table.map { Line(label: $0.label, help: $0.help) }
    }

    /// What the help shows: the screen's lines, then the keys of every screen.
    private var shownLines: [Line] { lines + Self.everyScreenLines }

    private static let everyScreenLines = [Line(label: "", help: ""), Line(label: "", help: EveryScreenKeys.heading, isHeading: true)]
        + EveryScreenKeys.keyTable.map { Line(label: $0.label, help: $0.help) }

    /// The help led by what the database said last (`detail`, wrapped),
    /// when something failed: the word-for-word reason is one key away.
    func withProblem(_ detail: String?) -> HelpOverlay {
        guard let detail else { return self }
        var help = self
        help.lines = [Line(label: "", help: "What the database said last", isHeading: true)]
            + wrap(detail, columns: 36).map { Line(label: "", help: $0, isText: true) } + [Line(label: "", help: "")] + lines
        return help
    }

    /// The help opened at the section under `heading` (the sort menu's `?`).
    func scrolled(to heading: String) -> HelpOverlay {
        var help = self
        help.top = lines.firstIndex { $0.isHeading && $0.help == heading } ?? 0
        return help
    }

    /// The help with another table after this one, under `heading`.
    func adding<Action>(_ heading: String, table: [KeyBinding<Action>]) -> HelpOverlay {
        var help = self
        help.lines += [Line(label: "", help: ""), Line(label: "", help: heading, isHeading: true)]
            + table.map { Line(label: $0.label, help: $0.help) }
        return help
    }

    /// The help with lines of text (an example and what it does) after
    /// this, under `heading`.
    func adding(_ heading: String, examples: [(example: String, meaning: String)]) -> HelpOverlay {
        var help = self
        help.lines += [Line(label: "", help: ""), Line(label: "", help: heading, isHeading: true)]
            + examples.map { Line(label: $0.example, help: $0.meaning, isExample: true) }
        return help
    }

    /// The column each example's meaning starts after: the widest example
    /// of its own section (a long command does not push the queries' aside).
    private static func exampleWidths(_ lines: [Line]) -> [Int] {
        var widths = [Int](repeating: 0, count: lines.count)
        var sectionStart = 0
        for index in lines.indices where index == lines.count - 1 || lines[index + 1].isHeading {
            let section = sectionStart...index
            let widest = section.filter { lines[$0].isExample }.map { DisplayText.width(lines[$0].label) }.max() ?? 0
            for line in section { widths[line] = widest }
            sectionStart = index + 1
        }
        return widths
    }

    /// Rows for lines: between the title bar (and a blank row) and the footer.
    static func height(_ size: ScreenSize) -> Int { max(1, size.rows - 3) }

    private func maxTop(_ size: ScreenSize) -> Int { max(0, shownLines.count - Self.height(size)) }

    /// What `key` does while the help shows.
    mutating func handle(_ key: Key, screenSize: ScreenSize) -> Outcome {
        let page = max(1, Self.height(screenSize) - 1)
        let lines = shownLines
        let step: Int
        switch key {
        // As in less: j k, Space b, g G move too.
        case .up, .character("k"): step = -1
        case .down, .character("j"): step = 1
        case .pageUp, .control("b"), .character("b"): step = -page
        case .pageDown, .control("f"), .character(" "): step = page
        case .home, .character("g"): step = -lines.count
        case .end, .character("G"): step = lines.count
        case .mouse(let event) where event.kind == .wheelUp: step = -3
        case .mouse(let event) where event.kind == .wheelDown: step = 3
        default: return .close
        }
        top = min(max(0, top + step), maxTop(screenSize))
        return .stay
    }

    @MainActor
    mutating func draw(on screen: Screen) {
        let size = screen.size
        let height = Self.height(size)
        let lines = shownLines
        top = min(top, maxTop(size))
        let shown = lines[top..<min(lines.count, top + height)]
        let scrolls = lines.count > height
        screen.erase()
        // "lines 1–7 of 119", without "lines" where the title leaves no room for it.
        let range = "\(top + 1)–\(top + shown.count) of \(lines.count) "
        let fits = DisplayText.width(" Roster — \(title) lines " + range) <= size.columns
        screen.putBar(left: " Roster — \(title)", right: scrolls ? (fits ? "lines " : "") + range : "help ", row: 0)
        let labelWidth = lines.filter { !$0.isExample }.map { DisplayText.width($0.label) }.max() ?? 0
        let exampleWidths = Self.exampleWidths(lines)
        for (offset, line) in shown.enumerated() {
            let exampleWidth = exampleWidths[top + offset]
            if line.isHeading || line.isText {
                screen.put(DisplayText.fit("  " + line.help, columns: size.columns), row: 2 + offset, column: 0,
                           style: line.isHeading ? .header : .normal)
                continue
            }
            if line.isExample {
                screen.put(DisplayText.fit("  " + line.label, columns: size.columns), row: 2 + offset, column: 0, style: .bold)
                screen.put(DisplayText.fit(line.help, columns: max(1, size.columns - exampleWidth - 4)), row: 2 + offset,
                           column: exampleWidth + 4, style: .normal)
                continue
            }
            let label = String(repeating: " ", count: labelWidth - DisplayText.width(line.label)) + line.label
            screen.put(DisplayText.fit("  " + label, columns: size.columns), row: 2 + offset, column: 0, style: .bold)
            screen.put(DisplayText.fit(line.help, columns: max(1, size.columns - labelWidth - 6)), row: 2 + offset,
                       column: labelWidth + 6, style: .normal)
        }
        // The footer says what the keys do here, in the room there is.
        let footer = !scrolls ? " any other key closes this help"
            : size.columns >= 60 ? " ↑↓ PgUp PgDn scroll · any other key closes" : " ↑↓ PgUp PgDn scroll"
        screen.putBar(left: footer, right: "q close ", row: size.rows - 1)
    }
}
