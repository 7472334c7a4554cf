/// The last few results of one prompt, so that a query is searched
/// within the smallest earlier result it narrows: Backspace back to a
/// query typed a moment ago finds its own result (searched again only
/// among its matches) instead of searching everyone.
public struct RecentSearches: Sendable {
    private var results: [PeopleArrangement] = []
    private let limit: Int

    public init(limit: Int = 24) {
        self.limit = limit
    }

    public mutating func remember(_ result: PeopleArrangement) {
        guard let query = result.query, !query.isEmpty else { return }
        results.removeAll { $0.query?.text == query.text }
        results.append(result)
        if results.count > limit { results.removeFirst() }
    }

    public mutating func forget() {
        results.removeAll()
    }

    /// The result with the fewest people among those `query` narrows (the
    /// latest of equals).
    public func narrowest(for query: SearchQuery) -> PeopleArrangement? {
        results.reversed().filter { $0.query.map(query.narrows) ?? false }.min { $0.count < $1.count }
    }
}

