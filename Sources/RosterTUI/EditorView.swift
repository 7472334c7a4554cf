import RosterCore

/// The person editor: a label and a line editor per field, the one being
/// typed in highlighted with the terminal's cursor in it, a changed field
/// marked `•`, the reason under a field that does not read. When the
/// fields do not fit, the form scrolls to keep the one being typed in shown.
/// After a conflicting save it is the conflict screen instead: each field
/// that differs as it was, yours and theirs side by side, the value it
/// takes highlighted, and a field changed on both sides marked `?` until
/// chosen for.
@MainActor
public final class EditorView: EditorViewInterface, ScreenView {
    public enum Action: Sendable, Equatable {
        case save, cancel, next, previous
        case edit(LineEdit)
        case choose(PersonMerge.Choice)
        case help
    }

    /// Keys of the form; any other character is typed into the field.
    public static let keyTable: [KeyBinding<Action>] = [
        KeyBinding([.enter], "⏎", "save (nothing is written before)", .save, hint: true),
        KeyBinding([.escape], "Esc", "back (asks first when something changed)", .cancel, hint: true),
        KeyBinding([.tab, .down], "Tab/↓", "next field", .next, hint: true),
        KeyBinding([.backTab, .up], "S-Tab/↑", "previous field", .previous),
        KeyBinding([.left], "←", "cursor left", .edit(.moveLeft)),
        KeyBinding([.right], "→", "cursor right", .edit(.moveRight)),
        KeyBinding([.home, .control("a")], "Home/^A", "start of the field", .edit(.moveToStart)),
        KeyBinding([.end, .control("e")], "End/^E", "end of the field", .edit(.moveToEnd)),
        KeyBinding([.backspace], "Backspace", "delete before the cursor", .edit(.deleteBackward)),
        KeyBinding([.delete], "Delete", "delete under the cursor", .edit(.deleteForward)),
        KeyBinding([.control("w")], "^W", "delete the word before the cursor", .edit(.deleteWordBackward)),
        KeyBinding([.control("u")], "^U", "delete to the start", .edit(.deleteToStart)),
        KeyBinding([.control("k")], "^K", "delete to the end", .edit(.deleteToEnd)),
        KeyBinding([.function(1)], "F1", "these keys (? is typed into the field)", .help),
    ]

    /// Keys of the conflict screen.
    public static let conflictKeyTable: [KeyBinding<Action>] = [
        KeyBinding([.character("m")], "m", "take yours for this field", .choose(.mine)),
        KeyBinding([.character("t")], "t", "take theirs for this field", .choose(.theirs)),
        KeyBinding([.character("e")], "e", "edit it in the form (yours as a start)", .choose(.edit)),
        KeyBinding([.enter], "⏎", "save the merge, once every field is chosen", .save),
        KeyBinding([.tab, .down, .character("j")], "Tab/↓", "next field", .next),
        KeyBinding([.backTab, .up, .character("k")], "S-Tab/↑", "previous field", .previous),
        KeyBinding([.escape], "Esc", "back to the form, nothing saved", .cancel),
        KeyBinding([.character("?"), .function(1)], "?/F1", "these keys", .help),
    ]

    /// `F1` in the form, `?` on the conflict screen: their keys.
    static let formHelp = HelpOverlay(title: "Person editor keys", table: keyTable)
    static let conflictHelp = HelpOverlay(title: "Conflict screen keys", table: conflictKeyTable)

    /// Saving stays longest on a narrow bar (it is how the form ends well), then going back.
    /// `F1 help` goes first (`?` is typed into a field, so its help needs naming).
    static let hints = StatusHints([StatusHints.Hint("⏎ save", keep: 2), StatusHints.Hint("Tab/↑↓ field"),
                                    StatusHints.Hint("F1 help"), StatusHints.Hint("Esc cancel", keep: 1)])
    /// With a field to edit chosen (`e`), ⏎ opens the form rather than saving.
    static func conflictHints(opensForm: Bool) -> StatusHints {
        StatusHints(["m yours", "t theirs", "e edit"].map { StatusHints.Hint($0) } + [StatusHints.Hint(opensForm ? "⏎ form" : "⏎ save", keep: 2)])
    }
    /// Label column width: the longest label and a space.
    private static let labelWidth = 16

    private let presenter: EditorModuleInterface
    private var model: EditorViewModel?
    private var help: HelpOverlay?
    /// Where the field typed in was scrolled to at the last frame (it moves
    /// only when the cursor would leave it).
    private var fieldStart = (field: -1, start: 0)
    /// The first form line shown.
    private var top = 0

    public init(presenter: EditorModuleInterface) {
        self.presenter = presenter
    }

    public func show(_ model: EditorViewModel) {
        self.model = model
    }

    public var acceptsTypedText: Bool { model?.question == nil }

    public var holdsUnsavedWork: Bool { model?.fields.contains(where: \.isChanged) == true }
    public var isMoving: Bool { model?.saveProgress != nil }
    /// `?` is typed into a field of the form: its help is on F1.
    public var unusedKeyHint: String? { model?.question != nil ? "y or n" : model?.conflict != nil ? "? help" : "F1 help" }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .close { help = nil }
            return true
        }
        if model?.question != nil {
            switch key {
            case .character("y"), .character("Y"): presenter.answer(true)
            case .character("n"), .character("N"), .escape: presenter.answer(false)
            default: return false
            }
            return true
        }
        let keys = model?.conflict == nil ? Self.keyTable : Self.conflictKeyTable
        if let action = keys.action(for: key) {
            switch action {
            case .save: presenter.save()
            case .cancel: presenter.cancel()
            case .next: presenter.moveField(by: 1)
            case .previous: presenter.moveField(by: -1)
            case .edit(let edit): presenter.edit(edit)
            case .choose(let choice): presenter.choose(choice)
            case .help:
                help = model?.conflict == nil ? Self.formHelp : Self.conflictHelp
            }
            return true
        }
        guard model?.conflict == nil, let typed = key.typedEdit else { return false }
        presenter.edit(typed)
        return true
    }

    /// Each field's lines: its own, and its problem's under it, wrapped to
    /// `width` (the reason says what was found: it is never cut).
    private func lines(of model: EditorViewModel, width: Int) -> [(field: Int, problem: String?)] {
        model.fields.indices.flatMap { index -> [(field: Int, problem: String?)] in
            let problem = model.fields[index].problem.map { DisplayText.wrapped("↳ " + $0, columns: width) } ?? []
            return [(index, nil)] + problem.map { (index, $0) }
        }
    }

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        let saved = model.saveProgress?.fraction
        screen.putTitleBar(source: model.title, right: !model.isSaving ? "" : saved.map { "saving… \(Int($0 * 100))%" } ?? "saving…")
        defer { help?.draw(on: screen) }
        if let rows = model.conflict { return drawConflict(rows, theirs: model.theirsNote, status: model.question ?? model.status, on: screen) }
        let valueColumn = min(Self.labelWidth + 2, max(4, size.columns / 3))
        let valueWidth = max(1, size.columns - valueColumn - 1)
        let lines = lines(of: model, width: valueWidth)
        let height = max(1, size.rows - 3)
        // The focused field and its problem stay in view.
        let focusedLines = lines.indices.filter { lines[$0].field == model.focused }
        if let first = focusedLines.first, let last = focusedLines.last {
            if first < top { top = first }
            if last >= top + height { top = last - height + 1 }
        }
        top = max(0, min(top, max(0, lines.count - height)))
        for (offset, line) in lines[top..<min(lines.count, top + height)].enumerated() {
            let row = 2 + offset
            let field = model.fields[line.field]
            if let problem = line.problem {
                screen.put(DisplayText.fit(problem, columns: valueWidth), row: row, column: valueColumn, style: .match)
                continue
            }
            let isFocused = line.field == model.focused
            let label = (field.isChanged ? "• " : "  ") + field.label
            screen.put(DisplayText.fit(label, columns: valueColumn - 1), row: row, column: 0, style: isFocused ? .bold : .normal)
            // The field typed in scrolls to its cursor as the prompts do (… where it is cut);
            // the others show their start, cut with "…".
            let (shown, cursorColumn): (String, Int)
            if isFocused {
                let window = LineWindow(text: field.text, cursor: field.cursor, columns: valueWidth,
                                        previousStart: fieldStart.field == line.field ? fieldStart.start : 0)
                fieldStart = (line.field, window.start)
                (shown, cursorColumn) = (window.text, window.cursorColumn)
            } else {
                (shown, cursorColumn) = (DisplayText.fit(DisplayText.sanitized(field.text), columns: valueWidth), 0)
            }
            screen.put(DisplayText.padded(shown, columns: valueWidth), row: row, column: valueColumn, style: isFocused ? .selected : .normal)
            if isFocused, model.question == nil, !model.isSaving, help == nil { screen.showCursor(row: row, column: valueColumn + cursorColumn) }
        }
        var status = model.question ?? model.status
        if model.question == nil, let saved {
            // saving… ████████▌           42%
            let cells = max(4, min(30, size.columns / 3))
            let bar = BarText.bar(count: Int(saved * 1000), largest: 1000, cells: cells)
            status += " " + bar + String(repeating: " ", count: cells - bar.count) + " \(Int(saved * 100))%"
        }
        // While saving, keys wait: no hints of what they would do.
        screen.putStatusBar(left: " " + status, hints: model.question == nil && !model.isSaving ? Self.hints : StatusHints([]),
                            row: size.rows - 1)
    }

    /// The conflict screen: a header, then a line per field that differs,
    /// scrolled to keep the one being chosen for in view.
    private func drawConflict(_ rows: [EditorViewModel.ConflictRow], theirs: String?, status: String, on screen: Screen) {
        let size = screen.size
        let labelWidth = min(Self.labelWidth, max(6, size.columns / 4))
        let cellWidth = max(1, (size.columns - labelWidth - 3) / 3)
        let columns = [labelWidth, labelWidth + 1 + cellWidth, labelWidth + 2 + 2 * cellWidth]
        screen.put(DisplayText.fit("  Field", columns: labelWidth), row: 2, column: 0, style: .bold)
        for (column, heading) in zip(columns, ["Was", "Yours", "Theirs"]) {
            screen.put(DisplayText.fit(heading, columns: cellWidth), row: 2, column: column, style: .bold)
        }
        let height = max(1, size.rows - 4)
        if let focused = rows.firstIndex(where: \.isFocused) {
            if focused < top { top = focused }
            if focused >= top + height { top = focused - height + 1 }
        }
        top = max(0, min(top, max(0, rows.count - height)))
        for (offset, row) in rows[top..<min(rows.count, top + height)].enumerated() {
            let line = 3 + offset
            // › the field being chosen for; ? one still waiting; ✎ one to edit.
            let mark = row.choice == nil ? "?" : (row.choice == .edit ? "✎" : " ")
            screen.put(DisplayText.fit((row.isFocused ? "›" : " ") + mark + row.label, columns: labelWidth - 1), row: line, column: 0,
                       style: row.isFocused ? .bold : .normal)
            let cells: [(String, PersonMerge.Choice?)] = [(row.was, nil), (row.mine, .mine), (row.theirs, .theirs)]
            for (column, cell) in zip(columns, cells) {
                let taken = cell.1 != nil && (row.choice == cell.1 || (row.choice == .edit && cell.1 == .mine))
                let waiting = row.choice == nil && cell.1 != nil
                let text = cell.0.isEmpty ? "—" : DisplayText.sanitized(cell.0)
                screen.put(DisplayText.padded(DisplayText.fit(text, columns: cellWidth), columns: cellWidth), row: line, column: column,
                           style: taken ? .selected : (waiting ? .match : .normal))
            }
        }
        // Under the table, as room allows: the field chosen for, whole (a
        // cell may cut it), then what the keys do.
        var next = 3 + min(rows.count, height) + 1
        func say(_ text: String, style: TextStyle = .normal) {
            for line in DisplayText.wrapped(text, columns: size.columns) where next < size.rows - 1 {
                screen.put(line, row: next, column: 0, style: style)
                next += 1
            }
        }
        if let focused = rows.first(where: \.isFocused) {
            say("\(focused.label): yours \(Self.quoted(focused.mine)), theirs \(Self.quoted(focused.theirs)), was \(Self.quoted(focused.was))",
                style: .bold)
        }
        say(size.columns >= 60
            ? "? marks a field you both changed: m keeps yours, t takes theirs, e edits it in the form (✎) after ⏎. "
                + "Fields only one of you changed are merged."
            : "? both changed: m yours t theirs e edit")
        if let theirs { say("Theirs: " + theirs, style: .dim) }
        screen.putStatusBar(left: " " + status, hints: Self.conflictHints(opensForm: rows.contains { $0.choice == .edit }),
                            row: size.rows - 1)
    }

    /// A value as the conflict screen's line under the table says it: in
    /// quotes, made safe; "nothing" for an empty one.
    private static func quoted(_ value: String) -> String {
        value.isEmpty ? "nothing" : "'\(DisplayText.sanitized(value))'"
    }
}
