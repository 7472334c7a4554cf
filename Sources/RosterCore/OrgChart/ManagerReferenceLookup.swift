/// Each person's manager as their source writes it (an `_id`, email, DN or
/// full name, kept exactly: hostile data like any other field), by their
/// `PersonID`: what an export writes beside each person, so that the
/// manager survives it and reads back as the same reference.
///
/// The reference as written, not the manager it resolves to: one that
/// names nobody here (a manager outside the export, a typo) is kept too,
/// and the chart read from the export says so as the source's did.
public protocol ManagerReferenceLookup: Sendable {
    /// `person`'s manager reference, nil when their record has none.
    func managerReference(of person: PersonID) -> String?
}

/// What a source gives when an export asks for its people's managers.
public enum ManagerReferencesLoad: Sendable {
    case loaded(any ManagerReferenceLookup)
    /// The source keeps no managers (no record has a manager field, a
    /// table made before the column, standard input read once).
    case none
    /// They could not be read (the file gone, the connection lost): why.
    case unavailable(String)
}

extension ManagerReferencesLoad {
    /// The lookup (nil: none), and why not when they could not be read.
    public var references: (lookup: (any ManagerReferenceLookup)?, unread: String?) {
        switch self {
        case .loaded(let lookup): return (lookup, nil)
        case .none: return (nil, nil)
        case .unavailable(let why): return (nil, why)
        }
    }
}

/// Plain references by `PersonID` raw value: tests and small sources.
public struct ManagerReferenceList: ManagerReferenceLookup {
    public let references: [Int: String]

    public init(_ references: [Int: String]) {
        self.references = references
    }

    public func managerReference(of person: PersonID) -> String? { references[person.rawValue] }
}

extension OrgChartReading {
    /// A source whose chart reading does not say keeps no managers an
    /// export could carry.
    public func readManagerReferences() -> ManagerReferencesLoad { .none }
}
