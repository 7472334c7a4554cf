import RosterCore

/// The person editor: a label and a line editor per field, the one being
/// typed in highlighted with the terminal's cursor in it, a changed field
/// marked `•`, the reason under a field that does not read. When the
/// fields do not fit, the form scrolls to keep the one being typed in shown.
@MainActor
public final class EditorView: EditorViewInterface, ScreenView {
    public enum Action: Sendable, Equatable {
        case save, cancel, next, previous
        case edit(LineEdit)
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
    ]

    private static let hints = StatusHints([StatusHints.Hint("⏎ save"), StatusHints.Hint("Tab/↑↓ field"), StatusHints.Hint("Esc cancel")])
    /// Label column width: the longest label and a space.
    private static let labelWidth = 16

    private let presenter: EditorModuleInterface
    private var model: EditorViewModel?
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

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if model?.question != nil {
            switch key {
            case .character("y"), .character("Y"): presenter.answer(true)
            case .character("n"), .character("N"), .escape: presenter.answer(false)
            default: return false
            }
            return true
        }
        if let action = Self.keyTable.action(for: key) {
            switch action {
            case .save: presenter.save()
            case .cancel: presenter.cancel()
            case .next: presenter.moveField(by: 1)
            case .previous: presenter.moveField(by: -1)
            case .edit(let edit): presenter.edit(edit)
            }
            return true
        }
        switch key {
        case .character(let character): presenter.edit(.insert(PastedText.cleaned(String(character))))
        case .typed(let text), .paste(let text): presenter.edit(.insert(PastedText.cleaned(text)))
        default: return false
        }
        return true
    }

    /// Each field's lines: its own, and its problem's under it.
    private func lines(of model: EditorViewModel) -> [(field: Int, isProblem: Bool)] {
        model.fields.indices.flatMap { index -> [(field: Int, isProblem: Bool)] in
            [(index, false)] + (model.fields[index].problem == nil ? [] : [(index, true)])
        }
    }

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putTitleBar(source: model.title, right: model.isSaving ? "saving…" : "")
        let lines = lines(of: model)
        let height = max(1, size.rows - 3)
        // The focused field and its problem stay in view.
        let focusedLines = lines.indices.filter { lines[$0].field == model.focused }
        if let first = focusedLines.first, let last = focusedLines.last {
            if first < top { top = first }
            if last >= top + height { top = last - height + 1 }
        }
        top = max(0, min(top, max(0, lines.count - height)))
        let valueColumn = min(Self.labelWidth + 2, max(4, size.columns / 3))
        let valueWidth = max(1, size.columns - valueColumn - 1)
        for (offset, line) in lines[top..<min(lines.count, top + height)].enumerated() {
            let row = 2 + offset
            let field = model.fields[line.field]
            if line.isProblem {
                screen.put(DisplayText.fit("↳ " + (field.problem ?? ""), columns: valueWidth), row: row, column: valueColumn, style: .match)
                continue
            }
            let isFocused = line.field == model.focused
            let label = (field.isChanged ? "• " : "  ") + field.label
            screen.put(DisplayText.fit(label, columns: valueColumn - 1), row: row, column: 0, style: isFocused ? .bold : .normal)
            // The field typed in scrolls to its cursor; the others show their start, cut with "…".
            let (shown, cursorColumn) = isFocused ? Self.window(field.text, cursor: field.cursor, width: valueWidth)
                : (DisplayText.fit(DisplayText.sanitized(field.text), columns: valueWidth), 0)
            screen.put(DisplayText.padded(shown, columns: valueWidth), row: row, column: valueColumn, style: isFocused ? .selected : .normal)
            if isFocused, model.question == nil, !model.isSaving { screen.showCursor(row: row, column: valueColumn + cursorColumn) }
        }
        let status = model.question ?? model.status
        screen.putStatusBar(left: " " + status, hints: model.question == nil ? Self.hints : StatusHints([]), row: size.rows - 1)
    }

    /// The part of `text` a field of `width` columns shows, scrolled so the
    /// cursor is in it, and the cursor's column in that part.
    static func window(_ text: String, cursor: Int, width: Int) -> (String, Int) {
        let characters = Array(DisplayText.sanitized(text))
        let cursor = min(cursor, characters.count)
        var start = 0
        while DisplayText.width(String(characters[start..<cursor])) >= width, start < cursor { start += 1 }
        var end = start, used = 0
        while end < characters.count {
            let next = DisplayText.width(of: characters[end])
            if used + next > width { break }
            used += next
            end += 1
        }
        return (String(characters[start..<end]), DisplayText.width(String(characters[start..<cursor])))
    }
}
