extension OrgTree {
    /// The chart of a search: every match inside its chain of managers (the
    /// managers shown as context even when they do not match), and under
    /// each manager shown a `N not shown` line for the direct reports left
    /// out (last among their reports, as broot says `N unlisted`), and one
    /// at the end for the top people left out. Team and organisation sizes
    /// count matches. O(n/64 + shown): once per search.
    public func searchOutline(matching matches: some Sequence<Int>) -> OrgOutline {
        var isMatch = PositionBits(count: count)
        var shown = PositionBits(count: count)
        for person in matches where person >= 0 && person < count {
            var position = Int(positions[person])
            isMatch.insert(position)
            while position >= 0, !shown.contains(position) {
                shown.insert(position)
                position = Int(outline.parents[position])
            }
        }
        var builder = OrgSearchOutlineBuilder(chart: outline, isMatch: isMatch)
        var shownRoots = 0
        shown.forEach { position in
            if outline.parents[position] < 0 { shownRoots += 1 }
            builder.add(position)
        }
        builder.closeAll()
        builder.addNotShown(roots.count - shownRoots, under: -1, depth: 0)
        return builder.outline(chartPositions: positions)
    }
}

extension OrgChartRows {
    /// A search's chart as it first shows: every manager with a match
    /// under them open, so every match shows; a manager whose reports are
    /// all left out stays closed on its `N not shown`.
    public static func openToMatches(_ outline: OrgOutline) -> OrgChartRows {
        OrgChartRows(outline) { position in
            position + 1 < outline.count && outline.person(at: position + 1) != nil
        }
    }
}

/// Positions `0..<count` as bits.
struct PositionBits {
    private var words: [UInt64]

    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    func contains(_ position: Int) -> Bool {
        words[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    mutating func insert(_ position: Int) {
        words[position >> 6] |= 1 << UInt64(position & 63)
    }

    /// Each position in the set, in increasing order (empty words skipped).
    func forEach(_ body: (Int) -> Void) {
        for (index, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                body(index << 6 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
    }
}

/// Lays a search's chart out from the shown positions of the whole chart,
/// taken in preorder: a stack of the managers whose organisation is still
/// being laid out closes each as the positions pass its end, adding its
/// `N not shown` line.
private struct OrgSearchOutlineBuilder {
    let chart: OrgOutline
    let isMatch: PositionBits
    private var entries: [Int32] = []
    private var parents: [Int32] = []
    private var depths: [Int32] = []
    private var matched: [Bool] = []
    private var entryChartPositions: [Int32] = []
    /// Managers laid out whose organisation is not over yet, innermost last.
    private var open: [(chartPosition: Int, position: Int, shownReports: Int)] = []

    init(chart: OrgOutline, isMatch: PositionBits) {
        self.chart = chart
        self.isMatch = isMatch
    }

    mutating func add(_ chartPosition: Int) {
        while let innermost = open.last, chart.end(of: innermost.chartPosition) <= chartPosition { close() }
        if !open.isEmpty { open[open.count - 1].shownReports += 1 }
        append(entry: chart.entries[chartPosition], parent: open.last?.position ?? -1, depth: open.count,
               chartPosition: chartPosition, matched: isMatch.contains(chartPosition))
        open.append((chartPosition, entries.count - 1, 0))
    }

    mutating func closeAll() {
        while !open.isEmpty { close() }
    }

    /// A `N not shown` line (nothing when `hidden` is 0).
    mutating func addNotShown(_ hidden: Int, under parent: Int, depth: Int) {
        guard hidden > 0 else { return }
        append(entry: Int32(-hidden), parent: parent, depth: depth,
               chartPosition: Int(entryChartPositions.last ?? 0), matched: false)
    }

    private mutating func close() {
        guard let manager = open.popLast() else { return }
        addNotShown(chart.teamSize(at: manager.chartPosition) - manager.shownReports, under: manager.position,
                    depth: open.count + 1)
    }

    private mutating func append(entry: Int32, parent: Int, depth: Int, chartPosition: Int, matched: Bool) {
        entries.append(entry)
        parents.append(Int32(parent))
        depths.append(Int32(depth))
        self.matched.append(matched)
        entryChartPositions.append(Int32(chartPosition))
    }

    /// The outline, with team and organisation sizes counting matches.
    func outline(chartPositions: [Int32]) -> OrgOutline {
        var teamSizes = [Int32](repeating: 0, count: entries.count)
        var organisationSizes = [Int32](repeating: 0, count: entries.count)
        for position in entries.indices.reversed() where parents[position] >= 0 {
            let parent = Int(parents[position])
            let match: Int32 = matched[position] ? 1 : 0
            teamSizes[parent] += match
            organisationSizes[parent] += organisationSizes[position] + match
        }
        return OrgOutline(entries: entries, sizes: OrgOutline.subtreeSizes(parents: parents), parents: parents,
                          depths: depths, teamSizes: teamSizes, organisationSizes: organisationSizes,
                          isContext: zip(entries, matched).map { $0 >= 0 && !$1 },
                          locator: .byChartPosition(chartPositions: chartPositions,
                                                    entryChartPositions: entryChartPositions))
    }
}
