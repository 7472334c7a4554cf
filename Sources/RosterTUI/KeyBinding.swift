/// One line of a screen's key table: the keys, how help names them, what
/// they do. Screens dispatch keys through their table, and the status-bar
/// hints come from the same table, so the two cannot drift apart.
public struct KeyBinding<Action: Sendable>: Sendable {
    public var keys: [Key]
    /// How the keys are written for people: "↑/k".
    public var label: String
    /// What they do: "previous person".
    public var help: String
    public var action: Action
    /// Shown in the status bar (the few most useful keys).
    public var isHint: Bool

    public init(_ keys: [Key], _ label: String, _ help: String, _ action: Action, hint: Bool = false) {
        self.keys = keys
        self.label = label
        self.help = help
        self.action = action
        self.isHint = hint
    }
}

extension KeyBinding {
    /// The moving keys every list-like screen shares: rows, pages, half
    /// pages (as in less and vim), ends (`noun` names what Home/End reach:
    /// "person", "company").
    public static func movement(up: Action, down: Action, pageUp: Action, pageDown: Action,
                                halfPageUp: Action, halfPageDown: Action,
                                first: Action, last: Action, noun: String) -> [KeyBinding] {
        [
            KeyBinding([.up, .character("k")], "↑/k", "up", up),
            KeyBinding([.down, .character("j")], "↓/j", "down", down),
            KeyBinding([.pageUp, .control("b")], "PgUp/^B", "page up", pageUp),
            KeyBinding([.pageDown, .control("f")], "PgDn/^F", "page down", pageDown),
            KeyBinding([.control("u")], "^U", "half a page up", halfPageUp),
            KeyBinding([.control("d")], "^D", "half a page down", halfPageDown),
            KeyBinding([.home, .character("g")], "Home/g", "first \(noun)", first),
            KeyBinding([.end, .character("G")], "End/G", "last \(noun)", last),
        ]
    }
}

extension Array {
    /// The action bound to `key`, if any.
    public func action<Action>(for key: Key) -> Action? where Element == KeyBinding<Action> {
        first { $0.keys.contains(key) }?.action
    }

    /// "⏎ open  / search  q quit": the hint bindings, for the status bar
    /// (each by its first key only, to stay short), quitting and going back
    /// kept longest when the bar is short of room.
    public func hints<Action>() -> StatusHints where Element == KeyBinding<Action> {
        StatusHints(filter(\.isHint).map { StatusHints.Hint($0.hint, keep: $0.hintKeep) })
    }
}

extension KeyBinding {
    /// "⏎ open": the first key's label and what it does, for a hint.
    public var hint: String {
        "\(label.split(separator: "/").first.map(String.init) ?? label) \(help)"
    }

    /// How long its hint stays on a short bar: quitting (`q`) longest, then
    /// going back (`Esc`, `←`), then the rest.
    var hintKeep: Int {
        if keys.contains(.character("q")) { return StatusHints.quitting }
        return keys.contains(.escape) || keys.contains(.left) ? StatusHints.goingBack : 0
    }

    /// The same binding, described otherwise for a hint ("Esc overview").
    public func hinting(_ help: String) -> KeyBinding {
        var binding = self
        binding.help = help
        binding.isHint = true
        return binding
    }
}
