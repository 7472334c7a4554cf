/// A source's org chart for its searches (`reports-to:`, `under:`,
/// `depth`): read the first time a query asks, on that search's thread
/// (searches run off the main actor), then kept for every later one. A
/// search without such a term never asks, so it costs plain searches
/// nothing. One per repository: a file read again (after an edit) is a
/// new repository with a chart of its own.
public final class OrgChartForQueries: Sendable {
    private let reading: any OrgChartReading
    private let sourceName: String
    /// The chart once read, or why there is none; nil before the first ask.
    private let state = Locked<Result<OrgQueryChart, RepositoryError>?>(nil)

    public init(reading: any OrgChartReading, sourceName: String) {
        self.reading = reading
        self.sourceName = sourceName
    }

    /// The chart (read now if it was not yet: a search waiting meanwhile
    /// waits for the same read), or why the source has none.
    public func chart() -> Result<OrgQueryChart, RepositoryError> {
        state.withLock { state in
            if let state { return state }
            let read = Self.queryChart(reading.readChart(orderKeys: nil), sourceName: sourceName)
            state = read
            return read
        }
    }

    private static func queryChart(_ load: OrgChartLoad, sourceName: String) -> Result<OrgQueryChart, RepositoryError> {
        switch load {
        case .loaded(let chart):
            guard let references = chart.references else {
                return .failure(RepositoryError(.unreadable, reason: "this source's org chart cannot find people by name"))
            }
            return .success(OrgQueryChart(tree: chart.tree, references: references))
        case .noManagers:
            return .failure(noManagersError(sourceName))
        case .unavailable(let why):
            return .failure(RepositoryError(.unreadable, reason: why))
        }
    }

    /// `query` answered by the chart: itself when it asks nothing of it;
    /// an error when the source has no chart or a term names nobody.
    public func resolve(_ query: SearchQuery) throws(RepositoryError) -> SearchQuery {
        guard query.asksOrgChart else { return query }
        let chart = try chart().get()
        do throws(QueryError) {
            return try query.resolved(in: chart)
        } catch {
            throw RepositoryError(.unreadable, reason: error.message)
        }
    }

    /// Said for an org chart term by a file whose people name no manager.
    static func noManagersError(_ sourceName: String) -> RepositoryError {
        RepositoryError(.unreadable, reason: "\(DisplayText.sanitized(sourceName)) has no managers (no \"manager\" field): "
                            + "reports-to:, under: and depth need them")
    }

    /// Said for an org chart term by a source whose managers are not read
    /// for queries (standard input, a directory server).
    public static func noChartError(_ sourceName: String) -> RepositoryError {
        RepositoryError(.unreadable, reason: "\(DisplayText.sanitized(sourceName)) keeps no managers to search: "
                            + "reports-to:, under: and depth work on files for now")
    }
}
