/// A chart laid out in preorder: each manager followed by everyone under
/// them, so that a person's organisation is the run of positions after
/// theirs (`sizes` long). The whole chart is one outline; a search's chart
/// (matches inside their chains, `N not shown` lines) is another. The
/// visible rows (`OrgChartRows`) are a subsequence of it.
public struct OrgOutline: Sendable, Equatable {
    /// What stands at a position of the outline.
    public enum Entry: Equatable, Sendable {
        case person(Int)
        /// A line that stands for this many direct reports a search leaves out.
        case notShown(Int)
    }

    /// The person at each position, or `-N` for a line of N people not shown.
    let entries: [Int32]
    /// How many positions follow each one under it (its organisation as shown).
    let sizes: [Int32]
    /// The position of each entry's manager, or -1 at the top.
    let parents: [Int32]
    /// Levels under the top.
    let depths: [Int32]
    /// The team size the chart shows for each entry: direct reports (in a
    /// search's chart, those that match).
    let teamSizes: [Int32]
    /// The organisation size the chart shows (in a search's chart, the
    /// matches under the entry).
    let organisationSizes: [Int32]
    /// In a search's chart, which entries are there only as a match's
    /// manager (context); empty for the whole chart.
    let isContext: [Bool]
    /// Finds a person's position.
    let locator: PersonLocator

    /// How a person's position in an outline is found.
    enum PersonLocator: Sendable, Equatable {
        /// The whole chart: by person, their position.
        case byPerson([Int32])
        /// A search's chart: the person's position in the whole chart
        /// (`chartPositions`, by person), looked for in the positions each
        /// entry had there (`entryChartPositions`, never decreasing).
        case byChartPosition(chartPositions: [Int32], entryChartPositions: [Int32])
    }

    public var count: Int { entries.count }

    public func entry(at position: Int) -> Entry {
        let value = Int(entries[position])
        return value >= 0 ? .person(value) : .notShown(-value)
    }

    /// The person at `position`, nil on a `N not shown` line.
    public func person(at position: Int) -> Int? {
        entries[position] >= 0 ? Int(entries[position]) : nil
    }

    public func depth(at position: Int) -> Int { Int(depths[position]) }
    public func manager(at position: Int) -> Int? { parents[position] >= 0 ? Int(parents[position]) : nil }
    public func hasChildren(at position: Int) -> Bool { sizes[position] > 0 }
    public func teamSize(at position: Int) -> Int { Int(teamSizes[position]) }
    public func organisationSize(at position: Int) -> Int { Int(organisationSizes[position]) }
    public func isContext(at position: Int) -> Bool { !isContext.isEmpty && isContext[position] }

    /// The position just after `position`'s organisation.
    public func end(of position: Int) -> Int { position + Int(sizes[position]) + 1 }

    /// Whether nothing after `position` shares its manager (tree lines draw `└─`).
    public func isLastChild(at position: Int) -> Bool {
        let parent = Int(parents[position])
        return end(of: position) == (parent >= 0 ? end(of: parent) : count)
    }

    /// Where `person` stands, nil when this outline leaves them out.
    public func position(of person: Int) -> Int? {
        switch locator {
        case .byPerson(let positions):
            return positions.indices.contains(person) ? Int(positions[person]) : nil
        case .byChartPosition(let chartPositions, let entryChartPositions):
            guard chartPositions.indices.contains(person) else { return nil }
            let target = chartPositions[person]
            var low = 0
            var high = entryChartPositions.count
            while low < high {
                let middle = (low + high) / 2
                if entryChartPositions[middle] < target { low = middle + 1 } else { high = middle }
            }
            // A `N not shown` line shares the position before it: skip to the person.
            while low < count, entryChartPositions[low] == target {
                if entries[low] == Int32(person) { return low }
                low += 1
            }
            return nil
        }
    }

    /// The whole chart from its report lists, and each person's position.
    static func wholeChart(roots: [Int32], offsets: [Int32], reports: [Int32]) -> (OrgOutline, [Int32]) {
        let count = offsets.count - 1
        var entries = [Int32](repeating: 0, count: count)
        var positions = [Int32](repeating: 0, count: count)
        var parents = [Int32](repeating: -1, count: count)
        var depths = [Int32](repeating: 0, count: count)
        var teamSizes = [Int32](repeating: 0, count: count)
        // Depth first with a stack of people still to place, the next on top.
        var stack = Array(roots.reversed())
        var position = 0
        while let person = stack.popLast().map(Int.init) {
            entries[position] = Int32(person)
            positions[person] = Int32(position)
            let (first, end) = (Int(offsets[person]), Int(offsets[person + 1]))
            teamSizes[position] = Int32(end - first)
            var report = end - 1
            while report >= first {
                stack.append(reports[report])
                report -= 1
            }
            position += 1
        }
        for position in 0..<count {
            let person = Int(entries[position])
            for report in reports[Int(offsets[person])..<Int(offsets[person + 1])] {
                let reportPosition = Int(positions[Int(report)])
                parents[reportPosition] = Int32(position)
                depths[reportPosition] = depths[position] + 1
            }
        }
        let sizes = subtreeSizes(parents: parents)
        let outline = OrgOutline(entries: entries, sizes: sizes, parents: parents, depths: depths, teamSizes: teamSizes,
                                 organisationSizes: sizes, isContext: [], locator: .byPerson(positions))
        return (outline, positions)
    }

    /// Each position's count of positions under it, from the last up (a
    /// parent always comes before its children).
    static func subtreeSizes(parents: [Int32]) -> [Int32] {
        var sizes = [Int32](repeating: 0, count: parents.count)
        for position in parents.indices.reversed() where parents[position] >= 0 {
            sizes[Int(parents[position])] += sizes[position] + 1
        }
        return sizes
    }
}
