/// The marked people as the list's actions need them, read through the
/// repository a window at a time (a million marked is a scan, not a
/// million lookups).
struct MarkedPeople {
    let repository: any PeopleRepository
    let marked: Set<PersonID>

    static let window = 4096

    /// Everyone in `arrangement`, in its order (`M`).
    static func ids(in arrangement: PeopleArrangement, repository: any PeopleRepository) -> [PersonID] {
        var ids: [PersonID] = []
        ids.reserveCapacity(arrangement.count)
        var start = 0
        while start < arrangement.count {
            let end = min(arrangement.count, start + window)
            ids += repository.personIDs(in: arrangement, positions: start..<end)
            start = end
        }
        return ids
    }

    /// How many of the marked people `arrangement` shows: all of them when
    /// it holds everyone; else a few lookups or one scan, whichever is less.
    func shownCount(in arrangement: PeopleArrangement) -> Int {
        guard !marked.isEmpty else { return 0 }
        if arrangement.count == repository.personCount { return marked.count }
        if marked.count <= 16 {
            return marked.reduce(0) { $0 + (repository.position(of: $1, in: arrangement) == nil ? 0 : 1) }
        }
        return Self.ids(in: arrangement, repository: repository).reduce(0) { $0 + (marked.contains($1) ? 1 : 0) }
    }

    /// The marked people, whole: in `arrangement`'s order (the list's
    /// order without its search, so that a search never reorders them),
    /// then any it leaves out (another company's, in a company's list) in
    /// file order.
    func people(orderedBy arrangement: PeopleArrangement) -> [Person] {
        var ordered: [PersonID] = []
        if marked.count <= 16 {
            let placed = marked.map { ($0, repository.position(of: $0, in: arrangement) ?? Int.max) }
            ordered = placed.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
        } else {
            ordered = Self.ids(in: arrangement, repository: repository).filter { marked.contains($0) }
            let inArrangement = Set(ordered)
            ordered += marked.subtracting(inArrangement).sorted()
        }
        return ordered.map { repository.person($0) }
    }
}
