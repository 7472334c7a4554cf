import RosterCore

extension SQLPeopleRepository {
    /// Checks a search's org chart terms before it runs (`SQLOrgTerms`
    /// answers them in its statement); one line says why when they cannot
    /// be answered, in a file's words, rather than an answer of nobody.
    func checkOrgTerms(_ query: SearchQuery) async throws(RepositoryError) {
        let unanswered: String?
        do {
            unanswered = try await searching.run { [table, sourceName] session throws(DatabaseError) -> String? in
                try SQLOrgTerms(table: table).unanswered(query, sourceName: sourceName, session.rows)
            }
        } catch let error as DatabaseError {
            throw report(error)
        } catch {
            throw .cancelled  // the lane's CancellationError: its task was cancelled
        }
        if let unanswered { throw RepositoryError(.unreadable, reason: unanswered) }
    }

    /// Said for an org chart term, or the chart, of a table an earlier
    /// Roster made without the manager column.
    static func noManagerColumn(_ table: String) -> String {
        "Table \(DisplayText.sanitized(table)) has no manager column (an earlier Roster made it): "
            + "import the file again to fill it, or edit someone's manager."
    }
}

extension SQLOrgTerms {
    /// Why `query`'s org chart terms cannot be answered, or nil when they
    /// can: the table has no manager column, or a `reports-to:X` or
    /// `under:X` names nobody or several people.
    func unanswered(_ query: SearchQuery, sourceName: String,
                    _ rows: (String, [SQLValue]) throws(DatabaseError) -> [SQLRow]) throws(DatabaseError) -> String? {
        var references: [(OrgRelation, String)] = []
        var asksDepth = false
        for term in query.terms {
            switch term.test {
            case .orgChart(.org(let relation, let reference)): references.append((relation, reference))
            case .orgChart: asksDepth = true  // answered by the chart (`SQLDepthSets`)
            default: continue
            }
        }
        guard !references.isEmpty || asksDepth else { return nil }
        guard try table.hasManagerColumn(rows) else { return SQLPeopleRepository.noManagerColumn(table.name) }
        for (relation, reference) in references {
            var match = PersonReferenceMatch.missing
            for count in countStatements(reference) {
                let people = try rows(count.sql, count.values).first?.int(0) ?? 0
                guard people > 0 else { continue }
                match = people == 1 ? .found(0) : .ambiguous(people: Int(people), by: count.kind)
                break
            }
            if let said = OrgQueryChart.unfound(match, reference: reference, by: relation) { return said }
        }
        return nil
    }
}
