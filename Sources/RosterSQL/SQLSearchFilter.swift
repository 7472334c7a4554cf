import RosterCore

/// A parsed search (`SearchQuery`) as a `WHERE` condition: every value the
/// user typed is a bound parameter, never SQL text.
///
/// Each term means exactly what `QueryReference` says it means over a
/// person: names and the company are compared with the folded keys stored
/// at import (`TextFolding`, as the file source keys them); the other text
/// fields are folded in SQL as `LatinFolding` folds them (PostgreSQL
/// `translate` with the same table; SQLite a function Roster registers);
/// phone digits are the phone's digits alone (`regexp_replace`, or a
/// registered function); numbers compare exactly; a missing field matches
/// no comparison, and `-term` keeps whoever does not match.
///
/// For speed, a text term of three or more characters first narrows by the
/// trigram index over `search_text` (which holds the folded company, names,
/// email, phone and address: a superset of what such a term can match),
/// then the exact test above decides. Shorter terms cannot use trigrams:
/// they scan `search_text` (plain `strpos`/`instr`, then the exact test on
/// the candidates), under the statement timeout, and the next keystroke
/// cancels them. Negated terms scan too (an index cannot list who lacks a
/// text), with the plain `search_text` test first.
struct SQLSearchFilter {
    let table: PeopleTable

    /// The condition for every term of `query` (`TRUE` for none); a term
    /// given twice is tested once.
    func condition(_ query: SearchQuery, into statement: inout SQLStatement) -> String {
        var seen: [(CompiledTerm.Test, Bool)] = []
        let terms = query.terms.filter { term in
            guard !seen.contains(where: { $0.0 == term.test && $0.1 == term.isNegated }) else { return false }
            seen.append((term.test, term.isNegated))
            return true
        }
        let parts = terms.map { term in
            let test = condition(term.test, negated: term.isNegated, into: &statement)
            return term.isNegated ? "(\(test)) IS NOT TRUE" : "(\(test))"
        }
        return parts.isEmpty ? "1 = 1" : parts.joined(separator: " AND ")
    }

    private var dialect: PeopleTable.Dialect { table.dialect }

    private func condition(_ test: CompiledTerm.Test, negated: Bool, into statement: inout SQLStatement) -> String {
        switch test {
        case .active(let wanted):
            return "is_active = \(statement.bind(.bool(wanted)))"
        case .number(.balance, let range):
            return "balance_cents BETWEEN \(statement.bind(.int(range.lowerBound))) AND \(statement.bind(.int(range.upperBound)))"
        case .number(.age, let range):
            // The age column is 32 bits in PostgreSQL: a wider bound is
            // the same as the widest 32-bit one, and a range beyond it
            // holds no age at all.
            let ages = Int64(Int32.min)...Int64(Int32.max)
            guard range.overlaps(ages) else { return "age IS NOT NULL AND 1 = 0" }
            let clamped = range.clamped(to: ages)
            return "age BETWEEN \(statement.bind(.int(clamped.lowerBound))) AND \(statement.bind(.int(clamped.upperBound)))"
        case .unrecorded(.age): return "age IS NULL"
        case .unrecorded(.balance): return "balance_cents IS NULL"
        case .unrecorded(.active): return "is_active IS NULL"
        case .orgChart(.org(let relation, let reference)):
            return SQLOrgTerms(table: table).condition(relation, reference, into: &statement)
        case .orgChart(.depth(let comparison)):
            // The rows the chart places there, whose depths `search` keeps first (`SQLDepthSets`).
            return SQLDepthSets.condition(comparison, table)
        case .orgChart, .people:
            return "1 = 0"
        case .exact(let scope, let needle):
            return wholeValueCondition(scope, needle: needle, into: &statement)
        case .text(let scope, let needle, _, let digits):
            let exact = textCondition(scope, needle: needle, digits: digits, into: &statement)
            let narrowing = negated ? screen(scope, needle: needle, digits: digits, into: &statement)
                                    : trigramCondition(scope, needle: needle, digits: digits, into: &statement)
            guard let narrowing else { return exact }
            return "\(narrowing) AND (\(exact))"
        }
    }

    /// The exact test of a text term.
    private func textCondition(_ scope: TextScope, needle: [UInt8], digits: [UInt8]?, into statement: inout SQLStatement) -> String {
        func key(_ expression: String) -> String {
            contains(expression, statement.bind(dialect == .postgres ? .bytes(needle) : .text(text(needle))), bytes: true)
        }
        func folded(_ column: String) -> String {
            contains(dialect.latinFolded(column), statement.bind(.text(text(needle))), bytes: false)
        }
        func phoneDigits() -> String? {
            digits.map { contains(dialect.phoneDigits("phone"), statement.bind(.text(text($0))), bytes: false) }
        }
        let name = dialect == .postgres ? "first_key || '\\x20'::bytea || last_key" : "first_key || ' ' || last_key"
        switch scope {
        case .anywhere:
            return TextScope.bareTermScopes.map { textCondition($0, needle: needle, digits: digits, into: &statement) }
                .joined(separator: " OR ")
        case .name: return key(name)
        case .firstName: return key("first_key")
        case .lastName: return key("last_key")
        case .company: return key("company_key")
        case .phone: return ([folded("phone")] + [phoneDigits()].compactMap { $0 }).joined(separator: " OR ")
        case .street, .city, .state, .zip:
            let part = contains(dialect.latinFolded(dialect.addressPart(scope)), statement.bind(.text(text(needle))), bytes: false)
            return part
        default: return folded(Self.column(of: scope))
        }
    }

    /// `field=value`: the whole field, folded as the file source folds it
    /// (`QueryCondition.exactNeedle`), equals the needle; an empty needle
    /// asks for no value (an empty or missing field, no company). Names and
    /// the company compare their stored keys as bytes (the company on the
    /// browse index's first column); a name is its non-empty parts, first
    /// then last, with a space between.
    private func wholeValueCondition(_ scope: TextScope, needle: [UInt8], into statement: inout SQLStatement) -> String {
        func key(_ expression: String, _ value: [UInt8]) -> String {
            "\(expression) = \(statement.bind(.bytes(value)))"
        }
        func folded(_ expression: String) -> String {
            // A missing address part is NULL in PostgreSQL: no value.
            "coalesce(\(dialect.latinFolded(expression)), '') = \(statement.bind(.text(text(needle))))"
        }
        let name = dialect.nameKey
        switch scope {
        case .anywhere:
            return TextScope.bareTermScopes.map { wholeValueCondition($0, needle: needle, into: &statement) }.joined(separator: " OR ")
        case .name: return key(name, needle)
        case .firstName: return key("first_key", needle)
        case .lastName: return key("last_key", needle)
        case .company: return key("company_key", needle.isEmpty ? ImportRows.noCompanyKey : needle)
        case .street, .city, .state, .zip: return folded(dialect.addressPart(scope))
        default: return folded(Self.column(of: scope))
        }
    }

    /// The column of a field compared whole as the record has it (email,
    /// eye colour, `_id`…): `TextScope.recordField`'s.
    private static func column(of scope: TextScope) -> String {
        guard let field = scope.recordField else { preconditionFailure("\(scope) is not a field of the record") }
        return PeopleTable.column(of: field)
    }

    /// A negated term's cheap first test: one plain scan of `search_text`
    /// (a superset of what the term can match), so that the exact test,
    /// which folds several columns in SQL, runs only for the rows that may
    /// match: 256 negated terms over every row stay fast. Nil when the
    /// term may match outside it (phone digits, the other fields).
    private func screen(_ scope: TextScope, needle: [UInt8], digits: [UInt8]?, into statement: inout SQLStatement) -> String? {
        switch scope {
        case .anywhere, .phone: guard digits == nil else { return nil }
        case .name, .firstName, .lastName, .company, .email, .address: break
        default: return nil
        }
        return contains("search_text", statement.bind(.text(text(needle))), bytes: false)
    }

    /// The index's narrowing for a term that only matches inside
    /// `search_text` (and phone digits), when it is long enough for trigrams.
    private func trigramCondition(_ scope: TextScope, needle: [UInt8], digits: [UInt8]?, into statement: inout SQLStatement) -> String? {
        switch scope {
        case .anywhere, .name, .firstName, .lastName, .company, .email, .phone, .address: break
        default: return nil
        }
        guard text(needle).count >= 3 else {
            // Too short for trigrams: still, one plain scan of `search_text`
            // leaves the exact test (folding in SQL) only the candidates.
            return contains("search_text", statement.bind(.text(text(needle))), bytes: false)
        }
        let phoneDigits = scope == .anywhere || scope == .phone ? digits : nil
        switch dialect {
        case .postgres:
            let pattern = "search_text LIKE \(statement.bind(.text(SQLText.containsPattern(text(needle)))))"
            guard let phoneDigits else { return pattern }
            let digitsPattern = statement.bind(.text(SQLText.containsPattern(text(phoneDigits))))
            return "(\(pattern) OR \(dialect.phoneDigits("phone")) LIKE \(digitsPattern))"
        case .sqlite:
            // FTS5 cannot narrow by the digits: such a term scans.
            guard phoneDigits == nil else { return nil }
            let match = statement.bind(.text(SQLText.ftsPhrase(text(needle))))
            return "rowid IN (SELECT rowid FROM \(table.searchTable) WHERE \(table.searchTable) MATCH \(match))"
        }
    }

    private func contains(_ haystack: String, _ needle: String, bytes: Bool) -> String {
        switch dialect {
        case .postgres: return bytes ? "position(\(needle) in \(haystack)) > 0" : "strpos(\(haystack), \(needle)) > 0"
        case .sqlite: return "instr(\(haystack), \(needle)) > 0"
        }
    }

    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension PeopleTable.Dialect {
    /// `column`'s text folded as `LatinFolding` folds it.
    func latinFolded(_ column: String) -> String {
        switch self {
        case .postgres:
            // `lower` under the C collation folds ASCII only; `translate`
            // then maps the accented letters, but it compares every
            // character with all of them (14 times slower over 100,000
            // emails, measured), so text that is all ASCII skips it.
            let lowered = "lower((\(column)) COLLATE \"C\")"
            return "(CASE WHEN octet_length(\(column)) = char_length(\(column)) THEN \(lowered) "
                + "ELSE translate(\(lowered), '\(LatinFoldingTable.from)', '\(LatinFoldingTable.to)') END)"
        case .sqlite: return "\(SQLiteSearchFunctions.fold)(\(column))"
        }
    }

    /// The digits of `column`, nothing else.
    func phoneDigits(_ column: String) -> String {
        switch self {
        case .postgres: return "regexp_replace(\(column), '[^0-9]+', '', 'g')"
        case .sqlite: return "\(SQLiteSearchFunctions.digits)(\(column))"
        }
    }

    /// One part of the address, as `QueryCondition.addressParts` cuts it:
    /// from the end, the last comma-separated part is the zip, then the
    /// state, then the city; with fewer parts they fill from the front.
    func addressPart(_ scope: TextScope) -> String {
        let index: Int
        switch scope {
        case .street: index = 0
        case .city: index = 1
        case .state: index = 2
        default: index = 3
        }
        switch self {
        case .sqlite:
            return "\(SQLiteSearchFunctions.addressPart)(address, \(index))"
        case .postgres:
            let parts = "string_to_array(address, ',')"
            let count = "cardinality(\(parts))"
            let part: String
            switch index {
            case 0: part = "CASE WHEN \(count) <= 3 THEN (\(parts))[1] ELSE array_to_string((\(parts))[1:\(count) - 3], ',') END"
            case 1: part = "CASE WHEN \(count) IN (2, 3) THEN (\(parts))[2] WHEN \(count) >= 4 THEN (\(parts))[\(count) - 2] END"
            case 2: part = "CASE WHEN \(count) = 3 THEN (\(parts))[3] WHEN \(count) >= 4 THEN (\(parts))[\(count) - 1] END"
            default: part = "CASE WHEN \(count) >= 4 THEN (\(parts))[\(count)] END"
            }
            return "btrim(\(part), ' ')"
        }
    }
}

/// `LatinFolding`'s map of the accented Latin letters as the two strings
/// of PostgreSQL's `translate` (A–Z are `lower`'s).
enum LatinFoldingTable {
    static let (from, to): (String, String) = {
        var from = "", to = ""
        for value in UInt32(0xC0)...0x17F {
            guard let scalar = Unicode.Scalar(value) else { continue }
            var folded: [UInt8] = []
            Array(String(scalar).utf8).withUnsafeBufferPointer { LatinFolding.fold($0, into: &folded) }
            let text = String(decoding: folded, as: UTF8.self)
            guard text.unicodeScalars.count == 1, text != String(scalar) else { continue }
            from.unicodeScalars.append(scalar)
            to += text
        }
        return (from, to)
    }()
}

/// The functions Roster registers on an SQLite connection, so that SQLite
/// folds and cuts text exactly as the file source does.
enum SQLiteSearchFunctions {
    static let fold = "roster_fold"
    static let digits = "roster_digits"
    static let addressPart = "roster_address_part"

    static func register(on connection: SQLiteConnection) throws(DatabaseError) {
        try connection.registerFunction(fold, arity: 1) { arguments in
            guard let text = arguments[0] else { return nil }
            var folded: [UInt8] = []
            Array(text.utf8).withUnsafeBufferPointer { LatinFolding.fold($0, into: &folded) }
            return String(decoding: folded, as: UTF8.self)
        }
        try connection.registerFunction(digits, arity: 1) { arguments in
            arguments[0].map { String(decoding: $0.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }, as: UTF8.self) }
        }
        try connection.registerFunction(addressPart, arity: 2) { arguments in
            guard let address = arguments[0], let index = arguments[1].flatMap({ Int($0) }) else { return nil }
            return AddressPart.text(min(max(index, 0), 3), of: address)
        }
    }
}
