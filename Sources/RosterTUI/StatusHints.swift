import RosterCore

/// A status bar's key hints ("⏎ open  / search  Esc clear  q quit"), kept
/// whole: where the bar is short of room, the least important give way
/// first, one whole hint at a time, never cut mid-word. The ways out stay
/// longest: quitting last, going back (`Esc`, `←`) before it; the others
/// give way from the left, where the most common keys (`⏎ open`, `/
/// search`) stand.
public struct StatusHints: Equatable, Sendable {
    public struct Hint: Equatable, Sendable {
        /// "⏎ open".
        public var text: String
        /// Higher stays longer: 0 for most, 1 going back, 2 quitting, 3 the
        /// way back to a lost server.
        public var keep: Int

        public init(_ text: String, keep: Int = 0) {
            self.text = text
            self.keep = keep
        }
    }

    /// In the order they show.
    public var hints: [Hint]

    public init(_ hints: [Hint]) {
        self.hints = hints
    }

    /// Every hint, as a wide bar shows them.
    public var text: String { Self.joined(hints) }

    /// The hints that fit in `columns`, joined; the least important left out.
    public func fitting(columns: Int) -> String {
        let dropOrder = hints.indices.sorted { (hints[$0].keep, $0) < (hints[$1].keep, $1) }
        var kept = Array(hints.indices)
        var next = dropOrder.makeIterator()
        while DisplayText.width(Self.joined(kept.map { hints[$0] })) > columns, let dropped = next.next() {
            kept.removeAll { $0 == dropped }
        }
        return Self.joined(kept.map { hints[$0] })
    }

    /// Only the hint that quits, and the way back to a lost server (a
    /// one-off message takes the others' room).
    public var quitOnly: StatusHints { StatusHints(hints.filter { $0.keep >= Self.quitting }) }

    public static func + (lhs: StatusHints, rhs: StatusHints) -> StatusHints { StatusHints(lhs.hints + rhs.hints) }

    static let goingBack = 1
    static let quitting = 2
    /// `r reconnect` while the server is lost: the way back outlasts quitting.
    static let recovering = 3

    private static func joined(_ hints: [Hint]) -> String { hints.map(\.text).joined(separator: "  ") }
}

extension Screen {
    /// A status bar: `left` (where you are, the order, the filter) and as
    /// many whole `hints` as fit after it. With `leftWins` the hints yield
    /// all their room, else they keep up to half the bar (as `putBar`).
    /// A key that did nothing (`StatusBarNotice`) takes the hints' place.
    public func putStatusBar(left: String, hints: StatusHints, row: Int, leftWins: Bool = true) {
        if let notice = StatusBarNotice.text {
            StatusBarNotice.isShown = true
            return putBar(left: left, right: notice + " ", row: row)
        }
        let width = size.columns
        let leftWidth = DisplayText.width(DisplayText.sanitized(left))
        let room = max(leftWins ? 0 : width / 2, width - leftWidth - 2)  // two spaces between, at least
        let shown = hints.fitting(columns: room - 1)  // and the space that ends the bar
        putBar(left: left, right: shown.isEmpty ? "" : shown + " ", row: row, leftWins: leftWins)
    }
}

/// While the server is lost, the list's status bar leads with the way
/// back, `r reconnect`, kept longest (the title says the same).
enum ConnectionHints {
    static let reconnect = StatusHints.Hint("r reconnect", keep: StatusHints.recovering)

    static func adding(to hints: StatusHints, connection: ConnectionStatus?) -> StatusHints {
        connection?.isLost == true ? StatusHints([reconnect]) + hints : hints
    }
}
