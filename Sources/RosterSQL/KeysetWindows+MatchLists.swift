import RosterCore

/// Searches and unindexed orders listed once as row ids, whose windows
/// are then lookups by id.
extension KeysetWindows {
    /// A small search's row ids in display order: listed once (one query
    /// the trigram index serves, then a sort of the few matches). An order
    /// no index serves is listed whole, whatever its size: one sort of the
    /// rows shown, then every window and jump is a lookup by row id.
    ///
    /// A bulk read of a search (`isBulk`) lists its matches whatever their
    /// number: each window of a large search is a query of its own, which
    /// the planner, misled by many terms into expecting few matches, may
    /// run as a scan of the whole table (`--list` of 100,000 people under
    /// 32 negated terms: 10.7 s by windows, 3.9 s listed once).
    func matchList(_ arrangement: PeopleArrangement, handle: SQLPeopleRepository.Handle,
                   repository: SQLPeopleRepository, isBulk: Bool = false) throws(DatabaseError) -> [Int64]? {
        let isSearch = !(handle.query?.terms.isEmpty ?? true)
        let isSmallSearch = isSearch && arrangement.count <= listsMatchesUpTo.load(ordering: .relaxed)
        guard isSmallSearch || (isSearch && isBulk) || !handle.order.isIndexed else { return nil }
        guard arrangement.count > 0 else { return [] }
        if let ids = matchLists.withLock({ lists in lists.first { $0.arrangement == handle.id }?.ids }) { return ids }
        var statement = SQLStatement(table.dialect)
        let shown = condition(scope: handle.scope, query: handle.query, companies: repository.totals, into: &statement)
        let order = handle.order.orderBy(grouped: handle.grouped)
        let rowID = table.dialect.rowID
        let sql: String
        if let text = handle.order.text {
            // The text worked out once a row (an address part is a long
            // expression), then sorted: materialised, so it is not inlined
            // into each of the order's terms.
            sql = """
            WITH shown AS MATERIALIZED (SELECT \(rowID) AS row_key, company_key, last_key, first_key, position, \
            \(text) AS \(SQLOrder.sortText) FROM \(table.table) WHERE \(shown)) SELECT row_key FROM shown ORDER BY \(order)
            """
        } else {
            sql = "SELECT \(rowID) FROM \(table.table) WHERE \(shown) ORDER BY \(order)"
        }
        let ids = try repository.browse.sync { session throws(DatabaseError) in try session.rows(sql, statement.values) }
            .compactMap { $0.int(0) }
        matchLists.withLock { lists in
            lists.append((handle.id, ids))
            if lists.count > Self.maximumMatchLists { lists.removeFirst() }
        }
        return ids
    }

    /// The rows of `ids`, in that order, as `fetch` returns them but for
    /// the order's key (a listed arrangement seeks by position, not by key,
    /// and a text order's key is worked out again for every row read).
    func rows(ids: [Int64], handle: SQLPeopleRepository.Handle, payload: String,
                      repository: SQLPeopleRepository) throws(DatabaseError) -> [SQLRow] {
        guard !ids.isEmpty else { return [] }
        var statement = SQLStatement(table.dialect)
        let list = ids.map(String.init).joined(separator: ",")
        let rowID = table.dialect.rowID
        let wanted = table.dialect == .postgres
            ? "\(rowID) = ANY(\(statement.bind(.text("{" + list + "}")))::bigint[])"
            : "\(rowID) IN (SELECT value FROM json_each(\(statement.bind(.text("[" + list + "]")))))"
        let sql = """
        SELECT \(rowID), company_key, \(payload) FROM \(table.table) WHERE \(wanted)
        """
        let found = try repository.browse.sync { session throws(DatabaseError) in try session.rows(sql, statement.values) }
        let byID = Dictionary(found.map { ($0.int(0) ?? -1, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }
}
