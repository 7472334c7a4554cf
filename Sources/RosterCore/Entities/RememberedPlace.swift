/// Where the user was in a directory: restored at the next launch of the
/// same file (see the app's `PlaceStore`).
public struct RememberedPlace: Codable, Equatable, Sendable {
    /// The selected person's position in the file, and their `_id` (to check
    /// that the file has not changed under it; if it has, the id is looked up).
    public var selectedPosition: Int?
    public var selectedID: String?
    public var sortKey: String
    public var descending: Bool
    public var groupedByCompany: Bool
    /// Companies shown collapsed, by name (absent in older state files).
    public var collapsedCompanies: [String]?
    /// When it was saved (seconds since 1970): only the most recent places
    /// are kept (absent in older state files).
    public var savedAt: Double?

    public init(selectedPosition: Int?, selectedID: String?, sortKey: String = "lastName",
                descending: Bool = false, groupedByCompany: Bool = true) {
        self.selectedPosition = selectedPosition
        self.selectedID = selectedID
        self.sortKey = sortKey
        self.descending = descending
        self.groupedByCompany = groupedByCompany
    }

    var sortOrder: SortOrder {
        let key = SortOrder.Key.allCases.first { "\($0)" == sortKey } ?? .lastName
        return SortOrder(key, descending: descending)
    }
}
