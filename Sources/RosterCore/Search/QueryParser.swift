/// Reads the search language: terms separated by spaces, all of which must
/// match (see `QueryGrammar` for the whole of it, as the help shows it).
///
///     abbott beta           two plain terms
///     "two words"           a phrase
///     company:acme          a field term (names ignore case; aliases below)
///     company:"two words"   a field phrase
///     state=Kansas          the whole value (not Arkansas); city= none
///     age>40  age:30-39  balance<$1,000.50  active:no
///     -term  -company:acme  excluded
///     reports-to:ada@example.org  under:"Ada Lovelace"  depth>2
///                           the org chart (answered by the source's chart)
///
/// A field is letters followed by `:`, `=`, `<`, `<=`, `>` or `>=`; a word
/// that does not start that way is plain text (`10:30`, `@acme.`). An
/// unknown field, a bad number or an empty value after `:`, `<` or `>` is
/// an error that says where, never a query that silently matches nothing;
/// after `=` an empty value (`city=`, `city=""`) asks for people without one. A quote left open
/// runs to the end (so a phrase being typed already searches).
///
/// A query holds at most `maximumTerms` (256) terms, whichever source is
/// searched: a file answers thousands, but a database's statement has
/// limits of its own (SQLite's expression depth, PostgreSQL's parameters),
/// so every source says the same one line instead of answering some.
public enum QueryParser {
    /// The most terms one query may hold.
    public static let maximumTerms = 256

    public static func parse(_ text: String) throws(QueryError) -> PeopleQuery {
        var reader = Reader(Array(text))
        var terms: [QueryTerm] = []
        while let term = try reader.nextTerm() {
            guard terms.count < maximumTerms else {
                throw QueryError("a search holds at most \(maximumTerms) terms", at: term.range)
            }
            terms.append(term)
        }
        return PeopleQuery(terms: terms)
    }

    /// Field names as typed (lowercased) → what they search.
    static let fields: [String: Field] = {
        var table: [String: Field] = [:]
        for (names, field) in fieldNames {
            for name in names { table[folded(fieldName: name)] = field }
        }
        return table
    }()

    /// Every field with its aliases, the first being the name help shows.
    /// The text fields' own names come from `TextField.queryNames`: the
    /// name and the contacts, the address's parts, every other field, the
    /// two ids; then the figures.
    static let fieldNames: [([String], Field)] = {
        let named = TextField.allCases.filter { !$0.queryNames.isEmpty }
        let ids: [TextField] = [.id, .guid]
        let others = named.filter { !TextField.leading.contains($0) && !ids.contains($0) }
        func text(_ fields: [TextField]) -> [([String], Field)] {
            fields.map { field in (field.queryNames, .text(TextScope(field: field))) }
        }
        return [(["name"], .text(.name))] + text(TextField.leading)
            + [(["street"], .text(.street)), (["city"], .text(.city)), (["state"], .text(.state)), (["zip"], .text(.zip))]
            + text(others) + text(ids)
            + [(["age"], .number(.age)), (["balance"], .number(.balance)), (["active", "isactive"], .active)]
            + [(["reports-to", "reportsto"], .org(.reportsTo)), (["under"], .org(.under)), (["depth"], .depth)]
    }()

    /// A field name as the tables spell it: lowercased, `-` and `_` left
    /// out (`Eye-Color` is `eyecolor`).
    static func folded(fieldName name: String) -> String {
        String(name.lowercased().filter { $0 != "-" && $0 != "_" })
    }

    /// The field a mistyped name most likely meant (`agee` → `age`): the
    /// nearest name one edit away (a letter added, dropped, changed, or two
    /// swapped), two for names longer than four letters; nil when none is.
    static func nearestFieldName(to name: String) -> String? {
        EditDistance.nearest(to: name, among: fieldNames.map(\.0))
    }

    /// The field names, for help and error messages.
    public static var fieldList: String { fieldNames.map { $0.0[0] }.joined(separator: ", ") }

    enum Field: Equatable {
        case text(TextScope)
        case number(NumberField)
        case active
        case org(OrgRelation)
        /// Levels under the top of the org chart.
        case depth

        /// `field=` with nothing after it: the field has no value; nil for
        /// the org chart's terms, which always need one.
        var unrecorded: QueryCondition? {
            switch self {
            case .text(let scope): return .exact(scope, "")
            case .number(.age): return .unrecorded(.age)
            case .number(.balance): return .unrecorded(.balance)
            case .active: return .unrecorded(.active)
            case .org, .depth: return nil
            }
        }
    }

    enum Operator: String {
        case colon = ":", equal = "=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    private struct Reader {
        let characters: [Character]
        var index = 0

        init(_ characters: [Character]) {
            self.characters = characters
        }

        mutating func skipSpaces() {
            while index < characters.count, characters[index].isWhitespace { index += 1 }
        }

        /// The next term, nil at the end. A lone `-` (a term being typed)
        /// and a pair of empty quotes ask nothing and are skipped.
        mutating func nextTerm() throws(QueryError) -> QueryTerm? {
            while true {
                skipSpaces()
                guard index < characters.count else { return nil }
                let start = index
                var negated = false
                if characters[index] == "-" {
                    negated = true
                    index += 1
                    if index == characters.count || characters[index].isWhitespace { continue }
                }
                if let condition = try readCondition(termStart: start) {
                    return QueryTerm(condition, isNegated: negated, range: start..<index)
                }
            }
        }

        /// A field term or plain text; nil for an empty phrase.
        private mutating func readCondition(termStart: Int) throws(QueryError) -> QueryCondition? {
            let nameStart = index
            var nameEnd = index
            // Letters, and `-` or `_` between words (`eye-color:`, as `--sort` spells it).
            while nameEnd < characters.count, characters[nameEnd].isASCII,
                  characters[nameEnd].isLetter || (nameEnd > nameStart && "-_".contains(characters[nameEnd])) {
                nameEnd += 1
            }
            guard nameEnd > nameStart, let op = Self.operatorAt(nameEnd, in: characters) else {
                let text = readValue()
                return text.isEmpty ? nil : .text(.anywhere, text)
            }
            let name = String(characters[nameStart..<nameEnd])
            index = nameEnd + op.rawValue.count
            let valueStart = index
            let value = readValue()
            let valueRange = valueStart..<max(index, valueStart + 1)
            let fieldName = QueryParser.folded(fieldName: name)
            guard let field = QueryParser.fields[fieldName] else {
                let guess = QueryParser.nearestFieldName(to: fieldName).map { ": did you mean \($0)?" } ?? ""
                throw QueryError("unknown field '\(name)'\(guess) (fields: \(QueryParser.fieldList))", at: nameStart..<nameEnd)
            }
            guard !value.isEmpty else {
                guard op == .equal, let unrecorded = field.unrecorded else {
                    if case .org(let relation) = field {
                        throw QueryError("\(relation.rawValue)\(op.rawValue) needs a person: an _id, an email or \"First Last\"",
                                         at: termStart..<index)
                    }
                    let hint = op == .colon && field.unrecorded != nil ? " (\(fieldName)= finds people without one)" : ""
                    throw QueryError("\(fieldName)\(op.rawValue) needs a value\(hint)", at: termStart..<index)
                }
                return unrecorded
            }
            return try condition(field, named: fieldName, op, value, operatorAt: nameEnd..<(nameEnd + op.rawValue.count),
                                 valueAt: valueRange)
        }

        /// What `field`, compared by `op` with a value that is not empty, asks.
        private func condition(_ field: Field, named fieldName: String, _ op: Operator, _ value: String,
                               operatorAt operatorRange: Range<Int>, valueAt valueRange: Range<Int>) throws(QueryError) -> QueryCondition {
            switch field {
            case .text(let scope):
                switch op {
                case .colon: return .text(scope, value)
                case .equal: return .exact(scope, value)
                default:
                    throw QueryError("\(fieldName) is text: write \(fieldName):\(value) (contains) or \(fieldName)=\(value) (whole value)",
                                     at: operatorRange)
                }
            case .active:
                guard op == .colon || op == .equal else {
                    throw QueryError("active is yes or no: write active:yes or active:no", at: operatorRange)
                }
                switch value.lowercased() {
                case "yes", "y", "true": return .active(true)
                case "no", "n", "false": return .active(false)
                default: throw QueryError("active takes yes or no (or true, false), not '\(value)'", at: valueRange)
                }
            case .number(let number):
                return .number(number, try comparison(number.rawValue, op, value, at: valueRange) { text throws(QueryError) in
                    try Self.number(number, text, at: valueRange)
                })
            case .org(let relation):
                guard op == .colon || op == .equal else {
                    throw QueryError("\(relation.rawValue) names a person: write \(relation.rawValue):ID, an email or \"First Last\"",
                                     at: operatorRange)
                }
                return .org(relation, value)
            case .depth:
                return .depth(try comparison("depth", op, value, at: valueRange) { text throws(QueryError) in
                    try Self.wholeNumber(text, of: "depth", unit: "levels under the top", at: valueRange)
                })
            }
        }

        private func comparison(_ fieldName: String, _ op: Operator, _ value: String, at range: Range<Int>,
                                number: (String) throws(QueryError) -> Int64) throws(QueryError) -> NumberComparison {
            if op == .colon || op == .equal, let (low, high) = Self.splitRange(value) {
                let lowValue = try number(low)
                let highValue = try number(high)
                guard lowValue <= highValue else {
                    throw QueryError("\(fieldName):\(value) is an empty range: write the lower end first", at: range)
                }
                return .between(lowValue, highValue)
            }
            let number = try number(value)
            switch op {
            case .colon, .equal: return .equal(number)
            case .less: return .less(number)
            case .lessOrEqual: return .lessOrEqual(number)
            case .greater: return .greater(number)
            case .greaterOrEqual: return .greaterOrEqual(number)
            }
        }

        /// `30-39` or `30..39` → ("30", "39"). A `-` counts as the range's
        /// dash only after a digit, so that `-$5..-$1` and `-5-10` read.
        private static func splitRange(_ value: String) -> (String, String)? {
            if let dots = value.range(of: "..") {
                return (String(value[..<dots.lowerBound]), String(value[dots.upperBound...]))
            }
            let characters = Array(value)
            for index in characters.indices.dropFirst() where characters[index] == "-" {
                if characters[index - 1].isNumber || characters[index - 1] == "." {
                    return (String(characters[..<index]), String(characters[(index + 1)...]))
                }
            }
            return nil
        }

        /// Years for age (whole, not negative), cents for balance.
        private static func number(_ field: NumberField, _ text: String, at range: Range<Int>) throws(QueryError) -> Int64 {
            switch field {
            case .age:
                return try wholeNumber(text, of: "age", unit: "years", at: range)
            case .balance:
                switch Balance.amount(fromUTF8: Array(text.utf8)) {
                case .cents(let cents): return cents
                case .tooLarge: throw QueryError("balance '\(text)' is too large", at: range)
                case .notAnAmount: throw QueryError("balance is an amount like 2500 or $1,000.50, not '\(text)'", at: range)
                }
            }
        }

        /// A whole number, not negative, of at most nine digits.
        private static func wholeNumber(_ text: String, of field: String, unit: String, at range: Range<Int>) throws(QueryError) -> Int64 {
            guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int64(text) else {
                throw QueryError("\(field) is a whole number of \(unit), not '\(text)'", at: range)
            }
            return number
        }

        /// An operator right after a field name (the longer one first).
        private static func operatorAt(_ index: Int, in characters: [Character]) -> Operator? {
            guard index < characters.count else { return nil }
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch characters[index] {
            case ":": return .colon
            case "=": return .equal
            case "<": return next == "=" ? .lessOrEqual : .less
            case ">": return next == "=" ? .greaterOrEqual : .greater
            default: return nil
            }
        }

        /// A phrase in quotes (to the closing quote, or the end), or a
        /// word (to the next space).
        private mutating func readValue() -> String {
            guard index < characters.count else { return "" }
            if characters[index] == "\"" {
                index += 1
                let start = index
                while index < characters.count, characters[index] != "\"" { index += 1 }
                let phrase = String(characters[start..<index])
                if index < characters.count { index += 1 }
                return phrase
            }
            let start = index
            while index < characters.count, !characters[index].isWhitespace { index += 1 }
            return String(characters[start..<index])
        }
    }
}

/// The search language as help shows it (`--help`, `?`, the manual and the
/// README say the same): an example, and what it finds.
public enum QueryGrammar {
    public static let examples: [(example: String, meaning: String)] = [
        ("abbott beta", "all terms match: in name, company, email, phone, address"),
        ("1883140187", "3+ digits also match a phone's digits: +1 (188) 314-0187"),
        ("\"two words\"", "a phrase, spaces included"),
        ("company:acme", "one field; also name: first: last: email: phone:"),
        ("city:concho", "a part of the address: street: city: state: zip:"),
        ("eye:blue fruit:apple", "eye color, favorite fruit; also address: id: guid:"),
        ("state=Kansas", "the whole value, any text field (not Arkansas)"),
        ("city= age=", "no value, missing or empty (-city= has one)"),
        ("active:yes", "active people (active:no; also true, false)"),
        ("age>40 age<=25", "compare the age: < <= > >= = (age:33 is age=33)"),
        ("age:30-39", "a range, both ends included (also 30..39)"),
        ("balance<$1,000.50", "compare the balance in exact cents; balance:10-20"),
        ("-term -company:acme", "exclude the people who match"),
        ("reports-to:a1", "org chart: a1's direct reports (_id, email, DN, \"name\")"),
        ("under:\"Ada Lovelace\"", "everyone under Ada Lovelace, at every level"),
        ("depth>2", "levels under the top of the org chart (top: 0)"),
    ]
}
