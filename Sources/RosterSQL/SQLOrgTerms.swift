import Foundation
import RosterCore

/// `reports-to:X` and `under:X` over a people table, answered in SQL
/// rather than by reading everyone's chart: X is found as a file finds it
/// (`PersonReferenceIndex`: by `_id`, else by email, else by full name; the
/// first kind anybody has decides), then the rows whose `manager` names
/// that person, and for `under:` theirs in turn (`WITH RECURSIVE`).
///
/// A manager reference names a person when it is, as written, their `_id`,
/// their email (as stored or lowercased) or their full name as the table
/// spells it: compared on the manager column's index, so that each level
/// of `under:` is a lookup per person, never a pass over everyone. (A
/// file's chart also matches a reference in another case, with other
/// accents or spacing, and a DN in another spelling; folding the column
/// per row would cost a pass over the table per person of the answer.)
/// The recursion is a `UNION` of whole rows, each one person's: a loop
/// (A reports to B reports to A) adds nobody twice, so it ends. As in a
/// file's chart, the people of a loop are each at the top: X's chain up
/// (`org_above`) is walked too, and whoever is both above and under X is
/// left out with their reports. That walk finds a manager named by `_id`
/// on the primary key; one named by email or name costs a pass over the
/// table (neither is indexed) per level above X.
struct SQLOrgTerms {
    let table: PeopleTable

    private var dialect: PeopleTable.Dialect { table.dialect }
    private static let id = PeopleTable.column(of: .id)
    private static let email = PeopleTable.column(of: .email)
    private static let first = PeopleTable.column(of: .firstName)
    private static let last = PeopleTable.column(of: .lastName)

    /// The reference as each kind of identifier compares it: the `_id`
    /// trimmed; the email's ASCII letters lowercased, less `mailto:` (nil
    /// when it has no `@`: a name is never looked for among emails); the
    /// name folded as the name keys are, one space between words.
    struct Keys {
        let id: String
        let email: String?
        let name: [UInt8]

        init(_ reference: String) {
            let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
            id = trimmed
            var lowered = String(decoding: trimmed.utf8.map(TextFolding.lowercasedASCII), as: UTF8.self)
            if lowered.hasPrefix("mailto:"), lowered.count > 7 { lowered.removeFirst(7) }
            email = lowered.contains("@") ? lowered : nil
            name = QueryCondition.exactNeedle(trimmed.split(whereSeparator: \.isWhitespace).joined(separator: " "), in: .name)
        }
    }

    /// How many people have the reference as each kind, in the order
    /// tried: one statement a kind, so that the caller stops at the first
    /// anybody has (the later ones pass over the table).
    func countStatements(_ reference: String) -> [(kind: PersonReferenceKind, sql: String, values: [SQLValue])] {
        statements(reference) { "SELECT count(*) FROM \(table.table) WHERE \($0)" }
    }

    /// The people the reference names as each kind, in the order tried:
    /// `columns` of at most two of them a statement (two: it is ambiguous).
    func findStatements(_ reference: String, columns: String) -> [(kind: PersonReferenceKind, sql: String, values: [SQLValue])] {
        statements(reference) { "SELECT \(columns) FROM \(table.table) WHERE \($0) LIMIT 2" }
    }

    private func statements(_ reference: String, _ select: (_ test: String) -> String)
        -> [(kind: PersonReferenceKind, sql: String, values: [SQLValue])] {
        kindTests(Keys(reference)).map { kind, test in
            var statement = SQLStatement(dialect)
            let sql = select(test(&statement))
            return (kind, sql, statement.values)
        }
    }

    /// Each kind's test of a row (unqualified columns), in the order tried,
    /// binding its values into the statement it is written in.
    private func kindTests(_ keys: Keys) -> [(PersonReferenceKind, (inout SQLStatement) -> String)] {
        // A row's key is its `_id` (`ImportRows`, `PeopleEditor`'s add): the
        // primary key finds it without a pass over the table.
        var tests: [(PersonReferenceKind, (inout SQLStatement) -> String)] = [(.id, { statement in
            let id = statement.bind(.text(keys.id))
            return "person_key = \(id) AND \(Self.id) = \(id)"
        })]
        if let email = keys.email {
            let lowered = dialect == .postgres ? "lower(\(Self.email) COLLATE \"C\")" : "lower(\(Self.email))"
            tests.append((.email, { "\(lowered) = \($0.bind(.text(email)))" }))
        }
        let nameKey = dialect.nameKey
        tests.append((.name, { "\(nameKey) = \($0.bind(.bytes(keys.name)))" }))
        return tests
    }

    /// The condition on a row of the search: `person_key` among X's direct
    /// reports (`reportsTo`) or everyone under X (`under`). X itself is
    /// never among them, even in a loop.
    func condition(_ relation: OrgRelation, _ reference: String, into statement: inout SQLStatement) -> String {
        // The first kind anybody has decides (`coalesce` stops there: a
        // person found by `_id` costs no pass over the table); the search
        // checked first that X is one person (`unanswered`).
        let found = kindTests(Keys(reference)).map { "(SELECT person_key FROM \(table.table) WHERE \($0.1(&statement)) LIMIT 1)" }
        let root = "SELECT \(referenced) FROM \(table.table) WHERE person_key = coalesce(\(found.joined(separator: ", ")))"
        let manager = PeopleTable.managerColumnName
        let start = [
            "org_root(person_key, ref_id, ref_email, ref_name) AS (\(root))",
            // X and everyone above X, up their chain of managers.
            "org_above(person_key, reference) AS (SELECT person_key, \(manager) FROM \(table.table) "
                + "WHERE person_key IN (SELECT person_key FROM org_root) UNION SELECT p.person_key, p.\(manager) "
                + "FROM org_above AS a JOIN \(table.table) AS p ON a.reference IS NOT NULL AND p.person_key = \(managerKey(of: "a.reference")))",
        ].joined(separator: ", ")
        // Someone above X who is also under X is in a loop with X: as in a
        // file's chart, the loop's people are each at the top, under nobody.
        let notAbove = "person_key NOT IN (SELECT person_key FROM org_above)"
        switch relation {
        case .reportsTo:
            return """
                person_key IN (WITH RECURSIVE \(start), org_reports AS (\(reports(of: "org_root"))) \
                SELECT person_key FROM org_reports WHERE \(notAbove))
                """
        case .under:
            return """
                person_key IN (WITH RECURSIVE \(start), org_under(person_key, ref_id, ref_email, ref_name) AS \
                (SELECT * FROM org_root UNION \(reports(of: "org_under")) WHERE c.\(notAbove)) \
                SELECT person_key FROM org_under WHERE person_key NOT IN (SELECT person_key FROM org_root))
                """
        }
    }

    /// The rows whose manager reference names someone of `managers` (a
    /// table of `referenced` rows), on the manager column's index.
    private func reports(of managers: String) -> String {
        "SELECT \(referenced(as: "c")) FROM \(table.table) AS c JOIN \(managers) AS m "
            + "ON c.\(PeopleTable.managerColumnName) IN (m.ref_id, m.ref_email, lower(m.ref_email), m.ref_name)"
    }

    /// The key of the person the manager reference `reference` names, seen
    /// from the manager's side of `reports`' test: by `_id` on the primary
    /// key, else (and only then: `coalesce` stops at the first) by email,
    /// else by full name, each a pass over the table.
    private func managerKey(of reference: String) -> String {
        let people = "FROM \(table.table) AS q WHERE"
        return "coalesce((SELECT q.person_key \(people) q.person_key = \(reference) AND q.\(Self.id) = \(reference)), "
            + "(SELECT q.person_key \(people) \(reference) IN (q.\(Self.email), lower(q.\(Self.email))) LIMIT 1), "
            + "(SELECT q.person_key \(people) \(reference) = \(fullName(as: "q")) LIMIT 1))"
    }

    /// A row's key and the spellings a manager reference may name them by.
    private var referenced: String { referenced(as: nil) }

    private func referenced(as alias: String?) -> String {
        let column = { (name: String) in alias.map { "\($0).\(name)" } ?? name }
        return "\(column("person_key")), \(column(Self.id)), \(column(Self.email)), \(fullName(as: alias))"
    }

    /// A row's full name as the table spells it: its non-empty names,
    /// first then last, with a space between.
    private func fullName(as alias: String?) -> String {
        let (first, last) = alias.map { ("\($0).\(Self.first)", "\($0).\(Self.last)") } ?? (Self.first, Self.last)
        return "CASE WHEN \(first) = '' THEN \(last) WHEN \(last) = '' THEN \(first) ELSE \(first) || ' ' || \(last) END"
    }
}

extension PeopleTable.Dialect {
    /// A row's full-name key: its non-empty name keys, first then last,
    /// with a space between (bytes, as `QueryCondition.exactNeedle` folds).
    var nameKey: String {
        switch self {
        case .postgres:
            return "CASE WHEN first_key = ''::bytea THEN last_key WHEN last_key = ''::bytea THEN first_key "
                + "ELSE first_key || '\\x20'::bytea || last_key END"
        case .sqlite:
            // `||` makes text in SQLite: back to bytes to compare with a blob.
            return "CASE WHEN length(first_key) = 0 THEN last_key WHEN length(last_key) = 0 THEN first_key "
                + "ELSE CAST(first_key || ' ' || last_key AS BLOB) END"
        }
    }
}
