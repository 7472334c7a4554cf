/// Why a person is at the top of the org chart (a root).
public enum OrgRootReason: UInt8, Sendable, CaseIterable {
    /// Not at the top: their manager is in the chart.
    case hasManager
    /// No manager given: the top of an organisation.
    case noManager
    /// Their manager is not in this directory.
    case missingManager
    /// Their manager's reference fits several people.
    case ambiguousManager
    /// They are named as their own manager.
    case selfReference
    /// They are in a loop of managers (A reports to B reports to A).
    case inCycle

    /// Whether the chart shows the person at the top because of a problem
    /// the title names (`!`), not because they lead an organisation.
    public var isProblem: Bool { self != .hasManager && self != .noManager }

    /// Why someone is at the top, in a few words, when it is a problem
    /// (`OrgTree.problem(of:)` adds what their reference said).
    public var problem: String? {
        switch self {
        case .hasManager, .noManager: return nil
        case .missingManager: return "manager not here"
        case .ambiguousManager: return "manager ambiguous"
        case .selfReference: return "own manager"
        case .inCycle: return "in a loop of managers"
        }
    }
}

/// In what order each person's direct reports (and the top people) come.
public enum OrgReportOrder {
    /// By person number (the source's order).
    case personNumber
    /// By `keys[person]`, smallest first (a position in the list's sort
    /// order, say); equal keys by person number.
    case keys([Int32])
    /// By a comparison of two people.
    case comparator((Int, Int) -> Bool)
}

/// Who reports to whom, as a tree: each person's manager in the chart, their
/// direct reports (CSR: `reportOffsets[p]..<reportOffsets[p + 1]` of
/// `reports`), the top people, the loops of managers found and broken, and
/// the whole chart in preorder (`outline`: depth, team and organisation
/// sizes). Built in O(n) (O(n log span) with an order) without recursion,
/// so a chain a million deep is no deeper on the stack than a flat list.
///
/// A loop (A reports to B reports to A, or longer) is broken the same way
/// every time: each of its members is put at the top, flagged `inCycle`,
/// with their other reports under them; the rest of the chart is right.
public struct OrgTree: Sendable {
    /// Each person's manager in the chart, or -1 at the top.
    public let managers: [Int32]
    /// Where each person's direct reports start in `reports` (count + 1 entries).
    public let reportOffsets: [Int32]
    /// Everyone's direct reports, each manager's together, in the chosen order.
    public let reports: [Int32]
    /// The people at the top, in the chosen order.
    public let roots: [Int32]
    /// Each loop of managers found: its members in reporting order (each
    /// reports to the next, the last to the first), from its lowest person;
    /// loops ordered by that person.
    public let cycles: [[Int]]
    /// The whole chart in preorder.
    public let outline: OrgOutline
    /// Each person's position in `outline`.
    public let positions: [Int32]
    private let rootReasons: [UInt8]
    /// The references that named no one here, several people or the person
    /// themselves, by person: what the chart says at such a person (none
    /// for a chart made from numbers).
    let unresolved: [ManagerResolution.Problem]

    /// The chart of a resolved directory.
    public init(_ resolution: ManagerResolution, order: OrgReportOrder = .personNumber) {
        self.init(managers: resolution.managers, reasons: resolution.rootReasons, unresolved: resolution.problems, order: order)
    }

    /// The chart of people whose managers are already numbers: -1 (or a
    /// number out of range, as missing) for none, a person's own number as a
    /// self-reference.
    public init(managers: [Int32], order: OrgReportOrder = .personNumber) {
        let count = managers.count
        let reasons = managers.indices.map { person -> OrgRootReason in
            let manager = Int(managers[person])
            if manager == person { return .selfReference }
            if manager < 0 { return .noManager }
            return manager < count ? .hasManager : .missingManager
        }
        self.init(managers: managers, reasons: reasons, unresolved: [], order: order)
    }

    private init(managers: [Int32], reasons: [OrgRootReason], unresolved: [ManagerResolution.Problem], order: OrgReportOrder) {
        precondition(managers.count < Int(Int32.max), "an org chart holds fewer than 2^31 people")
        var parents = managers
        var rootReasons = reasons.map(\.rawValue)
        for person in parents.indices where reasons[person] != .hasManager { parents[person] = -1 }
        let cycles = OrgCycles.breakCycles(in: &parents)
        for cycle in cycles {
            for member in cycle { rootReasons[member] = OrgRootReason.inCycle.rawValue }
        }
        self.init(parents: parents, rootReasons: rootReasons, cycles: cycles, unresolved: unresolved, order: order)
    }

    /// The same chart with each manager's reports and the top people in
    /// `order`: the loops already broken are kept, only the lists and the
    /// outline are made again (a tenth of resolving everyone).
    public func inOrder(_ order: OrgReportOrder) -> OrgTree {
        OrgTree(parents: managers, rootReasons: rootReasons, cycles: cycles, unresolved: unresolved, order: order)
    }

    private init(parents: [Int32], rootReasons: [UInt8], cycles: [[Int]], unresolved: [ManagerResolution.Problem],
                 order: OrgReportOrder) {
        let lists = OrgReportLists(parents: parents, order: order)
        managers = parents
        self.rootReasons = rootReasons
        self.cycles = cycles
        self.unresolved = unresolved
        reportOffsets = lists.offsets
        reports = lists.reports
        roots = lists.roots
        (outline, positions) = OrgOutline.wholeChart(roots: lists.roots, offsets: lists.offsets, reports: lists.reports)
    }

    public var count: Int { managers.count }

    /// Why `person` is at the top, or `.hasManager`.
    public func rootReason(of person: Int) -> OrgRootReason {
        OrgRootReason(rawValue: rootReasons[person]) ?? .hasManager
    }

    /// Why `person` is at the top when it is a problem, in words that say
    /// what their reference was (`manager ambiguous: "Ann Lee" names 2
    /// people`); nil when it is not a problem.
    public func problem(of person: Int) -> String? {
        let reason = rootReason(of: person)
        guard reason == .missingManager || reason == .ambiguousManager else { return reason.problem }
        var low = 0
        var high = unresolved.count
        while low < high {
            let middle = (low + high) / 2
            if unresolved[middle].person < person { low = middle + 1 } else { high = middle }
        }
        let outcome = low < unresolved.count && unresolved[low].person == person ? unresolved[low].outcome : nil
        return outcome.flatMap(UnresolvedManager.words(for:)) ?? reason.problem
    }

    /// `person`'s direct reports, in order.
    public func directReports(of person: Int) -> ArraySlice<Int32> {
        reports[Int(reportOffsets[person])..<Int(reportOffsets[person + 1])]
    }

    /// How many report to `person` directly.
    public func teamSize(of person: Int) -> Int {
        Int(reportOffsets[person + 1] - reportOffsets[person])
    }

    /// How many people are under `person`, at every level.
    public func organisationSize(of person: Int) -> Int {
        Int(outline.sizes[Int(positions[person])])
    }

    /// Levels under the top: 0 for a top person, 1 for their reports.
    public func depth(of person: Int) -> Int {
        Int(outline.depths[Int(positions[person])])
    }

    /// `person`'s managers, the direct one first, up to the top.
    public func managerChain(of person: Int) -> [Int] {
        var chain: [Int] = []
        var current = Int(managers[person])
        while current >= 0 {
            chain.append(current)
            current = Int(managers[current])
        }
        return chain
    }

    /// Whether `person` is in `manager`'s organisation (under them, at any
    /// level): O(1), their positions in preorder.
    public func isUnder(_ person: Int, _ manager: Int) -> Bool {
        let start = Int(positions[manager])
        let position = Int(positions[person])
        return position > start && position <= start + Int(outline.sizes[start])
    }

    /// The loop `person` is in, if any.
    public func cycle(containing person: Int) -> [Int]? {
        guard rootReason(of: person) == .inCycle else { return nil }
        return cycles.first { $0.contains(person) }
    }

    /// The chart's problems in words, for the title's `!` ("2 with a
    /// manager not here, 1 loop of managers"); nil when there are none.
    public var problemSummary: String? {
        let counts = problemCounts
        var parts: [String] = []
        if let missing = counts[.missingManager] {
            parts.append("\(NumberText.grouped(missing)) with a manager not here")
        }
        if let ambiguous = counts[.ambiguousManager] {
            parts.append("\(NumberText.grouped(ambiguous)) with an ambiguous manager" + UnresolvedManager.ambiguousExample(in: unresolved))
        }
        if let own = counts[.selfReference] {
            parts.append("\(NumberText.grouped(own)) their own manager")
        }
        if !cycles.isEmpty {
            parts.append(NumberText.count(cycles.count, "loop of managers", "loops of managers"))
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// How many people are at the top for each problem reason (people whose
    /// manager is missing, ambiguous, themselves or in a loop).
    public var problemCounts: [OrgRootReason: Int] {
        var counts: [OrgRootReason: Int] = [:]
        for raw in rootReasons {
            guard let reason = OrgRootReason(rawValue: raw), reason.isProblem else { continue }
            counts[reason, default: 0] += 1
        }
        return counts
    }
}
