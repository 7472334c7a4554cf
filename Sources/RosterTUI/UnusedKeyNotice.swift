import RosterCore

/// The one line a key that does nothing on the screen gets, instead of
/// silence: `x: no such key · ? help`. It shows at the right of the
/// bottom line, over the key hints (the position, at its left, stays),
/// until the next key.
public struct UnusedKeyNotice: Equatable, Sendable {
    public let text: String

    /// Nil for what is not a key pressed (a click off the rows, a paste
    /// with no prompt open): those say nothing.
    public init?(key: Key, hint: String?) {
        guard let name = key.spokenName else { return nil }
        text = [name + ": no such key", hint].compactMap { $0 }.joined(separator: " · ")
    }

    @MainActor
    public func draw(on screen: Screen) {
        let size = screen.size
        let shown = DisplayText.fit(" " + text + " ", columns: size.columns)
        screen.put(shown, row: size.rows - 1, column: max(0, size.columns - DisplayText.width(shown)), style: .bar)
    }
}
