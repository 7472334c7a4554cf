/// Where `n` lands in a list with no filter: a person who matches the
/// last search, in the list's own order.
public struct MatchPlace: Sendable, Equatable {
    /// Display position in the whole list.
    public let position: Int
    /// Which match it is (0: the first), of `count`.
    public let index: Int
    public let count: Int
}

/// What is known of a query's matches before looking for the next one.
public enum Searched: Sendable {
    /// Its matches, found by the last look.
    case found(PeopleArrangement)
    /// To be searched for, within an earlier result it narrows (nil: everyone).
    case within(PeopleArrangement?)
}

/// What a look for the next match found: the search's matches (kept for
/// the next `n`, nil when the search failed), and the match, nil when
/// there is none that way.
public struct FoundMatch: Sendable {
    public let matches: PeopleArrangement?
    public let place: Result<MatchPlace?, RepositoryError>
}

/// Finds the next or previous match through the repository protocol
/// alone, so every source (a file in memory, SQLite, PostgreSQL) answers
/// alike: the query's matches come in the whole list's order, so the one
/// after a position is found by bisection on where each sits in the list
/// (at once when the selected person is a match: the next one).
enum MatchFinder {
    static func find(_ query: SearchQuery, in everyone: PeopleArrangement, searched: Searched, from position: Int,
                     forward: Bool, repository: any PeopleRepository) async -> FoundMatch {
        let matches: PeopleArrangement
        switch searched {
        case .found(let found):
            matches = found
        case .within(let earlier):
            do throws(RepositoryError) {
                matches = try await repository.search(query, in: everyone, within: earlier)
            } catch {
                return FoundMatch(matches: nil, place: .failure(error))
            }
        }
        let place = await Result(awaiting: { () async throws(RepositoryError) in
            try await next(after: position, forward: forward, in: everyone, among: matches, repository: repository)
        })
        return FoundMatch(matches: matches, place: place)
    }

    /// The match after (before) display `position` of `everyone`, nil at the end.
    private static func next(after position: Int, forward: Bool, in everyone: PeopleArrangement, among matches: PeopleArrangement,
                             repository: any PeopleRepository) async throws(RepositoryError) -> MatchPlace? {
        guard !matches.isEmpty, !everyone.isEmpty else { return nil }
        let position = min(max(0, position), everyone.count - 1)
        func placeInList(ofMatch index: Int) async throws(RepositoryError) -> Int? {
            guard let id = try await repository.personIDs(in: matches, positions: index..<(index + 1)).first else { return nil }
            return try await repository.position(of: id, in: everyone)
        }
        let selected = try await repository.personIDs(in: everyone, positions: position..<(position + 1)).first
        var index: Int
        if let selected, let selectedMatch = try await repository.position(of: selected, in: matches) {
            index = selectedMatch + (forward ? 1 : -1)
        } else {
            // The first match placed after `position`: those before `low`
            // are placed at or before it, those from `high` on after it.
            var low = 0, high = matches.count
            while low < high {
                let middle = (low + high) / 2
                guard let place = try await placeInList(ofMatch: middle) else { return nil }
                if place > position { high = middle } else { low = middle + 1 }
            }
            index = forward ? low : low - 1
        }
        guard index >= 0, index < matches.count, let place = try await placeInList(ofMatch: index) else { return nil }
        return MatchPlace(position: place, index: index, count: matches.count)
    }
}
