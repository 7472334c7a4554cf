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

        public init(title: String, headcount: String, active: String, total: String, average: String, averageAge: String,
                    count: Int) {
            self.title = title
            self.headcount = headcount
            self.active = active
            self.total = total
            self.average = average
            self.averageAge = averageAge
            self.count = count
        }

        /// A company's figures, worded.
        public init(_ summary: CompanySummary) {
            self.init(title: summary.title, headcount: NumberText.grouped(summary.headcount),
                      active: NumberText.grouped(summary.active), total: Balance.format(cents: summary.totalCents),
                      average: summary.averageCents.map(Balance.format(cents:)) ?? "—",
                      averageAge: summary.averageAge.map(NumberText.tenths) ?? "—", count: summary.headcount)
        }
    }

    /// The rows, worded when asked for: a frame words the twenty or so on
    /// screen, not each of 70,000 companies.
    public struct Rows: RandomAccessCollection, Equatable, Sendable {
        let summaries: [CompanySummary]

        public init(_ summaries: [CompanySummary]) {
            self.summaries = summaries
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { summaries.count }
        public subscript(index: Int) -> Row { Row(summaries[index]) }

        /// One row whose every cell is its column's widest (what the view
        /// measures columns by), found from the figures alone: a count's
        /// or an amount's width grows with its size, so each column's
        /// widest is that of its largest or its most negative value.
        public var widest: Row {
            var most = (headcount: 0, active: 0)
            var totals = Extremes<Int128>(), averages = Extremes<Int128>(), ages = Extremes<Double>()
            for summary in summaries {
                most = (Swift.max(most.headcount, summary.headcount), Swift.max(most.active, summary.active))
                totals.add(summary.totalCents)
                averages.add(summary.averageCents)
                ages.add(summary.averageAge)
            }
            return Row(title: "", headcount: NumberText.grouped(most.headcount), active: NumberText.grouped(most.active),
                       total: totals.widest(Balance.format(cents:)), average: averages.widest(Balance.format(cents:)),
                       averageAge: ages.widest(NumberText.tenths), count: most.headcount)
        }
    }

    /// A column's largest and most negative values, and whether any row
    /// has none ("—"): the values whose wording is widest.
    struct Extremes<Value: Comparable> {
        var most: Value?
        var least: Value?
        var isMissing = false

        mutating func add(_ value: Value?) {
            guard let value else { return isMissing = true }
            most = most.map { Swift.max($0, value) } ?? value
            least = least.map { Swift.min($0, value) } ?? value
        }

        /// The widest of their wordings ("" when there are no rows).
        func widest(_ word: (Value) -> String) -> String {
            let cells = [most, least].compactMap { $0.map(word) } + (isMissing ? ["—"] : [])
            return cells.max { DisplayText.width($0) < DisplayText.width($1) } ?? ""
        }
    }

    public var sourceName: String
    public var summary: String
    public var rows: Rows
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
    /// Whether `rows` are the count asked for: `.loading` while it is
    /// counted, `.failed` with why when it could not be (the rows are then
    /// none, never figures made up or left over from before).
    public var figures: LoadState = .loaded
    /// What the database said last, for the `?` help (nil: nothing failed).
    public var problemDetail: String? = nil
    /// A word after `r` ("reconnected", "still offline: …"), in the status bar.
    public var notice: String? = nil
    /// Changes whenever `rows` does (0: not said), so that a view measures
    /// tens of thousands of rows once, not on every key.
    public var rowsVersion = 0
}
