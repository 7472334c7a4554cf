/// The part of a prompt's line that fits in its cells, with the cursor in
/// view: a line longer than the room scrolls sideways, and `…` marks the
/// side where text is cut off.
///
/// The window moves only when the cursor would leave it (from the start
/// it had at the last frame), so the text does not jump at every key; and
/// it comes back when there is room again, after a deletion.
public struct LineWindow: Equatable, Sendable {
    /// The first character shown.
    public var start: Int
    /// What to draw, made safe for the terminal, with the `…` marks.
    public var text: String
    /// Cells from the window's left edge to the cursor.
    public var cursorColumn: Int

    /// The window of `text` for a cursor at `cursor` (in characters) in
    /// `columns` cells, starting from `previousStart` when it still works.
    public init(text line: String, cursor: Int, columns: Int, previousStart: Int = 0) {
        let pieces = line.map { DisplayText.sanitized(String($0)) }
        let widths = pieces.map(DisplayText.width)
        let count = pieces.count
        // Running sums, so that the width of any stretch is one subtraction
        // and a long line (a paste) costs linear time, not quadratic.
        var sums = [0]
        sums.reserveCapacity(count + 1)
        for width in widths { sums.append(sums[sums.count - 1] + width) }
        let cursor = min(max(0, cursor), count)
        // The cursor at the end of the line takes a cell of its own.
        let endCell = cursor == count ? 1 : 0
        let cursorCell = cursor < count ? max(1, widths[cursor]) : 1
        func leftMark(_ start: Int) -> Int { start > 0 ? 1 : 0 }
        func width(_ range: Range<Int>) -> Int { sums[range.upperBound] - sums[range.lowerBound] }
        /// Everything from `start` on fits, with no mark at the right.
        /// (`endCell` reserves the cursor's cell at the end of the line.)
        func restFits(_ start: Int, endCell: Int = endCell) -> Bool {
            leftMark(start) + width(start..<count) + endCell <= columns
        }
        /// The cursor's cell fits, leaving room for a right mark.
        func cursorFits(_ start: Int) -> Bool {
            restFits(start) || leftMark(start) + width(start..<cursor) + cursorCell + 1 <= columns
        }
        var start = min(max(0, previousStart), cursor)
        while start < cursor, !cursorFits(start) { start += 1 }
        // Back to the left only while the whole rest fits even with the
        // cursor at the end, so moving left from the end does not scroll.
        while start > 0, restFits(start - 1, endCell: 1) { start -= 1 }

        let cutsRight = !restFits(start)
        let limit = columns - (cutsRight ? 1 : 0)
        var shown = start > 0 ? String(DisplayText.ellipsis) : ""
        var used = leftMark(start)
        for index in start..<count {
            guard used + widths[index] <= limit else { break }
            shown += pieces[index]
            used += widths[index]
        }
        if cutsRight { shown.append(DisplayText.ellipsis) }
        self.start = start
        text = shown
        cursorColumn = leftMark(start) + width(start..<cursor)
    }
}
