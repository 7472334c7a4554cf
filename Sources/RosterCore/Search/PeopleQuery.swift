/// A parsed search: people who satisfy every term (an empty query: everyone).
///
/// Plain data, so that every source can answer it: the file store scans its
/// bytes (`PeopleSearch`), a database translates each term to a `WHERE`
/// clause. What a term means is written down once, in `QueryReference`
/// (`PeopleQuery.matches(_:)`), which the fast matchers are tested against.
public struct PeopleQuery: Sendable, Equatable {
    public var terms: [QueryTerm]

    public init(terms: [QueryTerm] = []) {
        self.terms = terms
    }
}

/// One term of a query: a condition, perhaps negated (`-company:acme`).
public struct QueryTerm: Sendable, Equatable {
    public var condition: QueryCondition
    /// `-term`: the person must not satisfy the condition.
    public var isNegated: Bool
    /// Where the term stands in the query text, in characters (its `-`
    /// included), for pointing at it.
    public var range: Range<Int>

    public init(_ condition: QueryCondition, isNegated: Bool = false, range: Range<Int> = 0..<0) {
        self.condition = condition
        self.isNegated = isNegated
        self.range = range
    }
}

/// What a term asks of a person.
public enum QueryCondition: Sendable, Equatable {
    /// The field contains the text, ignoring case and accents. The text is
    /// kept as typed (quotes removed); each source folds it as it folds its
    /// fields. A text of digits (with phone punctuation, at least
    /// `QueryCondition.phoneDigitsMinimum` digits) searched `anywhere` or
    /// in `phone` also matches the phone number's digits alone, so that
    /// `1883140187` finds `+1 (188) 314-0187`.
    case text(TextScope, String)
    /// `field=value`: the whole field equals the text, ignoring case and
    /// accents. Both sides are folded as the field is folded (`TextScope
    /// .foldsAsKey`), so a value always equals itself. An empty text
    /// (`city=`, `city=""`) means the field has no value (missing or empty).
    case exact(TextScope, String)
    /// `age=`, `balance=`, `active=`: the field is not recorded (no age, a
    /// balance that is not an amount, no activity).
    case unrecorded(RecordedField)
    /// A number compared exactly: age in years, balance in cents.
    case number(NumberField, NumberComparison)
    /// `active:yes` / `active:no`: people whose activity is not recorded match neither.
    case active(Bool)
    /// `reports-to:X`, `under:X`: people placed by the org chart, X being
    /// an `_id`, email, DN or full name, found as managers are found. Only
    /// a source's chart answers it (`SearchQuery.resolved(in:)`).
    case org(OrgRelation, String)
    /// `depth>5`: levels under the top of the org chart (top people 0).
    case depth(NumberComparison)

    public static let phoneDigitsMinimum = 3

    /// Whether only the source's org chart answers this condition.
    public var asksOrgChart: Bool {
        switch self {
        case .org, .depth: return true
        default: return false
        }
    }
}

/// How an org chart term places people relative to the person it names.
public enum OrgRelation: String, Sendable, Equatable, CaseIterable {
    /// `reports-to:X`: X's direct reports.
    case reportsTo = "reports-to"
    /// `under:X`: everyone under X, at every level (not X).
    case under
}

/// Where a text term looks.
public enum TextScope: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Name, company, email, phone or address (a bare term).
    case anywhere
    /// "First Last", either part, or across the two (`name:"ada love"`).
    case name
    case firstName, lastName, company, email, phone
    /// The whole address, or one of its comma-separated parts
    /// ("303 Vermont Street, Concho, Arizona, 1707": street, city, state, zip).
    case address, street, city, state, zip
    /// A plain field of the record, compared whole (eye colour, fruit:
    /// those with a `TextField.plainColumn`).
    case text(TextField)
    /// `_id`.
    case id
    case guid

    public static let allCases: [TextScope] = [.anywhere, .name, .firstName, .lastName, .company, .email, .phone,
                                               .address, .street, .city, .state, .zip]
        + TextField.plainColumns.map(TextScope.text) + [.id, .guid]

    /// The scope's name in messages and tests ("eyeColor").
    public var description: String {
        switch self {
        case .anywhere: return "anywhere"
        case .name: return "name"
        case .firstName: return "firstName"
        case .lastName: return "lastName"
        case .company: return "company"
        case .email: return "email"
        case .phone: return "phone"
        case .address: return "address"
        case .street: return "street"
        case .city: return "city"
        case .state: return "state"
        case .zip: return "zip"
        case .text(let field): return "\(field)"
        case .id: return "id"
        case .guid: return "guid"
        }
    }
}

extension TextScope {
    /// Where a bare term looks: the one list the reference matcher, the
    /// store's search, the SQL filter and the imported `search_text` are
    /// all made from (the repository contract holds each to the first).
    /// The company and the name are compared on their folded keys; the
    /// rest are whole fields of the record (`bareTermFields`).
    public static let bareTermScopes: [TextScope] = [.company, .name, .email, .phone, .address]

    /// The record's fields a bare term reads whole, in the table's order.
    public static let bareTermFields: [TextField] = bareTermScopes.compactMap(\.recordField)

    /// The address's comma-separated parts.
    public static let addressParts: [TextScope] = [.street, .city, .state, .zip]

    /// Where a term on `field` looks (`fruit:` on the favorite fruit).
    public init(field: TextField) {
        switch field {
        case .firstName: self = .firstName
        case .lastName: self = .lastName
        case .company: self = .company
        case .email: self = .email
        case .phone: self = .phone
        case .address: self = .address
        case .id: self = .id
        case .guid: self = .guid
        // A plain field (eye colour, fruit; nothing searches the balance's text or the picture).
        default: self = .text(field)
        }
    }

    /// The record's field this scope compares whole, folded as search
    /// folds text; nil for the name and company (compared on their keys),
    /// the address's parts and `anywhere`.
    public var recordField: TextField? {
        switch self {
        case .email: return .email
        case .phone: return .phone
        case .address: return .address
        case .text(let field): return field
        case .id: return .id
        case .guid: return .guid
        case .anywhere, .name, .firstName, .lastName, .company, .street, .city, .state, .zip: return nil
        }
    }

    /// Whether the field is compared on the loader's folded keys
    /// (`TextFolding`: names, the company) rather than with `LatinFolding`.
    public var foldsAsKey: Bool {
        switch self {
        case .name, .firstName, .lastName, .company: return true
        default: return false
        }
    }
}

/// The fields that can be missing without being text: `age=`, `balance=`, `active=`.
public enum RecordedField: String, Sendable, Equatable, CaseIterable {
    case age, balance, active
}

/// The numeric fields.
public enum NumberField: String, Sendable, Equatable, CaseIterable {
    /// Whole years.
    case age
    /// Exact cents (`balance>2500` is 250000 cents); balances that are not
    /// an amount match no comparison.
    case balance
}

/// A comparison with whole numbers (years, cents); a person without the
/// field matches none.
public enum NumberComparison: Sendable, Equatable {
    case equal(Int64)
    case less(Int64)
    case lessOrEqual(Int64)
    case greater(Int64)
    case greaterOrEqual(Int64)
    /// Both ends included (`age:30-39`).
    case between(Int64, Int64)

    /// The values that satisfy it (exact: both sides are whole numbers).
    public var bounds: ClosedRange<Int64> {
        switch self {
        case .equal(let value): return value...value
        case .less(let value): return Int64.min...(value == Int64.min ? Int64.min : value - 1)
        case .lessOrEqual(let value): return Int64.min...value
        case .greater(let value): return (value == Int64.max ? Int64.max : value + 1)...Int64.max
        case .greaterOrEqual(let value): return value...Int64.max
        case .between(let low, let high): return low...high
        }
    }
}

/// Why a query cannot be run, and where: shown under the term in the
/// prompt, and as the one line of a `--filter` usage error.
public struct QueryError: Error, Sendable, Equatable {
    /// "unknown field 'agee'".
    public var message: String
    /// The characters at fault (offsets into the query, in characters).
    public var range: Range<Int>

    public init(_ message: String, at range: Range<Int>) {
        self.message = message
        self.range = range
    }
}

extension QueryError {
    /// One line for a command line: the term at fault, its column, and
    /// what is wrong (`'age>x' (column 5): age is a whole number …`);
    /// the query's text made safe for a terminal.
    public func describe(in text: String) -> String {
        let characters = Array(text)
        var lower = min(range.lowerBound, characters.count), upper = min(max(range.upperBound, lower), characters.count)
        while lower > 0, !characters[lower - 1].isWhitespace { lower -= 1 }
        while upper < characters.count, !characters[upper].isWhitespace { upper += 1 }
        let term = DisplayText.sanitized(String(characters[lower..<upper]))
        return "'\(term)' (column \(range.lowerBound + 1)): \(DisplayText.sanitized(message))"
    }
}
