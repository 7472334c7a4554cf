/// What the user typed, parsed (`QueryParser`) and folded once for matching.
public struct SearchQuery: Sendable, Equatable {
    public let text: String
    /// Why the text is not a query (an unknown field, a bad number), with
    /// where; nil when it is one. A query with an error is never run.
    public let error: QueryError?
    /// The parsed query (no terms when there is an error).
    public let query: PeopleQuery
    /// Its terms, ready for a store (cheapest first).
    public let terms: [CompiledTerm]

    public init(_ text: String) {
        self.text = text
        do {
            query = try QueryParser.parse(text)
            error = nil
        } catch {
            query = PeopleQuery()
            self.error = error
        }
        terms = query.terms.compactMap(CompiledTerm.init).sorted { $0.cost < $1.cost }
    }

    /// `query` with its terms compiled as given (an org chart's answers).
    init(text: String, query: PeopleQuery, terms: [CompiledTerm]) {
        self.text = text
        error = nil
        self.query = query
        self.terms = terms.sorted { $0.cost < $1.cost }
    }

    public static func == (lhs: SearchQuery, rhs: SearchQuery) -> Bool { lhs.text == rhs.text }

    /// Whether a term asks the source's org chart (`reports-to:`, `under:`,
    /// `depth`) and has not been answered by it yet.
    public var asksOrgChart: Bool {
        terms.contains { if case .orgChart = $0.test { true } else { false } }
    }

    /// Asks nothing (no terms, or only terms that fold to nothing), so
    /// matches everyone; false for a query with an error.
    public var isEmpty: Bool { terms.isEmpty && error == nil }

    /// Whether every match of `self` is also a match of `earlier`, so that
    /// searching only `earlier`'s matches is enough ("jos" then "jose",
    /// "abbott" then "abbott b", "age>3" then "age>30"): each of the
    /// earlier terms must be implied by one of these.
    ///
    /// Only an optimisation, so it gives up (false: search everyone) past
    /// `narrowingLimit` pairs of terms: a pasted query of thousands of
    /// terms would otherwise cost the square of its length at every key.
    public func narrows(_ earlier: SearchQuery) -> Bool {
        error == nil && earlier.error == nil && !earlier.isEmpty
            && terms.count * earlier.terms.count <= Self.narrowingLimit
            && earlier.terms.allSatisfy { old in terms.contains { $0.implies(old) } }
    }

    static let narrowingLimit = 4096
}

/// A query term in a store's terms: folded bytes, or a range of whole numbers.
public struct CompiledTerm: Sendable {
    public enum Test: Sendable, Equatable {
        /// `digits`: also matches a phone whose digits contain these.
        case text(TextScope, needle: [UInt8], spansParts: Bool, digits: [UInt8]?)
        case number(NumberField, ClosedRange<Int64>)
        case active(Bool)
        /// `field=value`: the whole field, folded as `QueryCondition
        /// .exactNeedle` folds, equals `needle` (empty: the field has no value).
        case exact(TextScope, needle: [UInt8])
        /// `age=`, `balance=`, `active=`.
        case unrecorded(RecordedField)
        /// An org chart term (`under:X`, `depth>2`) the source's chart has
        /// not answered yet (`SearchQuery.resolved(in:)`): a store that
        /// meets one matches nobody with it, so a source resolves first or
        /// refuses the query.
        case orgChart(QueryCondition)
        /// The people whose numbers are in the set: an org chart term answered.
        case people(PersonSet)
    }

    public let test: Test
    public let isNegated: Bool

    /// Nil for a term that asks nothing (text that folds to nothing).
    init?(_ term: QueryTerm) {
        isNegated = term.isNegated
        switch term.condition {
        case .active(let wanted): test = .active(wanted)
        case .org, .depth: test = .orgChart(term.condition)
        case .number(let field, let comparison): test = .number(field, comparison.bounds)
        case .unrecorded(let field): test = .unrecorded(field)
        case .exact(let scope, let text): test = .exact(scope, needle: QueryCondition.exactNeedle(text, in: scope))
        case .text(let scope, let text):
            let needle = TextFolding.foldedBytes(text)
            guard !needle.isEmpty else { return nil }
            let digits = scope == .anywhere || scope == .phone ? QueryCondition.phoneDigits(of: text) : nil
            // A space (or a NUL) can only match across "first last".
            test = .text(scope, needle: needle, spansParts: needle.contains(UInt8(ascii: " ")) || needle.contains(0), digits: digits)
        }
    }

    /// An org chart term answered: the people of `people`.
    init(people: PersonSet, isNegated: Bool) {
        test = .people(people)
        self.isNegated = isNegated
    }

    /// Cheap tests first: a person failing one is never read further.
    public var cost: Int {
        switch test {
        case .active, .number, .unrecorded, .orgChart, .people: return 0
        case .text(.company, _, _, _), .exact(.company, _): return 1
        case .exact: return 2
        case .text(.name, _, _, _), .text(.firstName, _, _, _), .text(.lastName, _, _, _): return 2
        case .text(.anywhere, _, _, _): return 4
        case .text: return 3
        }
    }

    /// Whether every person this term matches also matches `other`.
    public func implies(_ other: CompiledTerm) -> Bool {
        guard isNegated == other.isNegated else { return false }
        // Excluding more (a shorter text, a wider range) narrows.
        return isNegated ? other.impliesPositively(self) : impliesPositively(other)
    }

    private func impliesPositively(_ other: CompiledTerm) -> Bool {
        switch (test, other.test) {
        case (.active(let mine), .active(let theirs)):
            return mine == theirs
        case (.unrecorded(let mine), .unrecorded(let theirs)):
            return mine == theirs
        case (.orgChart(.depth(let mine)), .orgChart(.depth(let theirs))):
            return mine.bounds.lowerBound >= theirs.bounds.lowerBound && mine.bounds.upperBound <= theirs.bounds.upperBound
        case (.orgChart(let mine), .orgChart(let theirs)):
            return mine == theirs
        case (.people(let mine), .people(let theirs)):
            return mine == theirs
        case (.exact(let scope, let needle), .exact(let otherScope, let otherNeedle)):
            return scope == otherScope && needle == otherNeedle
        case (.exact(let scope, let needle), .text(let otherScope, let otherNeedle, _, _)):
            // The whole value holds the other's text (both folded alike
            // where it counts: a field's folded value contains it).
            return scope == otherScope && needle.contains(otherNeedle)
        case (.number(let field, let mine), .number(let otherField, let theirs)):
            return field == otherField && mine.lowerBound >= theirs.lowerBound && mine.upperBound <= theirs.upperBound
        case (.text(let scope, let needle, _, let digits), .text(let otherScope, let otherNeedle, _, let otherDigits)):
            guard scope == otherScope, needle.contains(otherNeedle) else { return false }
            // A match on the phone's digits alone must be one for `other` too.
            guard let digits else { return true }
            return otherDigits.map { digits.contains($0) } ?? false
        default:
            return false
        }
    }
}

extension SearchQuery {
    /// Character ranges of `text` (a name) that the query's terms match,
    /// for highlighting (see `matchRanges(in:field:)`).
    public func matchRanges(in text: String) -> [Range<Int>] {
        matchRanges(in: text, field: .name)
    }
}
