import RosterCore

extension PeopleRepository {
    /// Everyone in `arrangement`, whole, in one read (a test's few people).
    public func allPeople(in arrangement: PeopleArrangement) async throws(RepositoryError) -> [Person] {
        try await people(in: arrangement, positions: 0..<arrangement.count)
    }
}

extension ReadingAtOnce {
    /// Everyone in `arrangement`, whole, read at once (a source in memory).
    public func everyoneAtOnce(in arrangement: PeopleArrangement) -> [Person] {
        rowsAtOnce(in: arrangement, positions: 0..<arrangement.count).compactMap { personAtOnce($0.id) }
    }
}
