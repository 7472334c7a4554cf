import Foundation
import RosterCore

/// Rows and columns of a screen.
public struct ScreenSize: Equatable, Sendable {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// Below this Roster shows "terminal too small" instead of a screen.
    public static let minimum = ScreenSize(rows: 10, columns: 40)

    public var isTooSmall: Bool { rows < Self.minimum.rows || columns < Self.minimum.columns }
}

/// How a run of text looks; the adapter maps these to terminal attributes.
public enum TextStyle: Sendable, Equatable {
    case normal
    case bold
    case dim
    /// The title and status bars.
    case bar
    /// The selected row.
    case selected
    /// A balance, in the list.
    case balance
    /// A company header.
    case header
    /// Text that matches the search.
    case match
    /// A match inside the selected row.
    case selectedMatch
    /// A marked person's row (`m`).
    case marked
    /// The list's column titles.
    case columnHeader
}

/// A grid of cells that views draw on: the seam between views and curses.
///
/// `CursesScreen` is the real terminal; `MemoryScreen` is an in-memory grid
/// for tests and benchmarks. Views hand it text already sanitized and
/// fitted by `DisplayText`; a screen places each character at the column
/// that `DisplayText` measured, so no character can shift its neighbours.
@MainActor
public protocol Screen: AnyObject {
    var size: ScreenSize { get }
    /// Blanks the whole grid.
    func erase()
    /// Writes `text` from `column` on `row`; what passes the right edge is dropped.
    func put(_ text: String, row: Int, column: Int, style: TextStyle)
    /// Shows the terminal's cursor at this cell in the frame being drawn
    /// (a prompt's editing cursor); `erase()` hides it again.
    func showCursor(row: Int, column: Int)
    /// Sends the finished frame to the terminal.
    func present()
    /// Makes the next `present()` send every cell, not only what changed
    /// (Ctrl-L: the terminal may show what something else wrote on it).
    func repaintAll()
    /// Writes a control sequence straight to the terminal (after the frame);
    /// true once written. Only the app's own sequences, never content.
    func writeControlSequence(_ bytes: [UInt8]) -> Bool
    /// Gives the terminal to another program (`$EDITOR`) while `body`
    /// runs: full-screen mode left, then taken back and drawn whole.
    func handOver(_ body: () -> Void)
}

extension Screen {
    public func handOver(_ body: () -> Void) {
        body()
    }
}

/// The terminal's clipboard through OSC 52 (`ESC ] 52 ; c ; base64 BEL`),
/// which reaches the local clipboard over SSH and through tmux. The text is
/// base64-encoded, so nothing in it can act as a terminal command.
@MainActor
public final class TerminalClipboard: Clipboard {
    private weak var screen: Screen?

    public init(screen: Screen) {
        self.screen = screen
    }

    public func copy(_ text: String) -> ClipboardDelivery? {
        let sequence = Array("\u{1B}]52;c;".utf8) + Array(Data(text.utf8).base64EncodedString().utf8) + [0x07]
        return screen?.writeControlSequence(sequence) == true ? .terminal : nil
    }
}

extension Screen {
    /// Fills `row` with `text`, padded with spaces to the full width.
    public func putLine(_ text: String, row: Int, style: TextStyle) {
        put(DisplayText.padded(text, columns: size.columns), row: row, column: 0, style: style)
    }

    /// Puts `left` at the start of `row` and `right` at its end, padding between.
    /// With `leftWins` (a status bar: where you are, the order, the filter),
    /// the right side (key hints) yields all its room to the left.
    public func putBar(left: String, right: String, row: Int, style: TextStyle = .bar, leftWins: Bool = false) {
        let width = size.columns
        // The right side yields to the left, but keeps at least half the bar.
        let leftWidth = DisplayText.width(DisplayText.sanitized(left))
        let rightText = DisplayText.fit(right, columns: max(leftWins ? 0 : width / 2, width - leftWidth - 1))
        let rightWidth = DisplayText.width(rightText)
        let leftText = DisplayText.fit(left, columns: max(0, width - rightWidth - 1))
        let gap = width - DisplayText.width(leftText) - rightWidth
        put(leftText + String(repeating: " ", count: max(0, gap)) + rightText, row: row, column: 0, style: style)
    }
}

/// Whether the real terminal gets colours: not with `NO_COLOR` set (to
/// anything, per no-color.org), not with `--no-color`, not when the
/// terminal has none. Without colour every style still differs by
/// attribute (the selection is reverse video), so the app stays usable.
public struct Theme: Equatable, Sendable {
    public let usesColor: Bool

    public init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    public static func choose(environment: [String: String], noColorOption: Bool) -> Theme {
        Theme(usesColor: !noColorOption && environment["NO_COLOR"] == nil)
    }
}

/// A cell of the screen.
public struct CellPosition: Equatable, Sendable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}

/// A key the user pressed, decoded from the terminal.
public enum Key: Equatable, Sendable {
    case character(Character)
    /// Ctrl plus a letter: `.control("c")` is Ctrl-C.
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab
    /// Shift+Tab.
    case backTab
    /// Shift+↑ and Shift+↓ (curses' scroll keys).
    case shiftUp, shiftDown
    case function(Int)
    case resize
    /// Only with `--mouse`: a click, double click or wheel turn at a cell.
    case mouse(MouseEvent)
    /// Text the terminal marked as pasted (bracketed paste), whole: it goes
    /// into an open prompt as one edit and is never read as keys.
    case paste(String)
    /// Printable characters that were already waiting, read in one go
    /// (typed ahead, or pasted where the terminal does not mark pastes):
    /// one edit in an open prompt, else keys one at a time.
    case typed(String)
    case unknown
}

public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Sendable { case click, doubleClick, wheelUp, wheelDown }
    public var kind: Kind
    public var row: Int
    public var column: Int

    public init(_ kind: Kind, row: Int, column: Int) {
        self.kind = kind
        self.row = row
        self.column = column
    }
}
