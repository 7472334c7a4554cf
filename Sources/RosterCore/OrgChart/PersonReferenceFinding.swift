/// Finds whom a reference typed in a query names (`under:ada@example.org`):
/// the chart's own index of identifiers, so that a query finds a person
/// exactly as a manager field finds them.
public protocol PersonReferenceFinding: Sendable {
    /// The person `reference` names among every kind of identifier.
    func find(_ reference: String) -> PersonReferenceMatch
    /// Whether every kind of identifier is indexed already.
    var indexesEveryKind: Bool { get }
    /// This finder with every kind of identifier indexed: a chart resolved
    /// by ids alone indexes only ids, and a query may name anyone by email
    /// or name. Built once per chart (a pass over everyone).
    func indexingEveryKind() -> any PersonReferenceFinding
}

/// A chart's finder and, made the first time a reference is not an id,
/// the same with every kind indexed: a chart whose managers are ids indexes
/// only ids, and the other tables cost seconds for a million people, which
/// a query naming someone by `_id` need not wait for.
final class IndexedOnDemand: Sendable {
    private let first: any PersonReferenceFinding
    private let complete = Locked<(any PersonReferenceFinding)?>(nil)

    init(_ first: any PersonReferenceFinding) {
        self.first = first
    }

    /// As `PersonReferenceFinding.find`, over every kind: an id is tried
    /// first either way, so a reference found (or found twice) among the
    /// ids is the answer every table would give.
    func find(_ reference: String) -> PersonReferenceMatch {
        let found = first.find(reference)
        guard found == .missing, !first.indexesEveryKind else { return found }
        let complete = self.complete.withLock { complete in
            if let complete { return complete }
            let made = first.indexingEveryKind()
            complete = made
            return made
        }
        return complete.find(reference)
    }
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

    public var indexesEveryKind: Bool { kinds.count == PersonReferenceKind.allCases.count }

    public func indexingEveryKind() -> any PersonReferenceFinding {
        indexesEveryKind ? self : including(PersonReferenceKind.allCases)
    }
}
