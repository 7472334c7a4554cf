import RosterCore

/// One person: every field labelled and aligned, with the list position.
@MainActor
public final class DetailView: DetailViewInterface, ScreenView {
    public enum Action: Sendable {
        case previous, next, back, quit, help, copy
    }

    public static let keyTable: [KeyBinding<Action>] = [
        KeyBinding([.up, .character("k")], "↑/k", "previous person", .previous),
        KeyBinding([.down, .character("j")], "↓/j", "next person", .next),
        KeyBinding([.escape, .left, .character("h"), .backspace], "Esc/←", "back", .back, hint: true),
        KeyBinding([.character("y")], "y", "copy the email (OSC 52: works over SSH and in tmux)", .copy),
        KeyBinding([.character("?"), .function(1)], "?", "help", .help, hint: true),
        KeyBinding([.character("q")], "q", "quit", .quit, hint: true),
    ]

    static let hints = "↑↓ prev/next  " + keyTable.hints()

    private let presenter: DetailModuleInterface
    private var model: DetailViewModel?
    /// The key overlay (`?`), while it shows.
    private var help: HelpOverlay?

    public init(presenter: DetailModuleInterface) {
        self.presenter = presenter
    }

    public func show(_ model: DetailViewModel) {
        self.model = model
    }

    @discardableResult
    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .quit { presenter.quit() } else if outcome == .close { help = nil }
            return true
        }
        guard let action: Action = Self.keyTable.action(for: key) else { return false }
        switch action {
        case .previous: presenter.showPrevious()
        case .next: presenter.showNext()
        case .back: presenter.goBack()
        case .quit: presenter.quit()
        case .help: help = HelpOverlay(title: "Detail keys", table: Self.keyTable)
        case .copy: presenter.copyEmail()
        }
        return true
    }

    public func draw(on screen: Screen) {
        guard let model else { return }
        let size = screen.size
        screen.erase()
        screen.putBar(left: " Roster — \(model.title)", right: "\(model.company) ", row: 0)
        screen.put(DisplayText.fit("  " + model.title, columns: size.columns), row: 2, column: 0, style: .bold)
        let labelWidth = model.fields.map { DisplayText.width($0.label) }.max() ?? 0
        let firstFieldRow = 4
        let lastFieldRow = size.rows - 3
        let room = max(0, lastFieldRow - firstFieldRow + 1)
        let shown = model.fields.count <= room ? model.fields.count : max(0, room - 1)
        for (offset, field) in model.fields.prefix(shown).enumerated() {
            let label = String(repeating: " ", count: labelWidth - DisplayText.width(field.label)) + field.label
            let labelText = "  " + label + "  "
            screen.put(labelText, row: firstFieldRow + offset, column: 0, style: .dim)
            let valueColumns = max(1, size.columns - DisplayText.width(labelText))
            screen.put(DisplayText.fit(field.value, columns: valueColumns), row: firstFieldRow + offset,
                       column: DisplayText.width(labelText), style: .normal)
        }
        if shown < model.fields.count {
            let more = "  … \(model.fields.count - shown) more fields (make the terminal taller)"
            screen.put(DisplayText.fit(more, columns: size.columns), row: firstFieldRow + shown, column: 0, style: .dim)
        }
        let status = [model.position, model.company, model.status].compactMap { $0 }.joined(separator: " · ")
        // A message (copied…) takes the room of all hints but quitting.
        screen.putBar(left: " " + status, right: (model.status == nil ? Self.hints : "q quit") + " ", row: size.rows - 1)
        help?.draw(on: screen)
    }
}
