import RosterCore

/// The connection as the screens rely on it: read over before `r` calls it
/// fine, and, while it is lost, whole people answered as last seen.
extension SQLPeopleRepository {
    /// Reads one row over each lane: true only when both reads just worked.
    /// One that fails is reported as any read's failure, so a connection
    /// found gone is marked lost (the title says so, the watcher reconnects).
    public func checkConnection() -> Bool {
        guard !isConnectionLost else { return false }
        do throws(DatabaseError) {
            for lane in [browse, searching] {
                _ = try lane.sync { session throws(DatabaseError) in try session.rows("SELECT 1", []) }
            }
        } catch {
            report(error)
            return false
        }
        return true
    }

    /// Whole people are read from `people` while the connection is lost
    /// (by this repository and the ones its re-reads make).
    public func keepLastSeen(_ people: any LastSeenPeople) {
        lastSeen.withLock { $0 = people }
    }

    /// What a read of whole people answers while the connection is lost:
    /// the people of `rows` (the list's rows as last fetched: nil when
    /// some were not) as last seen, in their order; else `error` again.
    func lastSeenPeople(instead error: RepositoryError, of rows: [ListedPerson]?) async throws(RepositoryError) -> [Person] {
        guard error.kind == .connectionLost, let rows, let people = lastSeen.withLock({ $0 }) else { throw error }
        var seen: [Person] = []
        for row in rows {
            guard !row.recordID.isEmpty, let person = await people.person(recordID: row.recordID) else { throw error }
            seen.append(person)
        }
        return seen
    }

    /// The company id of a stored company key.
    func companyID(key: [UInt8]) -> Int? {
        var low = 0, high = totals.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let candidate = totals[middle].companyKey
            if candidate == key { return middle }
            if candidate.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }
}
