import RosterCore

/// A prompt on the bottom line: its label, as much of the line as fits
/// around the cursor (scrolling sideways when it is long), the terminal's
/// cursor where the editing cursor is, and hints at the right.
struct PromptBar {
    /// The first character shown, kept between frames so that the line
    /// scrolls only when the cursor leaves it.
    private var start = 0

    /// `hints` are dropped from the end, whole, until they take at most
    /// half the width: the line being typed matters more. With `textFirst`
    /// (a file name, whose end is what matters), further while the line
    /// does not fit beside them.
    /// Returns the screen columns where `mark` (characters of `text`)
    /// shows, clipped to the part of the line on screen; nil if none is.
    @MainActor @discardableResult
    mutating func draw(label: String, text: String, cursor: Int, hints: [String], row: Int, on screen: Screen,
                       mark: Range<Int>? = nil, textFirst: Bool = false) -> Range<Int>? {
        let width = screen.size.columns
        let labelText = DisplayText.fit(label, columns: max(1, width / 2))
        let labelWidth = DisplayText.width(labelText)
        // The line's cells (plus one for the cursor at its end); counted only
        // up to the width, so a long paste costs no more than a short line.
        var lineWidth = 1
        for character in text where textFirst && lineWidth <= width {
            lineWidth += DisplayText.width(DisplayText.sanitized(String(character)))
        }
        var kept = hints
        func hintsWidth() -> Int { kept.isEmpty ? 0 : DisplayText.width(kept.joined(separator: "  ")) + 1 }
        while !kept.isEmpty, hintsWidth() > width / 2 || (textFirst && labelWidth + lineWidth + hintsWidth() > width) { kept.removeLast() }
        let right = kept.isEmpty ? "" : kept.joined(separator: "  ") + " "

        let room = max(1, width - labelWidth - DisplayText.width(right) - 1)
        let window = LineWindow(text: text, cursor: cursor, columns: room, previousStart: start)
        start = window.start
        screen.put(labelText + DisplayText.padded(window.text, columns: width - labelWidth - DisplayText.width(right)) + right,
                   row: row, column: 0, style: .bar)
        screen.showCursor(row: row, column: labelWidth + window.cursorColumn)
        guard let mark else { return nil }
        let widths = text.map { DisplayText.width(DisplayText.sanitized(String($0))) }
        let ellipsis = window.start > 0 ? 1 : 0
        func column(_ index: Int) -> Int {
            let index = min(max(index, window.start), widths.count)
            return labelWidth + ellipsis + widths[window.start..<index].reduce(0, +)
        }
        // A mark at the very end (a value still to type) gets one cell.
        let lower = column(mark.lowerBound), upper = max(column(mark.upperBound), lower + 1)
        let visible = min(upper, labelWidth + room)
        return lower < visible ? lower..<visible : nil
    }
}
