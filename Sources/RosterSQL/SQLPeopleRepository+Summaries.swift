import RosterCore

/// The overview's and the counts' figures: the company summary table for
/// everyone, one `GROUP BY` over the people a search shows.
extension SQLPeopleRepository {
    public func companySummaries(in arrangement: PeopleArrangement) async throws(RepositoryError) -> [CompanySummary] {
        try await offCaller { () throws(RepositoryError) in try self.companySummariesNow(in: arrangement) }
    }

    private func companySummariesNow(in arrangement: PeopleArrangement) throws(RepositoryError) -> [CompanySummary] {
        let arranged = handle(of: arrangement)
        guard let query = arranged.query, !query.terms.isEmpty else {
            // The summary read when the table was opened: no statement.
            switch arranged.scope {
            case .everyone: return companies.indices.compactMap { summary(of: $0, totals[$0]) }
            case .company(let id): return totals.indices.contains(id) ? [summary(of: id, totals[id])].compactMap { $0 } : []
            case .nobody: return []
            }
        }
        var figures: [Int: CompanyTotals] = [:]
        do {
            var statement = SQLStatement(table.dialect)
            let condition = windows.condition(scope: arranged.scope, query: query, companies: totals, into: &statement)
            let rows = try browse.sync { session throws(DatabaseError) in
                try session.rows(table.totalsQuery(where: condition), statement.values)
            }
            figures.reserveCapacity(rows.count)
            for row in rows {
                guard let company = CompanyTotals(totalsRow: row, spelling: ""), let id = companyID(key: company.companyKey) else { continue }
                figures[id] = company
            }
            statementWorked()
        } catch {
            throw report(error)
        }
        return companies.indices.compactMap { id in figures[id].flatMap { summary(of: id, $0) } }
    }

    /// Company `id`'s line in the overview; nil when nobody counted is in it.
    private func summary(of id: Int, _ company: CompanyTotals) -> CompanySummary? {
        guard company.headcount > 0 else { return nil }
        return CompanySummary(companyID: id, title: title(of: id), headcount: Int(company.headcount), active: Int(company.active),
                              totalCents: company.totalCents, balances: Int(company.balances), ages: Int(company.ages),
                              ageSum: Int(company.ageSum))
    }

    /// Counts by `field` among the people shown: one `GROUP BY` over them
    /// (companies: the overview's figures, from the summary table).
    public func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) async throws(RepositoryError)
        -> [ValueSummary] {
        try await offCaller { () throws(RepositoryError) in try self.valueSummariesNow(of: field, in: arrangement) }
    }

    private func valueSummariesNow(of field: SummaryField, in arrangement: PeopleArrangement) throws(RepositoryError) -> [ValueSummary] {
        guard field != .company else { return try companySummariesNow(in: arrangement).map(ValueSummary.init) }
        let arranged = handle(of: arrangement)
        let counting = SQLValueSummaries(table: table)
        do {
            var statement = SQLStatement(table.dialect)
            let condition = windows.condition(scope: arranged.scope, query: arranged.query, companies: totals, into: &statement)
            let sql = counting.query(field, where: condition)
            let rows = try browse.sync { session throws(DatabaseError) in try session.rows(sql, statement.values) }
            statementWorked()
            return counting.summaries(field, rows: rows)
        } catch {
            throw report(error)
        }
    }
}
