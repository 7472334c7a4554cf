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

    private static let missingCode: UInt8 = 0x10
    private static let ambiguousCode: UInt8 = 0x11
    private static let selfCode: UInt8 = 0x12

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
        let first = ManagerResolution(byID)
        var unresolved: [Int] = []
        var needed: Set<PersonReferenceKind> = [.name]
        var key = ReferenceKey()
        for problem in first.problems {
            guard case .missing(let reference) = problem.outcome else { continue }
            unresolved.append(problem.person)
            var text = reference
            if text.utf8.contains(UInt8(ascii: "@")) { needed.insert(.email) }
            if text.withUTF8({ key.make(.distinguishedName, of: $0) }) { needed.insert(.distinguishedName) }
        }
        guard !unresolved.isEmpty else { return (first, byID) }
        let index = byID.including(PersonReferenceKind.inOrder.filter(needed.contains))
        return (first.replacing(Self.resolveInParts(unresolved, with: index)), index)
    }

    private init(parts: [Part]) {
        var managers: [Int32] = []
        var codes: [UInt8] = []
        var problems: [Problem] = []
        for part in parts {
            managers.append(contentsOf: part.managers)
            codes.append(contentsOf: part.codes)
            problems.append(contentsOf: part.problems)
        }
        self.managers = managers
        self.codes = codes
        self.problems = problems
    }

    private init(managers: [Int32], codes: [UInt8], problems: [Problem]) {
        self.managers = managers
        self.codes = codes
        self.problems = problems
    }

    /// This resolution with the people of `parts` resolved again.
    private func replacing(_ parts: [Part]) -> ManagerResolution {
        var managers = managers
        var codes = codes
        var again = [Bool](repeating: false, count: managers.count)
        var newProblems: [Problem] = []
        for part in parts {
            for (offset, person) in part.people.enumerated() {
                managers[person] = part.managers[offset]
                codes[person] = part.codes[offset]
                again[person] = true
            }
            newProblems += part.problems
        }
        let problems = (problems.filter { !again[$0.person] } + newProblems).sorted { $0.person < $1.person }
        return ManagerResolution(managers: managers, codes: codes, problems: problems)
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

    private struct Part: Sendable {
        var people: ArraySlice<Int>
        var managers: [Int32] = []
        var codes: [UInt8] = []
        var problems: [Problem] = []
    }

    /// `people` resolved in runs of at least 4,096 across the cores.
    private static func resolveInParts<Source>(_ people: [Int], with index: PersonReferenceIndex<Source>) -> [Part] {
        let partSize = max(4096, (people.count + 7) / 8)
        return Parallel.map((people.count + partSize - 1) / partSize) { part in
            resolve(people[(part * partSize)..<min(people.count, (part + 1) * partSize)], with: index)
        }
    }

    private static func resolve<Source>(_ people: ArraySlice<Int>, with index: PersonReferenceIndex<Source>) -> Part {
        var part = Part(people: people)
        part.managers.reserveCapacity(people.count)
        part.codes.reserveCapacity(people.count)
        var key = ReferenceKey()
        var candidateKey = ReferenceKey()
        for person in people {
            var lookup: PersonReferenceIndex<Source>.Lookup?
            var reference = ""
            index.source.withManagerReference(of: person) { bytes in
                lookup = index.lookup(bytes, key: &key, candidateKey: &candidateKey)
                if case .found = lookup {} else { reference = String(decoding: bytes, as: UTF8.self) }
            }
            let (manager, code, outcome) = Self.outcome(of: person, lookup, reference: reference)
            part.managers.append(manager)
            part.codes.append(code)
            if let outcome { part.problems.append(Problem(person: person, outcome: outcome)) }
        }
        return part
    }

    /// The manager, code and problem (if any) for `person`'s lookup.
    private static func outcome<Source>(of person: Int, _ lookup: PersonReferenceIndex<Source>.Lookup?,
                                        reference: String) -> (Int32, UInt8, Outcome?) {
        switch lookup {
        case nil:
            return (-1, 0, nil)
        case .found(let manager, _) where manager == person:
            return (-1, selfCode, .selfReference)
        case .found(let manager, let kind):
            return (Int32(manager), 1 + kind.rawValue, nil)
        case .ambiguous(let people, _):
            return (-1, ambiguousCode, .ambiguous(reference: reference, people: people))
        case .missing:
            // A reference of only spaces is no reference.
            guard reference.contains(where: { !$0.isWhitespace }) else { return (-1, 0, nil) }
            return (-1, missingCode, .missing(reference: reference))
        }
    }
}
