import RosterCore

/// One person: every field labelled and aligned, with the list position.
/// Long values wrap under their field; when the fields are taller than the
/// terminal they scroll (PgUp PgDn Home End), and a line above the status
/// bar says which fields show. The scroll stays as it is when ↑/↓ step to
/// another person, so the same fields stay in view while you compare.
@MainActor
public final class DetailView: DetailViewInterface, ScreenView {
    public enum Action: Sendable {
        case previous, next, back, quit, help, copy, nextField, previousField, retry, edit, editInEditor, openPerson, orgChart
        case pageUp, pageDown, halfPageUp, halfPageDown, firstField, lastField
    }

    public static let keyTable: [KeyBinding<Action>] = [
        KeyBinding([.up, .character("k")], "↑/k", "previous person", .previous),
        KeyBinding([.down, .character("j")], "↓/j", "next person", .next),
        KeyBinding([.pageUp, .control("b")], "PgUp/^B", "fields: a page up", .pageUp),
        KeyBinding([.pageDown, .control("f")], "PgDn/^F", "fields: a page down", .pageDown),
        KeyBinding([.control("u")], "^U", "fields: half a page up", .halfPageUp),
        KeyBinding([.control("d")], "^D", "fields: half a page down", .halfPageDown),
        KeyBinding([.home, .character("g")], "Home/g", "first field", .firstField),
        KeyBinding([.end, .character("G")], "End/G", "last field", .lastField),
        KeyBinding([.escape, .left, .character("h"), .backspace], "Esc/←/h/⌫", "back", .back, hint: true),
        KeyBinding([.tab], "Tab", "next field (the one y copies; starts on Email)", .nextField),
        KeyBinding([.backTab], "S-Tab", "previous field", .previousField),
        KeyBinding([.enter], "⏎", "open the manager or report under the cursor (Tab to them; Esc comes back)", .openPerson),
        KeyBinding([.character("y")], "y", "copy the field (OSC 52; in tmux to its buffer too)", .copy),
        KeyBinding([.character("T")], "T", "the org chart, at the person (q comes back)", .orgChart),
        KeyBinding([.character("E")], "E", "edit the person (a form; ⏎ saves)", .edit),
        KeyBinding([.character("v")], "v", "edit the person's record in $VISUAL / $EDITOR", .editInEditor),
        KeyBinding([.character("r")], "r", "read the person again (after \"not loaded\"; reconnects first)", .retry),
        KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
        KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
    ]

    /// `?`: the person's screen's keys.
    static let keyHelp = HelpOverlay(title: "Detail keys", table: keyTable)

    /// `↑↓` walk people here; the fields scroll with PgUp PgDn (the line
    /// above says so when they do not fit).
    static let hints = StatusHints([StatusHints.Hint("↑↓ prev/next"), StatusHints.Hint("Tab field"), StatusHints.Hint("y copy")])
        + keyTable.hints()

    private let presenter: DetailModuleInterface
    private var model: DetailViewModel?
    /// The key overlay (`?`), while it shows.
    private var help: HelpOverlay?
    /// The first field line shown (values wrap, so lines, not fields).
    private var top = 0

    public init(presenter: DetailModuleInterface) {
        self.presenter = presenter
    }

    public func show(_ model: DetailViewModel) {
        self.model = model
    }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .close { help = nil }
            return true
        }
        let layout = layout(for: screenSize)
        // `--mouse`: the wheel scrolls the fields when they do not fit;
        // otherwise it walks people, as ↑ ↓ do.
        if case .mouse(let event) = key {
            guard event.kind == .wheelUp || event.kind == .wheelDown else { return false }
            if layout.scrolls {
                scroll(by: event.kind == .wheelUp ? -3 : 3, in: layout)
            } else if event.kind == .wheelUp {
                presenter.showPrevious()
            } else {
                presenter.showNext()
            }
            return true
        }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        let page = max(1, layout.height - 1)
        switch action {
        case .previous: presenter.showPrevious()
        case .next: presenter.showNext()
        case .back: presenter.goBack()
        case .quit: presenter.quit()
        case .help: help = Self.keyHelp.withProblem(model?.problemDetail)
        case .copy: presenter.copyField()
        case .retry: presenter.retry()
        case .edit: presenter.edit(inEditor: false)
        case .editInEditor: presenter.edit(inEditor: true)
        case .openPerson: presenter.openSelected()
        case .orgChart: presenter.showOrgChart()
        case .nextField:
            presenter.moveFieldCursor(by: 1)
            revealSelectedField(in: layout)
        case .previousField:
            presenter.moveFieldCursor(by: -1)
            revealSelectedField(in: layout)
        case .pageUp: scroll(by: -page, in: layout)
        case .pageDown: scroll(by: page, in: layout)
        case .halfPageUp: scroll(by: -max(1, layout.height / 2), in: layout)
        case .halfPageDown: scroll(by: max(1, layout.height / 2), in: layout)
        case .firstField: top = 0
        case .lastField: top = layout.maxTop
        }
        return true
    }

    /// Scrolls so that the field under the cursor shows whole.
    private func revealSelectedField(in layout: DetailLayout) {
        guard let field = model?.selectedField,
              let first = layout.lines.firstIndex(where: { $0.field == field }),
              let last = layout.lines.lastIndex(where: { $0.field == field }) else { return }
        if first < top { top = first } else if last >= top + layout.height { top = min(layout.maxTop, last - layout.height + 1) }
    }

    private func scroll(by lines: Int, in layout: DetailLayout) {
        top = min(max(0, top + lines), layout.maxTop)
    }

    private func layout(for size: ScreenSize) -> DetailLayout {
        DetailLayout(fields: model?.fields ?? [], size: size, selectedField: model?.selectedField,
                     selectedPerson: model?.selectedPerson)
    }

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putBar(left: " Roster — \(model.title)", right: "\(model.company) ", row: 0)
        screen.put(DisplayText.fit("  " + model.title, columns: size.columns), row: 2, column: 0, style: .bold)
        let notLoaded: String? = switch model.state {
        case .loaded: nil
        case .loading: "Loading…"
        case .failed(let words): words
        }
        if let notLoaded {
            for (offset, line) in wrap(notLoaded, columns: max(10, size.columns - 4)).enumerated()
            where DetailLayout.firstRow + offset < size.rows - 1 {
                screen.put(line, row: DetailLayout.firstRow + offset, column: 2, style: .dim)
            }
        }
        let layout = layout(for: size)
        top = min(top, layout.maxTop)
        let shown = layout.lines[top..<min(layout.lines.count, top + layout.height)]
        draw(shown, valueColumn: layout.valueColumn, of: model, on: screen)
        if layout.scrolls, let first = shown.first, let last = shown.last {
            // A wrapped value cut by the top edge (its label gone) is not
            // counted as shown; one cut by the bottom edge ends in "…": a
            // reader never takes half an address for the whole.
            let firstPartial = top > 0 && layout.lines[top - 1].field == first.field
            let end = top + shown.count
            let lastPartial = end < layout.lines.count && layout.lines[end].field == last.field
            let markColumn = layout.valueColumn + DisplayText.width(last.value)
            if lastPartial, markColumn < size.columns {  // never over a character of the value
                screen.put("…", row: DetailLayout.firstRow + shown.count - 1, column: markColumn, style: .dim)
            }
            // Says which fields' labels show (a value cut at the bottom ends
            // in "…", so it is counted as a reader counts the labels), which
            // way there is more and the key that scrolls there (not ↑↓,
            // which change person here).
            let low = first.field + (firstPartial ? 1 : 0), high = last.field
            let range = low > high ? "part of field \(first.field + 1)"
                : low == high ? "field \(low + 1)" : "fields \(low + 1)–\(high + 1)"
            let more = top > 0 && end < layout.lines.count ? "more: PgUp PgDn" : top > 0 ? "more above: PgUp" : "more below: PgDn"
            let indicator = "  \(range) of \(model.fields.count) (\(more))"
            screen.put(DisplayText.fit(indicator, columns: size.columns), row: size.rows - 2, column: 0, style: .dim)
        }
        let status = [model.position, model.company, model.status].compactMap { $0 }.joined(separator: " · ")
        // A message (copied…) takes the room of all hints but quitting.
        screen.putStatusBar(left: " " + status, hints: model.status == nil ? Self.hints : Self.hints.quitOnly, row: size.rows - 1,
                            leftWins: false)
        help?.draw(on: screen)
    }

    /// The field lines `shown`, from the first field row down.
    private func draw(_ shown: ArraySlice<DetailLayout.Line>, valueColumn: Int, of model: DetailViewModel, on screen: Screen) {
        for (offset, line) in shown.enumerated() {
            // The field `y` copies stands out: its label in reverse video.
            let isCursor = line.field == model.selectedField
            let row = DetailLayout.firstRow + offset
            if let people = line.people {
                // The person under the cursor stands out, not the label: a field names several.
                screen.put(line.label, row: row, column: 0, style: .dim)
                draw(people, row: row, column: valueColumn, selected: isCursor ? model.selectedPerson : nil, on: screen)
                continue
            }
            screen.put(line.label, row: row, column: 0, style: isCursor && !line.label.isEmpty ? .selected : .dim)
            screen.put(line.value, row: row, column: valueColumn, style: isCursor ? .bold : .normal)
        }
    }

    /// A line of people (a chain of managers, a report), the one under the cursor in reverse video.
    private func draw(_ people: NamedPeopleLine, row: Int, column: Int, selected: Int?, on screen: Screen) {
        var column = column
        for segment in people.segments {
            let style: TextStyle = switch segment {
            case .person(let index, _): index == selected ? .selected : .normal
            case .separator, .elided, .after: .dim
            }
            screen.put(segment.text, row: row, column: column, style: style)
            column += DisplayText.width(segment.text)
        }
    }
}

/// The detail's fields as screen lines: labels right-aligned, values
/// wrapped by terminal cells under their field.
struct DetailLayout {
    struct Line {
        /// Index of the field this line belongs to.
        var field: Int
        /// The padded label, or blanks on a value's continuation lines.
        var label: String
        var value: String
        /// The people of a field that names them, laid out on this one line.
        var people: NamedPeopleLine? = nil
    }

    /// Fields start below the title bar, the name and a blank row.
    static let firstRow = 4
    let lines: [Line]
    /// Rows for field lines: down to the indicator row above the status bar.
    let height: Int
    let valueColumn: Int

    init(fields: [DetailViewModel.Field], size: ScreenSize, selectedField: Int? = nil, selectedPerson: Int? = nil) {
        let labelWidth = fields.map { DisplayText.width($0.label) }.max() ?? 0
        valueColumn = labelWidth + 4
        height = max(1, size.rows - Self.firstRow - 2)
        let valueColumns = max(1, size.columns - valueColumn)
        var lines: [Line] = []
        for (index, field) in fields.enumerated() {
            let label = "  " + String(repeating: " ", count: labelWidth - DisplayText.width(field.label)) + field.label + "  "
            if !field.people.isEmpty {
                // A chain is one line, cut to fit, whatever its length.
                let people = NamedPeopleLine(people: field.people, after: field.after,
                                             selected: index == selectedField ? selectedPerson : nil, columns: valueColumns)
                lines.append(Line(field: index, label: label, value: people.text, people: people))
                continue
            }
            for (part, value) in DisplayText.wrapped(field.value, columns: valueColumns).enumerated() {
                lines.append(Line(field: index, label: part == 0 ? label : "", value: value))
            }
        }
        self.lines = lines
    }

    var scrolls: Bool { lines.count > height }
    var maxTop: Int { max(0, lines.count - height) }
}
