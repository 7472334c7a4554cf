extension ImportChanges {
    /// Reads the one row of `PeopleTable.changesQuery`.
    init(_ rows: [SQLRow]) throws(DatabaseError) {
        guard let row = rows.first else { throw DatabaseError(.failed, "the import's changes could not be counted") }
        self.init(added: Int(row.int(0) ?? 0), updated: Int(row.int(1) ?? 0), unchanged: Int(row.int(2) ?? 0))
    }
}

extension PeopleTable {
    /// One row, before the merge: of the staged people (the last row of
    /// each key, as the merge keeps), how many the table does not have,
    /// has with some other value, and has exactly so (every column equal,
    /// missing values alike; where it stands in the file aside).
    func changesQuery(from staging: String) -> String {
        let equal = sameValues("s", "t")
        return """
        WITH latest AS (SELECT person_key, max(position) AS position FROM \(staging) GROUP BY person_key), \
        staged AS (SELECT s.* FROM \(staging) s JOIN latest l ON l.person_key = s.person_key AND l.position = s.position) \
        SELECT coalesce(sum(CASE WHEN t.person_key IS NULL THEN 1 ELSE 0 END), 0), \
        coalesce(sum(CASE WHEN t.person_key IS NOT NULL AND NOT (\(equal)) THEN 1 ELSE 0 END), 0), \
        coalesce(sum(CASE WHEN t.person_key IS NOT NULL AND (\(equal)) THEN 1 ELSE 0 END), 0) \
        FROM staged s LEFT JOIN \(table) t ON t.person_key = s.person_key
        """
    }
}
