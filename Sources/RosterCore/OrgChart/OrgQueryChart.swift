/// An org chart as a query reads it: the tree, and every kind of
/// identifier indexed to find the person a term names (`under:X`).
public struct OrgQueryChart: Sendable {
    public let tree: OrgTree
    private let references: IndexedOnDemand

    public init(tree: OrgTree, references: any PersonReferenceFinding) {
        self.tree = tree
        self.references = IndexedOnDemand(references)
    }

    /// The people `term` (an org chart term) places: X's direct reports,
    /// everyone under X, or everyone at a depth. A reference naming nobody,
    /// or several people, is an error at the term, never an empty answer.
    public func people(_ term: QueryTerm) throws(QueryError) -> PersonSet {
        var people = PersonSet(capacity: tree.count)
        switch term.condition {
        case .org(let relation, let reference):
            let manager = try person(named: reference, by: relation, at: term.range)
            switch relation {
            case .reportsTo:
                for report in tree.directReports(of: manager) { people.insert(Int(report)) }
            case .under:
                // Preorder: everyone under a person is the run after them.
                let start = Int(tree.positions[manager])
                let outline = tree.outline
                for position in (start + 1)..<(start + 1 + Int(outline.sizes[start])) {
                    if let person = outline.person(at: position) { people.insert(person) }
                }
            }
        case .depth(let comparison):
            let bounds = comparison.bounds
            let outline = tree.outline
            for position in 0..<outline.count where bounds.contains(Int64(outline.depths[position])) {
                if let person = outline.person(at: position) { people.insert(person) }
            }
        default:
            break
        }
        return people
    }

    /// The one person `reference` names, found as a manager field is.
    private func person(named reference: String, by relation: OrgRelation, at range: Range<Int>) throws(QueryError) -> Int {
        let term = "\(relation.rawValue):\(reference.contains(" ") ? "\"\(reference)\"" : reference)"
        switch references.find(reference) {
        case .found(let person):
            return person
        case .ambiguous(let people, let kind):
            throw QueryError("\(term): \(NumberText.grouped(people)) people have that \(kind.noun); name one by _id or email", at: range)
        case .missing:
            throw QueryError("\(term): nobody here has that _id, email, DN or name", at: range)
        }
    }
}

extension SearchQuery {
    /// This query with its org chart terms (`reports-to:`, `under:`,
    /// `depth`) answered by `chart`: each becomes the set of people it
    /// places, which a store tests per person at the cost of a load. The
    /// text, and so the filter the status bar names, stays the same.
    public func resolved(in chart: OrgQueryChart) throws(QueryError) -> SearchQuery {
        guard asksOrgChart else { return self }
        var compiled: [CompiledTerm] = []
        for term in query.terms {
            if term.condition.asksOrgChart {
                compiled.append(CompiledTerm(people: try chart.people(term), isNegated: term.isNegated))
            } else if let plain = CompiledTerm(term) {
                compiled.append(plain)
            }
        }
        return SearchQuery(text: text, query: query, terms: compiled)
    }
}
