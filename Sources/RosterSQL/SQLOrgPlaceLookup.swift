import RosterCore

/// Where one person of a people table stands, read from the table's keys
/// rather than from everyone's chart, so that the person's screen on ten
/// million rows shows their chain and team in a few statements:
///
/// - the person's row by `_id` (the primary key);
/// - each manager up the chain found as `SQLOrgTerms` finds a reference
///   (by `_id` on the primary key, else by email, else by full name; two
///   people with it: ambiguous, said and not guessed);
/// - the direct reports, and everyone under them, as `reports-to:` and
///   `under:` find them (the manager column's index).
///
/// A loop of managers is told as a file's chart tells it: each of its
/// people is at the top, "in a loop of managers". A reference that names
/// the person by email or name costs a pass over the table per level (an
/// `_id`, HR's usual reference, costs none), as for `under:`. A manager
/// named by a full name two people share is ambiguous up the chain, as in
/// the chart, but each of the two lists the report, as `reports-to:`
/// does: telling that a name is shared would cost a pass over the table.
struct SQLOrgPlaceLookup: OrgPlaceLookup {
    let repository: SQLPeopleRepository
    /// The most people an organisation is counted to, level by level.
    var organisationCounted = 20_000

    private var table: PeopleTable { repository.table }

    func place(ofRecord recordID: String) throws(RepositoryError) -> OrgPlace? {
        do {
            return try repository.searching.sync { session throws(DatabaseError) in try place(of: recordID, session.rows) }
        } catch {
            throw repository.report(error)
        }
    }

    /// Counted level by level, a few hundred managers' reports a statement
    /// on the manager column's index, so that a search typed meanwhile
    /// waits little; nil past `organisationCounted` people (the chart
    /// counts a big organisation: reading everyone is then the cheaper).
    func organisationSize(ofRecord recordID: String) throws(RepositoryError) -> Int? {
        do {
            let start = try repository.searching.sync { session throws(DatabaseError) -> (person: Row, above: [Row])? in
                guard let person = try person(recordID, session.rows) else { return nil }
                return (person, try chain(above: person, session.rows).met)
            }
            guard let (person, above) = start else { return 0 }
            // As `under:` and the chart: nobody above the person is under them (a loop).
            var met = Set<Int>(above.map { $0.rowID })
            met.insert(person.rowID)
            var level = [person]
            var count = 0
            while !level.isEmpty {
                var next: [Row] = []
                for managers in stride(from: 0, to: level.count, by: Self.managersAStatement) {
                    let reports = try repository.searching.sync { session throws(DatabaseError) in
                        try self.reports(of: level[managers..<min(managers + Self.managersAStatement, level.count)], session.rows)
                    }
                    next += reports.filter { met.insert($0.rowID).inserted }
                    guard count + next.count <= organisationCounted else { return nil }
                }
                count += next.count
                level = next
            }
            return count
        } catch {
            throw repository.report(error)
        }
    }

    /// How many managers' reports one statement of the count finds.
    static let managersAStatement = 250

    typealias Rows = (String, [SQLValue]) throws(DatabaseError) -> [SQLRow]

    /// One person as the place names them.
    private struct Row {
        let rowID: Int
        /// The record's `_id`.
        let id: String
        let name: String
        let email: String
        let manager: String?

        /// The columns of `Row.init`, in its order.
        static func columns(_ table: PeopleTable) -> String {
            let texts = [TextField.firstName, .lastName, .email, .id].map { PeopleTable.column(of: $0) }
            return ([table.dialect.rowID] + texts + [PeopleTable.managerColumnName]).joined(separator: ", ")
        }

        init(_ row: SQLRow) {
            rowID = Int(row.int(0) ?? 0)
            let (first, last) = (row.text(1) ?? "", row.text(2) ?? "")
            name = first.isEmpty ? last : last.isEmpty ? first : first + " " + last
            email = row.text(3) ?? ""
            id = row.text(4) ?? ""
            let manager = row.text(5) ?? ""
            self.manager = manager.allSatisfy(\.isWhitespace) ? nil : manager
        }

        var named: OrgPlace.Named { OrgPlace.Named(person: rowID, name: OrgPlace.shownName(name)) }
    }

    /// The person whose record's `_id` is `recordID`, on the primary key.
    private func person(_ recordID: String, _ rows: Rows) throws(DatabaseError) -> Row? {
        guard !recordID.isEmpty else { return nil }
        let mine = "SELECT \(Row.columns(table)) FROM \(table.table) "
            + "WHERE person_key = \(placeholder) AND \(PeopleTable.column(of: .id)) = \(placeholder)"
        return try rows(mine, [.text(recordID)]).first.map(Row.init)
    }

    /// Everyone whose manager reference names one of `managers` as
    /// `reports-to:` finds them: as written, their `_id`, their email (as
    /// stored or lowercased) or their full name as the table spells it.
    private func reports(of managers: ArraySlice<Row>, _ rows: Rows) throws(DatabaseError) -> [Row] {
        var statement = SQLStatement(table.dialect)
        let references = Set(managers.flatMap { [$0.id, $0.email, $0.email.lowercased(), $0.name] }).filter { !$0.isEmpty }
        guard !references.isEmpty else { return [] }
        let list = references.map { statement.bind(.text($0)) }.joined(separator: ", ")
        let sql = "SELECT \(Row.columns(table)) FROM \(table.table) WHERE \(PeopleTable.managerColumnName) IN (\(list))"
        return try rows(sql, statement.values).map(Row.init)
    }

    private func place(of recordID: String, _ rows: Rows) throws(DatabaseError) -> OrgPlace? {
        guard let person = try person(recordID, rows) else { return nil }
        let (chain, problem, _) = try chain(above: person, rows)
        let (count, listed) = try reports(of: recordID, rows)
        var place = OrgPlace(manager: chain.first.map { OrgPlace.shownLabel(name: $0.name, email: $0.email) },
                             problem: chain.isEmpty ? problem : nil, reports: count, organisation: count == 0 ? 0 : nil)
        place.isCountingOrganisation = count > 0
        place.chain = chain.map(\.named)
        place.chainProblem = chain.isEmpty ? nil : problem
        place.directReports = listed.map(\.named).sorted { $0.name.lowercased() < $1.name.lowercased() }
        return place
    }

    /// The person's managers as the chart shows them, the direct one
    /// first, up to the top; why the last of them (the person, when there
    /// are none) has no manager, in the chart's words (nil: at the head of
    /// an organisation); and everyone the walk up met, a loop's people
    /// included (none of them is under the person).
    private func chain(above person: Row, _ rows: Rows) throws(DatabaseError)
        -> (shown: [Row], problem: String?, met: [Row]) {
        var chain: [Row] = []
        /// Each manager met, by row id: where they are in `chain`.
        var met: [Int: Int] = [:]
        var reference = person.manager
        while let next = reference {
            let manager: Row
            switch try find(next, rows) {
            case .person(let found): manager = found
            case .missing: return (chain, OrgPlace.managerNotHere(next), chain)
            case .ambiguous(let people): return (chain, OrgPlace.managerAmbiguous(next, people: people), chain)
            }
            // Back at the person: they are in a loop, and so at the top, as in a file's chart.
            if manager.rowID == person.rowID {
                return ([], (chain.isEmpty ? OrgRootReason.selfReference : .inCycle).problem, chain)
            }
            // A loop above them: its first person met is at the top.
            if let index = met[manager.rowID] { return (Array(chain.prefix(index + 1)), OrgRootReason.inCycle.problem, chain) }
            met[manager.rowID] = chain.count
            chain.append(manager)
            reference = manager.manager
        }
        return (chain, nil, chain)
    }

    private enum Found {
        case person(Row)
        case missing
        case ambiguous(people: Int)
    }

    /// The person `reference` names, by the first kind of identifier anybody has.
    private func find(_ reference: String, _ rows: Rows) throws(DatabaseError) -> Found {
        let terms = SQLOrgTerms(table: table)
        for (kind, statement) in zip(terms.countStatements(reference), terms.findStatements(reference, columns: Row.columns(table))) {
            let found = try rows(statement.sql, statement.values)
            // Two or more: how many, as the chart says it (a rare case, worth its count).
            if found.count > 1 { return .ambiguous(people: Int(try rows(kind.sql, kind.values).first?.int(0) ?? 2)) }
            if let row = found.first { return .person(Row(row)) }
        }
        return .missing
    }

    /// How many report to the person directly, and the first
    /// `OrgPlace.reportsListed` of them by name.
    private func reports(of recordID: String, _ rows: Rows) throws(DatabaseError) -> (count: Int, listed: [Row]) {
        var statement = SQLStatement(table.dialect)
        let reportsTo = SQLOrgTerms(table: table).condition(.reportsTo, recordID, into: &statement)
        let count = Int(try rows("SELECT count(*) FROM \(table.table) WHERE \(reportsTo)", statement.values).first?.int(0) ?? 0)
        guard count > 0 else { return (0, []) }
        let listed = try rows("""
            SELECT \(Row.columns(table)) FROM \(table.table) WHERE \(reportsTo) \
            ORDER BY first_key, last_key, \(table.dialect.rowID) LIMIT \(OrgPlace.reportsListed)
            """, statement.values)
        return (count, listed.map(Row.init))
    }

    private var placeholder: String { table.dialect == .postgres ? "$1" : "?1" }
}
