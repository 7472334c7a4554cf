import RosterCore

/// The overview's and the counts' figures: the company summary table for
/// everyone, one `GROUP BY` over the people a search shows.
extension SQLPeopleRepository {
    public func companySummaries(in arrangement: PeopleArrangement) throws(RepositoryError) -> [CompanySummary] {
        let arranged = handle(of: arrangement)
        var figures: [Int: CompanyTotals] = [:]
        if arranged.query == nil || arranged.query?.terms.isEmpty == true {
            for id in companies.indices {
                switch arranged.scope {
                case .everyone: figures[id] = totals[id]
                case .company(let only) where only == id: figures[id] = totals[id]
                default: break
                }
            }
        } else {
            do {
                var statement = SQLStatement(table.dialect)
                let condition = windows.condition(scope: arranged.scope, query: arranged.query, companies: totals, into: &statement)
                let rows = try browse.sync { session throws(DatabaseError) in
                    try session.rows(table.totalsQuery(where: condition), statement.values)
                }
                for row in rows {
                    guard let company = CompanyTotals(totalsRow: row, spelling: ""), let id = companyID(key: company.companyKey) else { continue }
                    figures[id] = company
                }
                statementWorked()
            } catch {
                throw report(error)
            }
        }
        return companies.indices.compactMap { id -> CompanySummary? in
            guard let company = figures[id], company.headcount > 0 else { return nil }
            return CompanySummary(companyID: id, title: title(of: id), headcount: Int(company.headcount), active: Int(company.active),
                                  totalCents: company.totalCents, balances: Int(company.balances), ages: Int(company.ages),
                                  ageSum: Int(company.ageSum))
        }
    }

    /// Counts by `field` among the people shown: one `GROUP BY` over them
    /// (companies: the overview's figures, from the summary table).
    public func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) throws(RepositoryError) -> [ValueSummary] {
        guard field != .company else { return try companySummaries(in: arrangement).map(ValueSummary.init) }
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
