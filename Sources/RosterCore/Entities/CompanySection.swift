/// One company's run of people in the list's order.
public struct CompanySection: Sendable, Equatable {
    /// The company as shown; "No company" for the section of people without one.
    public var title: String
    public var companyID: Int
    /// Display positions that belong to this section.
    public var range: Range<Int>
    /// The company's headcount before any search narrowed it.
    public var total: Int

    public init(title: String, companyID: Int, range: Range<Int>, total: Int? = nil) {
        self.title = title
        self.companyID = companyID
        self.range = range
        self.total = total ?? range.count
    }

    public var count: Int { range.count }
}

extension Array where Element == CompanySection {
    /// Index of the section holding display `position` (a binary search:
    /// sections are in display order).
    public func sectionIndex(containing position: Int) -> Int {
        var low = 0, high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if self[middle].range.lowerBound <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
