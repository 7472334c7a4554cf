/// Every person's manager reference resolved to a person: who reports to
/// whom, and, for each reference that names nobody here, several people or
/// the person themselves, what it said — to be shown, never guessed.
public struct ManagerResolution: Sendable {
    /// What became of one person's manager reference.
    public enum Outcome: Equatable, Sendable {
        /// No manager given.
        case none
        case resolved(manager: Int, by: PersonReferenceKind)
        /// The manager is not in this directory.
        case missing(reference: String)
        /// The reference fits several people (`people` of them).
        case ambiguous(reference: String, people: Int)
        /// The person is named as their own manager.
        case selfReference
    }

    /// One person whose reference did not resolve to someone else.
    public struct Problem: Equatable, Sendable {
        public let person: Int
        public let outcome: Outcome
    }

    /// Each person's manager, or -1 when the reference did not resolve (or
    /// there was none).
    public let managers: [Int32]
    /// Per person: 0 none, 1 + kind resolved by that kind, or a problem code.
    private let codes: [UInt8]
    /// Everyone whose reference is missing, ambiguous or themselves, by person.
    public let problems: [Problem]

    static let missingCode: UInt8 = 0x10
    static let ambiguousCode: UInt8 = 0x11
    static let selfCode: UInt8 = 0x12

    /// Resolves every person's manager reference with `index`. Lookups are
    /// split across the cores (each part its own run of people).
    public init<Source>(_ index: PersonReferenceIndex<Source>) {
        self.init(parts: Self.resolveInParts(Array(0..<index.source.count), with: index))
    }

    /// Resolves every manager of `source`, making only the tables its
    /// references need: ids first (an HR export's manager ids need no
    /// more), then, for the references no id matched, DNs (if one reads as
    /// a DN), emails (if one has an `@`) and names. Returns the index made,
    /// which `including(PersonReferenceKind.allCases)` completes for
    /// checking edits.
    public static func resolve<Source>(_ source: Source) -> (ManagerResolution, PersonReferenceIndex<Source>) {
        let byID = PersonReferenceIndex(source, kinds: [.id])
        let first = resolveInParts(Array(0..<source.count), with: byID, deferringMissing: true)
        let unresolved = first.flatMap(\.deferred)
        guard !unresolved.isEmpty else { return (ManagerResolution(parts: first), byID) }
        var kinds: [PersonReferenceKind] = [.name]
        if first.contains(where: \.deferredEmail) { kinds.append(.email) }
        if first.contains(where: \.deferredDistinguishedName) { kinds.append(.distinguishedName) }
        let index = byID.including(kinds)
        return (ManagerResolution(parts: first, then: resolveInParts(unresolved, with: index, deferringMissing: false)), index)
    }

    /// The resolution of `parts`, then of `later` parts for people the
    /// first ones deferred.
    private init(parts: [Part], then later: [Part] = []) {
        var managers: [Int32] = []
        var codes: [UInt8] = []
        for part in parts {
            managers.append(contentsOf: part.managers)
            codes.append(contentsOf: part.codes)
        }
        for part in later {
            for (offset, person) in part.people.enumerated() {
                managers[person] = part.managers[offset]
                codes[person] = part.codes[offset]
            }
        }
        self.managers = managers
        self.codes = codes
        problems = Self.merged(parts.flatMap(\.problems), later.flatMap(\.problems))
    }

    /// Two lists of problems in person order, as one.
    private static func merged(_ first: [Problem], _ second: [Problem]) -> [Problem] {
        guard !second.isEmpty else { return first }
        var result: [Problem] = []
        result.reserveCapacity(first.count + second.count)
        var (left, right) = (0, 0)
        while left < first.count || right < second.count {
            if right == second.count || (left < first.count && first[left].person < second[right].person) {
                result.append(first[left])
                left += 1
            } else {
                result.append(second[right])
                right += 1
            }
        }
        return result
    }

    public var count: Int { managers.count }

    /// What became of `person`'s reference.
    public func outcome(of person: Int) -> Outcome {
        let code = codes[person]
        if code == 0 { return .none }
        if let kind = PersonReferenceKind(rawValue: code - 1), code < Self.missingCode {
            return .resolved(manager: Int(managers[person]), by: kind)
        }
        var low = 0
        var high = problems.count
        while low < high {
            let middle = (low + high) / 2
            if problems[middle].person < person { low = middle + 1 } else { high = middle }
        }
        return problems[low].outcome
    }

    /// Whether `person` named a manager who is not here, several people, or themselves.
    public func hasProblem(_ person: Int) -> Bool { codes[person] >= Self.missingCode }

    /// Per person, whether their reference puts them under someone or at
    /// the top, and why (loops are the chart's to find).
    var rootReasons: [OrgRootReason] {
        codes.map { code in
            switch code {
            case 0: return .noManager
            case Self.missingCode: return .missingManager
            case Self.ambiguousCode: return .ambiguousManager
            case Self.selfCode: return .selfReference
            default: return .hasManager
            }
        }
    }

    /// How many references were missing, ambiguous and to oneself.
    public var problemCounts: (missing: Int, ambiguous: Int, selfReferences: Int) {
        problems.reduce(into: (0, 0, 0)) { counts, problem in
            switch problem.outcome {
            case .missing: counts.0 += 1
            case .ambiguous: counts.1 += 1
            case .selfReference: counts.2 += 1
            case .none, .resolved: break
            }
        }
    }
}
