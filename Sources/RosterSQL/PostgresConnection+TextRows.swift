import CLibpq

extension PostgresConnection {
    /// Runs one query with bound `parameters` and hands each row to `body`
    /// as libpq holds it: a column's text (`SQLColumnText`, numbers as the
    /// server writes them), with no String made; for many rows at once.
    public func forEachTextRow(_ sql: String, _ parameters: [SQLValue], _ body: (SQLColumnText) -> Void) throws(DatabaseError) {
        try run(sql, parameters, none: ()) { result in
            for row in 0..<PQntuples(result) {
                body { column, use in
                    guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column) else { return use(nil) }
                    let length = Int(PQgetlength(result, row, column))
                    value.withMemoryRebound(to: UInt8.self, capacity: length) { use(UnsafeBufferPointer(start: $0, count: length)) }
                }
            }
        }
    }
}
