/// One company's run of people in the list's order, or the flat list's
/// one section of everyone.
public struct CompanySection: Sendable, Equatable {
    /// The company as shown; "No company" for the section of people
    /// without one; "Everyone" for the flat list's.
    public var title: String
    /// The company, numbered as the repository's `companies`; nil for the
    /// flat list's one section, which holds everyone whatever their company
    /// (so it is never taken for a company: folded, remembered, counted).
    public var companyID: Int?
    /// Display positions that belong to this section.
    public var range: Range<Int>
    /// The company's headcount before any search narrowed it.
    public var total: Int

    public init(title: String, companyID: Int?, range: Range<Int>, total: Int? = nil) {
        self.title = title
        self.companyID = companyID
        self.range = range
        self.total = total ?? range.count
    }

    public var count: Int { range.count }

    /// The flat list's title for its one section.
    public static let everyoneTitle = "Everyone"

    /// The flat list's one section: everyone at `range`, of `total` people
    /// before a search narrowed them.
    public static func everyone(_ range: Range<Int>, total: Int? = nil) -> CompanySection {
        CompanySection(title: everyoneTitle, companyID: nil, range: range, total: total)
    }
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
