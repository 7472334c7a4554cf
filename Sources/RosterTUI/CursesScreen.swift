import CNcursesw
import RosterCore
#if canImport(Glibc)
import Glibc
#endif

/// Why the terminal could not be taken over.
public enum TerminalError: Error, Equatable, Sendable {
    case unknownTerminal(String)
    case cannotAddressCursor(String)

    public var message: String {
        switch self {
        case .unknownTerminal(let name):
            return "cannot use terminal type '\(name)' (set TERM to your terminal, e.g. xterm-256color, or use --list)"
        case .cannotAddressCursor(let name):
            return "this terminal (TERM=\(name)) cannot show a full-screen app; use 'roster --list', or set TERM to your terminal"
        }
    }
}

/// The real terminal, through ncurses: the only file that imports it.
///
/// Everything curses is done here, on the main actor. Keys are read from
/// the controlling terminal (`/dev/tty`), as less and fzf do, so that data
/// can come on standard input. `end()` restores the terminal and is safe
/// to call more than once.
@MainActor
public final class CursesScreen: Screen, TerminalInput {
    /// Descriptor to poll for key presses.
    private let inputDescriptor: Int32
    private let terminal: OpaquePointer
    private var hasEnded = false
    private let usesColor: Bool
    /// False in a C/POSIX (or other non-UTF-8) locale, where ncurses cannot
    /// draw anything beyond ASCII: every other character gets a visible
    /// ASCII stand-in of the same width, so columns stay aligned and no
    /// cell is left stale.
    private let isUTF8: Bool

    private init(terminal: OpaquePointer, inputDescriptor: Int32, usesColor: Bool, isUTF8: Bool) {
        self.terminal = terminal
        self.inputDescriptor = inputDescriptor
        self.usesColor = usesColor
        self.isUTF8 = isUTF8
    }

    /// Enters full-screen mode: alternate screen, no echo, raw keys, no cursor.
    public static func start(mouse: Bool = false, theme: Theme = Theme(usesColor: true)) throws(TerminalError) -> CursesScreen {
        setlocale(LC_ALL, "")
        let input = fopen("/dev/tty", "r") ?? fdopen(STDIN_FILENO, "r")
        let name = getenv("TERM").map { String(cString: $0) } ?? ""
        guard let terminal = newterm(nil, roster_stdout(), input) else {
            throw .unknownTerminal(name)
        }
        guard roster_can_address_cursor() != 0 else {
            endwin()
            delscreen(terminal)
            throw .cannotAddressCursor(name)
        }
        let usesColor = theme.usesColor && roster_start_colors() != 0
        if let delay = escapeDelay(userSetting: getenv("ESCDELAY").map { String(cString: $0) }) { set_escdelay(delay) }
        raw()
        noecho()
        nonl()
        keypad(roster_stdscr(), true)
        nodelay(roster_stdscr(), true)
        curs_set(0)
        leaveok(roster_stdscr(), true)
        // Ctrl-C a signal again (see the shim), after every ncurses mode
        // call (each sets the modes it keeps); def_prog_mode keeps these
        // as the program's, for `fg` after Ctrl-Z.
        _ = roster_interrupt_key_signals(fileno(input))
        def_prog_mode()
        // Off unless asked: capturing the mouse breaks selecting text.
        if mouse { _ = roster_enable_mouse() }
        // Bracketed paste: the terminal marks a paste, so it arrives as one
        // edit rather than as thousands of keys (turned off in `end` and
        // while suspended).
        _ = define_key("\u{1B}[200~", pasteBeginCode)
        _ = define_key("\u{1B}[201~", pasteEndCode)
        _ = Descriptor.writeAll(Array(bracketedPasteOn.utf8), to: STDOUT_FILENO)
        let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
        return CursesScreen(terminal: terminal, inputDescriptor: fileno(input), usesColor: usesColor,
                            isUTF8: codeset.uppercased().replacingOccurrences(of: "-", with: "") == "UTF8")
    }

    public var size: ScreenSize {
        ScreenSize(rows: Int(getmaxy(roster_stdscr())), columns: Int(getmaxx(roster_stdscr())))
    }

    public func erase() {
        werase(roster_stdscr())
        cursor = nil
    }

    /// Where this frame wants the cursor; nil keeps it hidden.
    private var cursor: CellPosition?
    private var isCursorVisible = false

    public func showCursor(row: Int, column: Int) {
        cursor = CellPosition(row: row, column: column)
    }

    public func put(_ text: String, row: Int, column: Int, style: TextStyle) {
        let columns = size.columns
        guard row >= 0, row < size.rows else { return }
        let attributes = attributes(for: style)
        var run: [wchar_t] = []
        var runStart = column
        var next = column
        func flush() {
            if !run.isEmpty, runStart >= 0 {
                run.append(0)
                _ = roster_put_wide(Int32(row), Int32(runStart), run, Int32(run.count - 1), attributes)
            }
            run.removeAll(keepingCapacity: true)
        }
        for character in text {
            let width = DisplayText.width(of: character)
            guard width > 0 else { continue }
            if next + width > columns { break }
            if !isUTF8, !character.isASCII {
                if run.isEmpty { runStart = next }
                run.append(contentsOf: Self.asciiStandIn(for: character, width: width).unicodeScalars.map { wchar_t(bitPattern: $0.value) })
                next += width
                continue
            }
            let scalars = character.unicodeScalars
            if width == 1, scalars.count == 1, let scalar = scalars.first {
                if run.isEmpty { runStart = next }
                run.append(wchar_t(bitPattern: scalar.value))
            } else {
                // Wide or combined: placed alone at its measured column, so a
                // terminal that disagrees about its width cannot shift the rest.
                flush()
                let cluster = scalars.map { wchar_t(bitPattern: $0.value) } + [0]
                _ = roster_put_wide(Int32(row), Int32(next), cluster, Int32(cluster.count - 1), attributes)
            }
            next += width
        }
        flush()
    }

    /// What a non-ASCII character becomes where only ASCII can be drawn:
    /// the app's own symbols their nearest ASCII, anything else `?`s, as
    /// many as the character is wide.
    static func asciiStandIn(for character: Character, width: Int) -> String {
        switch character {
        case "—", "–", "─": return "-"
        case "·", "•": return "."
        case "↑", "⇡": return "^"
        case "↓": return "v"
        case "←": return "<"
        case "→", "⏎", "›": return ">"
        case "…": return "~"
        case "●": return "*"
        case "┌", "┐", "└", "┘": return "+"
        case "│": return "|"
        // A bar's eighths (`BarText`): every part of a bar is a `#`.
        case "█", "▉", "▊", "▋", "▌", "▍", "▎", "▏": return "#"
        default: return String(repeating: "?", count: width)
        }
    }

    public func present() {
        // The cursor shows only where a prompt is edited; elsewhere it
        // stays hidden and ncurses need not put it back after drawing.
        if let cursor {
            if !isCursorVisible {
                curs_set(1)
                leaveok(roster_stdscr(), false)
                isCursorVisible = true
            }
            wmove(roster_stdscr(), Int32(cursor.row), Int32(min(cursor.column, size.columns - 1)))
        } else if isCursorVisible {
            curs_set(0)
            leaveok(roster_stdscr(), true)
            isCursorVisible = false
        }
        wrefresh(roster_stdscr())
    }

    public func writeControlSequence(_ bytes: [UInt8]) -> Bool {
        wrefresh(roster_stdscr())
        fflush(roster_stdout())
        return Descriptor.writeAll(bytes, to: STDOUT_FILENO)
    }

    /// Waits in `poll` for the terminal or `wakeDescriptor`. A resize
    /// interrupts it (EINTR) and leaves KEY_RESIZE to read.
    public func waitForInput(orReadable wakeDescriptor: Int32, timeout: Duration?) -> Bool {
        var descriptors = [
            pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let asked = timeout.map { Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
        // A resize signalled while the loop was busy (drawing) interrupted
        // no wait: ncurses holds it, but says so only at the next read. So
        // a resize not read yet is not slept on, and the loop never sleeps
        // more than a second, so one that slips in just before is seen.
        let milliseconds = isResizePending ? 20 : min(asked ?? Self.longestSleep, Self.longestSleep)
        return poll(&descriptors, 2, milliseconds) >= 0 || errno == EINTR
    }

    /// The longest the loop sleeps with nothing to do, in milliseconds.
    private static let longestSleep: Int32 = 1000

    /// The terminal's size differs from the screen's: a resize ncurses has
    /// not reported yet (`KEY_RESIZE` comes with the next read).
    private var isResizePending: Bool {
        var window = winsize()
        guard ioctl(inputDescriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else { return false }
        let now = size
        return Int(window.ws_row) != now.rows || Int(window.ws_col) != now.columns
    }

    private var keyReader = KeyReader()

    /// The next key, or nil when none is waiting; a paste comes whole,
    /// and characters already waiting come as one `.typed`.
    public func readKey() -> Key? {
        let descriptor = inputDescriptor
        return keyReader.next(read: Self.readRawKey, waitForMore: {
            // The rest of a paste is on its way: wait a little for it.
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&waiting, 1, 250) > 0
        })
    }

    private static func readRawKey() -> KeyReader.Raw? {
        var character: wint_t = 0
        let result = wget_wch(roster_stdscr(), &character)
        if result == roster_key_code_yes() {
            switch Int32(character) {
            case pasteBeginCode: return .pasteBegin
            case pasteEndCode: return .pasteEnd
            default: return .key(functionKey(Int32(character)))
            }
        }
        guard result == OK else { return nil }
        return .key(key(forCharacter: UInt32(character)))
    }

    /// Forces a full repaint (after a suspend, a resize or Ctrl-L): the
    /// next refresh clears the terminal and sends every cell, as
    /// `wrefresh(curscr)` does.
    public func repaintAll() {
        clearok(roster_stdscr(), true)
    }

    /// Stops for Ctrl-Z: ncurses' SIGTSTP handler restores the terminal,
    /// stops the process, and takes the screen back on `fg`.
    public func suspend() {
        _ = Descriptor.writeAll(Array(bracketedPasteOff.utf8), to: STDOUT_FILENO)
        raise(SIGTSTP)
        _ = Descriptor.writeAll(Array(bracketedPasteOn.utf8), to: STDOUT_FILENO)
        repaintAll()
    }

    /// Leaves full-screen mode for `body` (another program on the
    /// terminal, as a shell escape does), then takes it back.
    public func handOver(_ body: () -> Void) {
        _ = Descriptor.writeAll(Array(bracketedPasteOff.utf8), to: STDOUT_FILENO)
        def_prog_mode()
        endwin()
        body()
        reset_prog_mode()
        _ = Descriptor.writeAll(Array(bracketedPasteOn.utf8), to: STDOUT_FILENO)
        repaintAll()
        wrefresh(roster_stdscr())
    }

    /// Leaves full-screen mode: alternate screen left, cursor shown, modes reset.
    public func end() {
        guard !hasEnded else { return }
        hasEnded = true
        curs_set(1)
        endwin()
        _ = Descriptor.writeAll(Array(bracketedPasteOff.utf8), to: STDOUT_FILENO)
    }

    /// A restrained theme: bars and the selection in reverse video (they
    /// read on dark and light backgrounds alike), colour only for accents,
    /// on the terminal's own background; without colour, attributes alone.
    private func attributes(for style: TextStyle) -> attr_t {
        let color = { (pair: Int16) -> attr_t in self.usesColor ? roster_color_pair(pair) : roster_attr_normal() }
        switch style {
        case .normal: return roster_attr_normal()
        case .bold: return roster_attr_bold()
        case .dim: return roster_attr_dim()
        case .bar: return roster_attr_reverse()
        case .selected: return roster_attr_reverse() | roster_attr_bold()
        case .balance: return color(1)
        case .header: return roster_attr_bold() | color(3)
        case .match: return roster_attr_bold() | roster_attr_underline() | color(2)
        case .selectedMatch: return roster_attr_reverse() | roster_attr_bold() | roster_attr_underline()
        case .marked: return roster_attr_bold() | color(4)
        case .columnHeader: return roster_attr_underline() | roster_attr_dim()
        }
    }

    static func key(forCharacter value: UInt32) -> Key {
        switch value {
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 9: return .tab
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(value) + 96)))
        default:
            guard let scalar = Unicode.Scalar(value) else { return .unknown }
            return .character(Character(scalar))
        }
    }

    static func functionKey(_ code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_SR: return .shiftUp
        case KEY_SF: return .shiftDown
        case KEY_RESIZE: return .resize
        case KEY_MOUSE:
            var row: Int32 = 0, column: Int32 = 0
            switch roster_read_mouse(&row, &column) {
            case 1: return .mouse(MouseEvent(.click, row: Int(row), column: Int(column)))
            case 2: return .mouse(MouseEvent(.doubleClick, row: Int(row), column: Int(column)))
            case 3: return .mouse(MouseEvent(.wheelUp, row: Int(row), column: Int(column)))
            case 4: return .mouse(MouseEvent(.wheelDown, row: Int(row), column: Int(column)))
            default: return .unknown
            }
        case KEY_F0 + 1...KEY_F0 + 63: return .function(Int(code - KEY_F0))
        default: return .unknown
        }
    }
}

/// Key codes, past ncurses' own and the terminal's extended ones, for the
/// marks around a bracketed paste.
private let pasteBeginCode = KEY_MAX + 0x1000
private let pasteEndCode = KEY_MAX + 0x1001
private let bracketedPasteOn = "\u{1B}[?2004h"
private let bracketedPasteOff = "\u{1B}[?2004l"

/// How long ncurses waits after Esc for the rest of an escape sequence, in
/// milliseconds: 25, so that a lone Esc acts at once (ncurses' default is a
/// second), unless the user set `ESCDELAY` (nil: leave theirs alone).
func escapeDelay(userSetting: String?) -> Int32? {
    userSetting == nil ? 25 : nil
}
