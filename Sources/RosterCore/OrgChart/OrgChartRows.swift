/// One line of the org chart as the screen shows it.
public struct OrgChartRow: Equatable, Sendable {
    public let entry: OrgOutline.Entry
    /// Where the entry stands in the outline.
    public let position: Int
    /// Levels under the top (the indentation).
    public let depth: Int
    public let hasChildren: Bool
    public let isExpanded: Bool
    /// Nothing after it shares its manager (tree lines draw `└─`, else `├─`).
    public let isLastChild: Bool
    /// Shown only as a match's manager (a search's chart).
    public let isContext: Bool
    /// Direct reports (in a search's chart, those that match).
    public let teamSize: Int
    /// Everyone under them (in a search's chart, the matches).
    public let organisationSize: Int

    /// The person on this row, nil on a `N not shown` line.
    public var person: Int? {
        if case .person(let person) = entry { return person }
        return nil
    }
}

/// The rows the org chart shows: an outline with some managers expanded.
/// Rows are not stored; a row's position comes from `CoveredPositions`
/// (each collapsed manager covers everyone under them), so expanding or
/// collapsing anyone is O(log n), opening at a person O(depth · log n), and
/// a screenful of rows O(log n + rows): never a rebuild of a million rows.
public struct OrgChartRows: Sendable, Equatable {
    public let outline: OrgOutline
    private var expanded: [Bool]
    private var hidden: CoveredPositions

    /// The outline with the managers `isExpanded` says open (by default
    /// none: only the top people show).
    public init(_ outline: OrgOutline, expandedWhere isExpanded: (Int) -> Bool = { _ in false }) {
        self.outline = outline
        var expanded = [Bool](repeating: false, count: outline.count)
        for position in 0..<outline.count where outline.hasChildren(at: position) && isExpanded(position) {
            expanded[position] = true
        }
        self.expanded = expanded
        hidden = CoveredPositions(count: outline.count, covering: (0..<outline.count).lazy.filter {
            outline.hasChildren(at: $0) && !expanded[$0]
        }.map { ($0 + 1)..<outline.end(of: $0) })
    }

    /// Everyone shown, every manager open (`roster --list --tree`).
    public static func allExpanded(_ outline: OrgOutline) -> OrgChartRows {
        OrgChartRows(outline) { _ in true }
    }

    public var count: Int { hidden.visibleCount }

    public func row(_ index: Int) -> OrgChartRow {
        row(atPosition: hidden.position(ofVisible: index))
    }

    /// The rows `range` (clamped to the rows there are): the first found in
    /// O(log n), each next one in O(1).
    public func rows(_ range: Range<Int>) -> [OrgChartRow] {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return [] }
        var position = hidden.position(ofVisible: range.lowerBound)
        var rows: [OrgChartRow] = []
        rows.reserveCapacity(range.count)
        for _ in range {
            rows.append(row(atPosition: position))
            position = nextVisible(after: position)
        }
        return rows
    }

    /// The visible position after the visible `position` (`count` at the end).
    public func nextVisible(after position: Int) -> Int {
        outline.hasChildren(at: position) && !expanded[position] ? outline.end(of: position) : position + 1
    }

    /// The row of `position`, nil when a collapsed manager hides it.
    public func rowIndex(ofPosition position: Int) -> Int? {
        hidden.isVisible(position) ? hidden.visibleBefore(position) : nil
    }

    /// The row of `person`, nil when hidden or not in this chart.
    public func rowIndex(of person: Int) -> Int? {
        outline.position(of: person).flatMap(rowIndex(ofPosition:))
    }

    /// The row at `position`, whether or not it is visible now.
    public func row(atPosition position: Int) -> OrgChartRow {
        OrgChartRow(entry: outline.entry(at: position), position: position, depth: outline.depth(at: position),
                    hasChildren: outline.hasChildren(at: position), isExpanded: expanded[position],
                    isLastChild: outline.isLastChild(at: position), isContext: outline.isContext(at: position),
                    teamSize: outline.teamSize(at: position), organisationSize: outline.organisationSize(at: position))
    }

    public func isExpanded(position: Int) -> Bool { expanded[position] }

    /// Opens or closes the manager at `position` (nothing for someone with
    /// no one under them).
    public mutating func setExpanded(_ open: Bool, position: Int) {
        guard outline.hasChildren(at: position), expanded[position] != open else { return }
        expanded[position] = open
        hidden.cover((position + 1)..<outline.end(of: position), by: open ? -1 : 1)
    }

    /// Space: opens a closed manager, closes an open one.
    public mutating func toggle(row index: Int) {
        let position = hidden.position(ofVisible: index)
        setExpanded(!expanded[position], position: position)
    }

    /// Opens every manager above `position` so that it shows; its row.
    @discardableResult
    public mutating func reveal(position: Int) -> Int {
        var manager = outline.manager(at: position)
        while let above = manager {
            setExpanded(true, position: above)
            manager = outline.manager(at: above)
        }
        return hidden.visibleBefore(position)
    }

    /// Opens the chart at `person`: their chain expanded down to them; their
    /// row, nil when this chart leaves them out.
    @discardableResult
    public mutating func open(at person: Int) -> Int? {
        outline.position(of: person).map { reveal(position: $0) }
    }

    /// Left: the row of the manager of the person on `index`.
    public func managerRow(of index: Int) -> Int? {
        outline.manager(at: hidden.position(ofVisible: index)).map(hidden.visibleBefore)
    }

    /// Right: the row of the first report on `index`, nil when the row has
    /// none or is collapsed (the screen opens it first).
    public func firstReportRow(of index: Int) -> Int? {
        let position = hidden.position(ofVisible: index)
        return outline.hasChildren(at: position) && expanded[position] ? index + 1 : nil
    }

    /// The row that shows `position` or, when a collapse hid it, the
    /// nearest manager above it that shows (where the selection goes).
    public func nearestVisibleRow(toPosition position: Int) -> Int {
        var current = position
        while !hidden.isVisible(current), let manager = outline.manager(at: current) { current = manager }
        return hidden.visibleBefore(current)
    }

    /// For tree lines: for each level from 1 up to the row's own (the top
    /// level draws none), whether the manager at that level has a later
    /// sibling, so a `│` continues down past this row. O(depth).
    public func continuingLevels(ofPosition position: Int) -> [Bool] {
        let depth = outline.depth(at: position)
        guard depth > 1 else { return [] }
        var levels = [Bool](repeating: false, count: depth - 1)
        var current = outline.manager(at: position)
        while let manager = current, outline.depth(at: manager) >= 1 {
            levels[outline.depth(at: manager) - 1] = !outline.isLastChild(at: manager)
            current = outline.manager(at: manager)
        }
        return levels
    }
}
