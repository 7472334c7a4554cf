/// The company overview, worded and ready to draw.
public struct CompaniesViewModel: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var title: String
        public var headcount: String
        public var active: String
        public var total: String
        public var average: String
        public var averageAge: String
        /// The headcount as a number, for the bar.
        public var count: Int
    }

    public var sourceName: String
    public var summary: String
    public var rows: [Row]
    public var selectedRow: Int?
    public var position: String
    public var sortLabel: String
    /// The figure column sorted on (0 people … 4 average age): never dropped.
    public var sortedColumn: Int?
    /// Whether that order (or the names', when `sortedColumn` is nil) runs
    /// high to low: the header marks the column `↓`, else `↑`.
    public var sortDescending = false
    /// The search the figures are narrowed by, if any ("jos").
    public var filter: String?
    /// What the screen says when there are no rows ("No one matches 'xyz'…").
    public var emptyMessage = "No companies."
    /// What the database said last, for the `?` help (nil: nothing failed).
    public var problemDetail: String? = nil
    /// A word after `r` ("reconnected", "still offline: …"), in the status bar.
    public var notice: String? = nil
    /// Changes whenever `rows` does (0: not said), so that a view measures
    /// tens of thousands of rows once, not on every key.
    public var rowsVersion = 0
}
