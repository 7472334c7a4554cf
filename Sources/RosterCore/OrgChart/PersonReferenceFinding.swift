/// Finds whom a reference typed in a query names (`under:ada@example.org`):
/// the chart's own index of identifiers, so that a query finds a person
/// exactly as a manager field finds them.
public protocol PersonReferenceFinding: Sendable {
    /// The person `reference` names among every kind of identifier.
    func find(_ reference: String) -> PersonReferenceMatch
    /// This finder with every kind of identifier indexed: a chart resolved
    /// by ids alone indexes only ids, and a query may name anyone by email
    /// or name. Built once per chart (a pass over everyone).
    func indexingEveryKind() -> any PersonReferenceFinding
}

/// Whom a reference names.
public enum PersonReferenceMatch: Equatable, Sendable {
    case found(Int)
    /// `people` share the identifier (two people of that name).
    case ambiguous(people: Int, by: PersonReferenceKind)
    case missing
}

extension PersonReferenceIndex: PersonReferenceFinding {
    public func find(_ reference: String) -> PersonReferenceMatch {
        switch lookup(reference) {
        case .found(let person, _): return .found(person)
        case .ambiguous(let people, let kind): return .ambiguous(people: people, by: kind)
        case .missing: return .missing
        }
    }

    public func indexingEveryKind() -> any PersonReferenceFinding {
        kinds.count == PersonReferenceKind.allCases.count ? self : including(PersonReferenceKind.allCases)
    }
}
