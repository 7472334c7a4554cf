import RosterCore

/// A person's row as cells: each column's text fitted to its place, and
/// the widest values the columns are measured from.
extension ListView {
    /// Each column's widest value among the people on screen, in cells.
    static func widestValues(_ people: [ListedPerson]) -> [ListColumn: Int] {
        var widest: [ListColumn: Int] = [:]
        for person in people {
            for column in ListColumn.allCases {
                widest[column] = max(widest[column, default: 0], DisplayText.width(DisplayText.sanitized(column.text(of: person))))
            }
        }
        return widest
    }

    /// Every column's widest value when none has one.
    static let emptyValues = Dictionary(uniqueKeysWithValues: ListColumn.allCases.map { ($0, 0) })

    /// One row of cells: `marker`, then each column's text fitted to its
    /// width (numbers to the right), cut with `…` at a cell boundary.
    static func line(_ columns: [PlacedColumn], width: Int, marker: String, text: (ListColumn) -> String) -> String {
        line(cells(columns, text: text), width: width, marker: marker)
    }

    /// `cells` joined at their columns: every cell is exactly its width, so
    /// the gaps are known without measuring the text again.
    static func line(_ cells: [Cell], width: Int, marker: String) -> String {
        var line = marker
        var end = DisplayText.width(marker)
        for cell in cells {
            line += String(repeating: " ", count: max(0, cell.start - end)) + cell.text
            end = cell.start + cell.width
        }
        // The cells are sanitized and fitted already: only a too-wide line is cut again.
        return end <= width ? line + String(repeating: " ", count: width - end) : DisplayText.fit(line, columns: width)
    }

    /// Each column's text fitted and padded to exactly its width.
    static func cells(_ columns: [PlacedColumn], text: (ListColumn) -> String) -> [Cell] {
        columns.map { placed in
            let fitted = DisplayText.fit(text(placed.column), columns: placed.width)
            let padding = String(repeating: " ", count: max(0, placed.width - DisplayText.width(fitted)))
            return Cell(column: placed.column, start: placed.start, width: placed.width,
                        text: placed.column.isRightAligned ? padding + fitted : fitted + padding)
        }
    }

    /// A column's text on one row, exactly `width` cells from `start`.
    struct Cell {
        var column: ListColumn
        var start: Int
        var width: Int
        var text: String
    }

    /// Redraws the parts of each text cell that the search matched in the
    /// match style: in every column shown, as the search found them.
    func highlightMatches(_ query: SearchQuery, in cells: [Cell], of person: ListedPerson, row: Int, selected: Bool,
                          on screen: Screen) {
        for cell in cells {
            guard let field = cell.column.searchField else { continue }
            let characters = Array(DisplayText.fit(cell.column.text(of: person), columns: cell.width))
            for range in query.matchRanges(in: String(characters), field: field) {
                let column = cell.start + characters[..<range.lowerBound].reduce(0) { $0 + DisplayText.width(of: $1) }
                screen.put(String(characters[range]), row: row, column: column, style: selected ? .selectedMatch : .match)
            }
        }
    }
}
