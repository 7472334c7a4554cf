/// Whether a person may be given a new manager: the manager must be one
/// person of the directory, not the person themselves, and not anyone under
/// them (that would make a loop). Checked before an edit is saved (the form,
/// `v`, `roster update ID manager=…`).
public enum ManagerChange {
    /// Why the change is refused.
    public enum Problem: Equatable, Sendable {
        /// Nobody here has that id, DN, email or name.
        case notFound(reference: String)
        /// Several people have the identifier the reference names them by.
        case ambiguous(reference: String, people: Int, by: PersonReferenceKind)
        /// The new manager is the person.
        case selfReference
        /// The new manager is under the person: the chain from the new
        /// manager up to the person (its first the new manager, its last the person).
        case cycle(chain: [Int], manager: Int)
    }

    /// What the check says.
    public enum Verdict: Equatable, Sendable {
        /// Fine; the new manager (nil when the reference is empty: no manager).
        case accepted(manager: Int?)
        case refused(Problem)
    }

    /// Checks giving `person` the manager `reference` names. `managers` are
    /// the references as resolved now (`ManagerResolution.managers`, loops
    /// included: the chart's broken loops would hide one).
    public static func check<Source>(_ person: Int, to reference: String, in index: PersonReferenceIndex<Source>,
                                     managers: [Int32]) -> Verdict {
        guard reference.contains(where: { !$0.isWhitespace }) else { return .accepted(manager: nil) }
        switch index.lookup(reference) {
        case .missing: return .refused(.notFound(reference: reference))
        case .ambiguous(let people, let kind): return .refused(.ambiguous(reference: reference, people: people, by: kind))
        case .found(let manager, _):
            if manager == person { return .refused(.selfReference) }
            guard let chain = chain(from: manager, upTo: person, managers: managers) else {
                return .accepted(manager: manager)
            }
            return .refused(.cycle(chain: chain, manager: manager))
        }
    }

    /// Checks giving `person` the manager `reference` against everyone of
    /// `everyone` as their references resolve now: the one check every
    /// edit path runs (a table, a file; the command line, the form, `v`).
    public static func check<Source: PersonReferenceSource>(_ person: Int, to reference: String, among everyone: Source) -> Verdict {
        let (resolution, index) = ManagerResolution.resolve(everyone)
        return check(person, to: reference, in: index.including(PersonReferenceKind.allCases), managers: resolution.managers)
    }

    /// The reference as a source keeps it: without the spaces around it;
    /// nil (no manager) when nothing else is there.
    public static func kept(_ reference: String) -> String? {
        guard let first = reference.firstIndex(where: { !$0.isWhitespace }),
              let last = reference.lastIndex(where: { !$0.isWhitespace }) else { return nil }
        return String(reference[first...last])
    }

    /// The managers from `start` up to `person`, or nil when the chain ends
    /// (or goes round a loop) without meeting them. At most n steps.
    static func chain(from start: Int, upTo person: Int, managers: [Int32]) -> [Int]? {
        var chain = [start]
        var current = start
        while chain.count <= managers.count {
            let next = Int(managers[current])
            guard next >= 0, next < managers.count else { return nil }
            chain.append(next)
            if next == person { return chain }
            current = next
        }
        return nil
    }

    /// The refusal in words: `Ada Lovelace cannot report to Bob Smith: Bob
    /// Smith reports to Ada Lovelace`. `name` words a person (made safe for
    /// the screen by the caller); the reference is made safe here.
    public static func message(_ problem: Problem, person: Int, name: (Int) -> String) -> String {
        let who = name(person)
        switch problem {
        case .notFound(let reference):
            return "\(who) cannot report to \"\(DisplayText.sanitized(reference))\": no one here has that id, DN, email or name"
        case .ambiguous(let reference, let people, let kind):
            return "\(who) cannot report to \"\(DisplayText.sanitized(reference))\": \(NumberText.grouped(people)) people have that \(kind.noun);"
                + " give an id or an email"
        case .selfReference:
            return "\(who) cannot report to themselves"
        case .cycle(let chain, let manager):
            let reason = chain.count == 2
                ? "\(name(manager)) reports to \(who)"
                : "\(name(manager)) is under \(who) (\(chain.map(name).joined(separator: " › ")))"
            return "\(who) cannot report to \(name(manager)): \(reason)"
        }
    }
}
