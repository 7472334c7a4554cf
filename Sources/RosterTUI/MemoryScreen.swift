import RosterCore

/// An in-memory grid of cells: views run without a terminal (tests,
/// benchmarks). The text grid it yields is what snapshot tests compare.
@MainActor
public final class MemoryScreen: Screen {
    public struct Cell: Equatable {
        /// One character, or "" for the second half of a wide one.
        public var text: String
        public var style: TextStyle
    }

    public private(set) var size: ScreenSize
    public private(set) var cells: [[Cell]]
    public private(set) var presentCount = 0

    public init(rows: Int, columns: Int) {
        size = ScreenSize(rows: rows, columns: columns)
        cells = Self.blank(size)
    }

    public func resize(rows: Int, columns: Int) {
        size = ScreenSize(rows: rows, columns: columns)
        cells = Self.blank(size)
    }

    public func erase() {
        cells = Self.blank(size)
        cursor = nil
    }

    /// Where the terminal's cursor would show; nil when hidden.
    public private(set) var cursor: CellPosition?

    public func showCursor(row: Int, column: Int) {
        cursor = CellPosition(row: row, column: column)
    }

    public func put(_ text: String, row: Int, column: Int, style: TextStyle) {
        guard row >= 0, row < size.rows else { return }
        var column = column
        for character in text {
            let width = DisplayText.width(of: character)
            guard width > 0 else { continue }
            if column + width > size.columns { break }
            if column >= 0 {
                cells[row][column] = Cell(text: String(character), style: style)
                if width == 2 { cells[row][column + 1] = Cell(text: "", style: style) }
            }
            column += width
        }
    }

    public func present() {
        presentCount += 1
    }

    /// How many times a whole repaint was asked for (Ctrl-L).
    public private(set) var repaints = 0

    public func repaintAll() {
        repaints += 1
    }

    /// Control sequences the app wrote (OSC 52), in order.
    public private(set) var controlSequences: [[UInt8]] = []

    public func writeControlSequence(_ bytes: [UInt8]) -> Bool {
        controlSequences.append(bytes)
        return true
    }

    /// The grid as text, one line per row, trailing spaces trimmed.
    public var text: String {
        cells.map { row in
            var line = row.map(\.text).joined()
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Row `row` as text (untrimmed).
    public func line(_ row: Int) -> String {
        cells[row].map(\.text).joined()
    }

    /// The style of the cell at `row`, `column`.
    public func style(row: Int, column: Int) -> TextStyle {
        cells[row][column].style
    }

    private static func blank(_ size: ScreenSize) -> [[Cell]] {
        Array(repeating: Array(repeating: Cell(text: " ", style: .normal), count: size.columns), count: size.rows)
    }
}
