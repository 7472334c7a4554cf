/// The marked people as the list's actions need them, read through the
/// repository a window at a time (a million marked is a scan, not a
/// million lookups).
struct MarkedPeople {
    let repository: any PeopleRepository
    let marked: Set<PersonID>

    static let window = 4096

    /// Everyone in `arrangement`, in its order (`M`).
    static func ids(in arrangement: PeopleArrangement, repository: any PeopleRepository) async throws(RepositoryError) -> [PersonID] {
        var ids: [PersonID] = []
        ids.reserveCapacity(arrangement.count)
        var start = 0
        while start < arrangement.count {
            let end = min(arrangement.count, start + window)
            ids += try await repository.personIDs(in: arrangement, positions: start..<end)
            start = end
        }
        return ids
    }

    /// How many of the marked people `arrangement` shows: all of them when
    /// it holds everyone; else a few lookups or one scan, whichever is less.
    func shownCount(in arrangement: PeopleArrangement) async throws(RepositoryError) -> Int {
        guard !marked.isEmpty else { return 0 }
        if arrangement.count == repository.personCount { return marked.count }
        if marked.count <= 16 {
            var shown = 0
            for id in marked where try await repository.position(of: id, in: arrangement) != nil { shown += 1 }
            return shown
        }
        return try await Self.ids(in: arrangement, repository: repository).reduce(0) { $0 + (marked.contains($1) ? 1 : 0) }
    }

    /// The marked people, whole: in `arrangement`'s order (the list's
    /// order without its search, so that a search never reorders them),
    /// then any it leaves out (another company's, in a company's list) in
    /// file order.
    func people(orderedBy arrangement: PeopleArrangement) async throws(RepositoryError) -> [Person] {
        try await identifiedPeople(orderedBy: arrangement).map(\.person)
    }

    /// `people(orderedBy:)` with each one's id (an export writing managers).
    func identifiedPeople(orderedBy arrangement: PeopleArrangement) async throws(RepositoryError) -> [(id: PersonID, person: Person)] {
        var ordered: [PersonID] = []
        if marked.count <= 16 {
            var placed: [(PersonID, Int)] = []
            for id in marked { placed.append((id, try await repository.position(of: id, in: arrangement) ?? Int.max)) }
            ordered = placed.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
        } else {
            ordered = try await Self.ids(in: arrangement, repository: repository).filter { marked.contains($0) }
            let inArrangement = Set(ordered)
            ordered += marked.subtracting(inArrangement).sorted()
        }
        var people: [(id: PersonID, person: Person)] = []
        people.reserveCapacity(ordered.count)
        for id in ordered { people.append((id, try await repository.person(id))) }
        return people
    }
}
