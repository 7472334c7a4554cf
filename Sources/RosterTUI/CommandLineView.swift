import RosterCore

/// The command line (`:`) on the bottom line, over the list (which stays
/// drawn above it): the line with the terminal's cursor, and above it why
/// Enter did not run it, or what Tab found.
@MainActor
public final class CommandLineView: CommandLineViewInterface, ScreenView {
    public enum Action: Sendable, Equatable {
        case edit(LineEdit)
        case accept, cancel
    }

    /// The command line's own keys; the prompts' editing keys work too
    /// (`lineEditing`), and any other character is typed (`q` is text here).
    public static let keyTable: [KeyBinding<Action>] = [
        KeyBinding([.enter], "⏎", "run the command (or say why it is not one)", .accept),
        KeyBinding([.escape], "Esc", "close the line, running nothing", .cancel),
        KeyBinding([.tab], "Tab", "complete the command, then its column, field or file (again: list them)", .edit(.complete)),
    ]

    /// The search and export prompts' editing keys (help lists them there).
    static let lineEditing: [KeyBinding<Action>] = ListView.promptKeyTable.compactMap { binding in
        guard case .edit(let edit) = binding.action, edit != .complete else { return nil }
        return KeyBinding(binding.keys, binding.label, binding.help, .edit(edit))
    }

    static let hints = ["⏎ run", "Tab complete", "Esc cancel"]

    private let presenter: CommandLineModuleInterface
    /// The list, drawn above the line.
    private let background: ScreenView
    private var model: CommandLineViewModel?
    private var promptBar = PromptBar()

    public init(presenter: CommandLineModuleInterface, background: ScreenView) {
        self.presenter = presenter
        self.background = background
    }

    public func show(_ model: CommandLineViewModel) {
        self.model = model
    }

    public var acceptsTypedText: Bool { true }
    public var unusedKeyHint: String? { "Esc closes the line" }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        guard let action = (Self.keyTable + Self.lineEditing).action(for: key) else {
            guard let typed = key.typedEdit else { return false }
            presenter.edit(typed)
            return true
        }
        switch action {
        case .edit(let edit): presenter.edit(edit)
        case .accept: presenter.accept()
        case .cancel: presenter.cancel()
        }
        return true
    }

    public func draw(on screen: Screen) {
        StatusBarNotice.withheld { background.draw(on: screen) }
        guard let model else { return }
        let size = screen.size
        if let error = model.error {
            screen.putLine(DisplayText.fit(" " + error, columns: size.columns), row: size.rows - 2, style: .bar)
        } else if let note = model.note {
            screen.putLine(DisplayText.fit(" " + DisplayText.sanitized(note), columns: size.columns), row: size.rows - 2, style: .dim)
        }
        promptBar.draw(label: " :", text: model.text, cursor: model.cursor, hints: Self.hints, row: size.rows - 1, on: screen)
    }
}
