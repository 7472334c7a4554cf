/// What `n` and `N` keep between presses in a list with no filter: whether
/// a look for the next match is in flight (keys typed after it wait for
/// it), and the last search's matches, so that the next press only
/// places them (searched again when the query or the list changed).
struct ListMatches {
    var isFinding = false
    private var searched: (query: String, everyone: PeopleArrangement, matches: PeopleArrangement)?

    /// `query`'s matches in `everyone`, if the last look found them.
    func matches(of query: String, in everyone: PeopleArrangement) -> PeopleArrangement? {
        guard let searched, searched.query == query, searched.everyone == everyone else { return nil }
        return searched.matches
    }

    mutating func remember(_ matches: PeopleArrangement?, of query: String, in everyone: PeopleArrangement) {
        searched = matches.map { (query, everyone, $0) }
    }
}
