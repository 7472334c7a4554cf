import RosterCore

/// A table of named rows with right-aligned figures and, last, a bar (the
/// company overview, the frequency view): which columns fit, how wide.
///
/// On a narrow screen the bar goes first, then figure columns in
/// `dropOrder` (never the sorted one), so the name keeps readable width.
struct FigureTable {
    /// The figure columns' heads, in the order shown.
    let titles: [String]
    /// Widths that fit everyday figures, so the table doesn't jump about.
    let usualWidths: [Int]
    let dropOrder: [Int]
    /// The bar column's head ("Size"); empty: none.
    var barTitle = ""
    /// Below this the name would be unreadable: drop a column instead.
    static let minimumNameWidth = 12
    /// The bar takes a third of what the figures leave, up to this.
    static let widestBar = 24
    /// A bar narrower than this tells too little: left out.
    static let narrowestBar = 4
    /// The name keeps this much before the bar takes any: most company
    /// names (`ZENZENPLEX5637`) whole at 80 columns.
    static let nameBeforeBar = 15

    struct Layout: Equatable {
        var nameWidth: Int
        /// Width of each figure column, or nil when it was dropped.
        var figureWidths: [Int?]
        /// Cells of the bar column (after a space); 0 when it was dropped.
        var barWidth: Int
    }

    /// Each figure column's width for these rows' cells: the widest cell
    /// (a number is never cut), or the usual width.
    func figureWidths(_ rows: [[String]]) -> [Int] {
        // Room for the sort arrow (" ↑") after any title, so that columns
        // stay put when the order changes.
        var widest = titles.map { DisplayText.width($0) + 2 }
        for cells in rows {
            for (index, cell) in cells.enumerated() where index < widest.count {
                widest[index] = max(widest[index], DisplayText.width(cell))
            }
        }
        return zip(widest, usualWidths).map { max($0 + 1, $1) }
    }

    /// Which of the columns `figureWidths` measured fit in `columns`, and
    /// how wide a bar fits beside them (none when `withBar` is false).
    func layout(_ figureWidths: [Int], columns: Int, keeping sorted: Int? = nil, withBar: Bool = true) -> Layout {
        var widths: [Int?] = figureWidths
        var dropping = dropOrder.filter { $0 != sorted }.makeIterator()
        while columns - widths.reduce(0, { $0 + ($1 ?? 0) }) - 2 < Self.minimumNameWidth, let next = dropping.next() {
            widths[next] = nil
        }
        let available = columns - widths.reduce(0) { $0 + ($1 ?? 0) } - 2
        var bar = withBar ? min(Self.widestBar, available / 3) : 0
        bar = min(bar, available - 1 - Self.nameBeforeBar)
        if bar < Self.narrowestBar { bar = 0 }
        // With every column but the kept ones gone, the name gives way rather than a number.
        return Layout(nameWidth: max(4, available - (bar > 0 ? bar + 1 : 0)), figureWidths: widths, barWidth: bar)
    }

    /// " name…   figures right-aligned in their columns  bar".
    func line(_ cells: [String], layout: Layout, bar: String = "") -> String {
        var text = " " + DisplayText.padded(cells[0], columns: layout.nameWidth - 1)
        for (cell, width) in zip(cells.dropFirst(), layout.figureWidths) {
            guard let width else { continue }
            let fitted = DisplayText.fit(cell, columns: width - 1)
            text += String(repeating: " ", count: max(0, width - DisplayText.width(fitted))) + fitted
        }
        if layout.barWidth > 0 { text += "  " + bar }
        return text
    }

    /// One row of the table: its name, its figures, its count (for the bar).
    struct Row {
        var title: String
        var figures: [String]
        var count: Int
    }

    /// Draws the column heads (row 1: the sorted one, or `head` when the
    /// figures are not sorted on, marked `↑` or `↓` as the list marks its
    /// own) and the rows that fit below them, scrolled to keep
    /// `selectedRow` in view, leaving the title and status bars to the screen.
    /// Only the rows shown are made (`row(index)`): a table may hold
    /// 70,000 companies; `largest` is the count of a full bar.
    @MainActor
    func draw(head: String, rowCount: Int, largest: Int, row rowAt: (Int) -> Row, selectedRow: Int?, figureWidths: [Int],
              sortedColumn: Int?, descending: Bool, scroll: inout ScrollWindow, on screen: Screen) {
        let height = max(1, screen.size.rows - 3)
        if let selectedRow { scroll.reveal(selectedRow, rowCount: rowCount, height: height) }
        let layout = layout(figureWidths, columns: screen.size.columns, keeping: sortedColumn)
        let arrow = descending ? " ↓" : " ↑"
        var heads = [head] + titles
        heads[sortedColumn.map { $0 + 1 } ?? 0] += arrow
        screen.put(line(heads, layout: layout, bar: DisplayText.fit(barTitle, columns: layout.barWidth)), row: 1, column: 0, style: .bold)
        for (offset, index) in (scroll.top..<min(rowCount, scroll.top + height)).enumerated() {
            let row = rowAt(index)
            let text = line([row.title] + row.figures, layout: layout,
                            bar: BarText.bar(count: row.count, largest: largest, cells: layout.barWidth))
            screen.put(text, row: 2 + offset, column: 0, style: scroll.top + offset == selectedRow ? .selected : .normal)
        }
    }
}
