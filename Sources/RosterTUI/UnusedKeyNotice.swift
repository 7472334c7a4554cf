import RosterCore

/// The one line a key that does nothing on the screen gets, instead of
/// silence: `x: no such key · ? help`, until the next key. A status bar
/// shows it in its hints' place, beside where you are (the position, the
/// order, the filter); any other bottom line (a prompt, a load's error)
/// has it over its right end.
public struct UnusedKeyNotice: Equatable, Sendable {
    public let text: String

    /// Nil for what is not a key pressed (a click off the rows, a paste
    /// with no prompt open): those say nothing.
    public init?(key: Key, hint: String?) {
        guard let name = key.spokenName else { return nil }
        text = [name + ": no such key", hint].compactMap { $0 }.joined(separator: " · ")
    }

    /// Draws `view` with the notice in its status bar, or over its bottom line.
    @MainActor
    public func draw(over view: ScreenView, on screen: Screen) {
        StatusBarNotice.text = text
        StatusBarNotice.isShown = false
        defer { StatusBarNotice.text = nil }
        view.draw(on: screen)
        guard !StatusBarNotice.isShown else { return }
        let size = screen.size
        let shown = DisplayText.fit(" " + text + " ", columns: size.columns)
        screen.put(shown, row: size.rows - 1, column: max(0, size.columns - DisplayText.width(shown)), style: .bar)
    }
}

/// The notice for the frame being drawn (`UnusedKeyNotice.draw(over:on:)`),
/// which the status bar drawn meanwhile (`putStatusBar`) shows in its
/// hints' place. Set only while a frame is drawn, on the main actor.
@MainActor
enum StatusBarNotice {
    static var text: String?
    /// A status bar showed it.
    static var isShown = false

    /// Draws a screen under another (a list under the sort menu or the
    /// command line) without the notice: the one on top owns the bottom line.
    static func withheld(_ draw: () -> Void) {
        let text = self.text
        self.text = nil
        defer { self.text = text }
        draw()
    }
}
