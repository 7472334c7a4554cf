/// One line of the org chart as drawn: its indentation, whether it opens,
/// and what it says.
public struct OrgChartLine: Equatable, Sendable {
    public enum Marker: Equatable, Sendable {
        /// Nobody under them (or a `N not shown` line).
        case none
        case collapsed
        case expanded
    }

    /// Levels under the top.
    public let depth: Int
    public let marker: Marker
    /// The person's name (`N not shown` on a line for those a search leaves out).
    public let text: String
    public let email: String
    /// "3 reports · 12 in all" for a manager; empty for anyone else.
    public let counts: String
    /// Why the person is at the top when it is a problem ("manager not
    /// here"); nil otherwise.
    public let problem: String?
    /// Shown only as a match's manager (a search's chart): drawn dim.
    public let isContext: Bool
    /// A line for people a search leaves out, not a person.
    public let isNotShown: Bool
}

/// What the org chart screen shows.
public struct OrgChartViewModel: Sendable {
    public enum Content: Sendable {
        case loading
        /// One line in place of the chart (no manager fields, no chart here).
        case message(String)
        case chart
    }

    public let sourceName: String
    public let content: Content
    /// The chart's problems in words, for the title's `!`; nil for none.
    public let problems: String?
    /// The same in a few cells ("4 problems"), for a title too narrow for
    /// `problems`; nil for none.
    public let problemsBrief: String?
    /// "12 people, 3 at the top".
    public let summary: String
    public let rowCount: Int
    public let selectedRow: Int
    /// The search shown, nil for everyone.
    public let filter: String?
    /// What a search found ("4 matches"), or why it could not run.
    public let notice: String?
    /// Said in place of the chart when it has no rows (a search no one
    /// matches); nil otherwise.
    public let emptyText: String?
    /// The lines `range` of the chart (clamped to it).
    public let lines: @MainActor @Sendable (Range<Int>) -> [OrgChartLine]

    public init(sourceName: String, content: Content, problems: String? = nil, problemsBrief: String? = nil, summary: String = "",
                rowCount: Int = 0,
                selectedRow: Int = 0, filter: String? = nil, notice: String? = nil, emptyText: String? = nil,
                lines: @escaping @MainActor @Sendable (Range<Int>) -> [OrgChartLine] = { _ in [] }) {
        self.sourceName = sourceName
        self.content = content
        self.problems = problems
        self.problemsBrief = problemsBrief
        self.summary = summary
        self.rowCount = rowCount
        self.selectedRow = selectedRow
        self.filter = filter
        self.notice = notice
        self.emptyText = emptyText
        self.lines = lines
    }

    /// "row 3/120": where the selection is among the rows shown.
    public var position: String {
        rowCount == 0 ? "nobody shown" : "\(NumberText.grouped(selectedRow + 1))/\(NumberText.grouped(rowCount))"
    }

    /// What the rows are: everyone's chart, or a search's.
    public var shown: String {
        filter.map { "search: \($0)" } ?? "everyone"
    }
}
