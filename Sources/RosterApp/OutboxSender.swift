import RosterCore
import RosterSQL
import RosterStore

/// Where an outbox is sent: a database table that applies an edit under
/// its operation id once (`SQLPeopleRepository.send`).
protocol OutboxDestination: Sendable {
    /// True when applied now, false when it had been applied before.
    func send(_ operation: RecordOperation, operationID: String, base: Person?, deleting: [Person]) throws(EditFailure) -> Bool
}

extension SQLPeopleRepository: OutboxDestination {}
extension OutboxWriter: OutboxDestination {}

/// Sends an outbox's edits to the server, in the order they were made,
/// one transaction each, each under its operation id (an edit sent before
/// whose reply was lost is recognised, not applied twice).
///
/// - A conflict (someone changed a field this edit changes) holds back
///   that person's later edits; they stay in the outbox, and the report
///   carries them for the conflict screen. The other people's go on.
/// - An edit the server refuses as a screen's save would be refused (the
///   person was deleted meanwhile; a delete of someone changed meanwhile;
///   an edit that, on top of someone's change, leaves the person without
///   a name) is crossed off and said, as that save would have been.
/// - A lost connection (or any other failure) stops the sending: what is
///   left stays, for the next time the server answers.
enum OutboxSender {
    /// An edit the server refused because someone changed the same fields:
    /// the person as first shown, the edits made to them offline (in
    /// order, composed), and the person as the server has them now.
    struct HeldEdit: Equatable, Sendable {
        let base: Person
        let changes: [FieldChange]
        let theirs: Person
        /// The outbox operations it stands for (crossed off once settled).
        let operations: Set<String>
    }

    struct Report: Equatable, Sendable {
        var sent = 0
        /// Applied before (the reply had been lost): crossed off, not sent again.
        var alreadyApplied = 0
        /// Refused for good, each as one line ("not sent: …").
        var refused: [String] = []
        var held: [HeldEdit] = []
        /// Why the sending stopped before the end, if it did.
        var stopped: String?
        /// The `_id`s of people with edits still in the outbox.
        var unsent: Set<String> = []

        var isEmpty: Bool { sent == 0 && alreadyApplied == 0 && refused.isEmpty && held.isEmpty && stopped == nil }

        /// "3 offline edits sent", "2 offline edits sent; 1 person changed … meanwhile: choose on the conflict screen".
        var summary: String { summary(mentioningHeld: true) }

        /// The summary, the held edits left out once they are settled.
        func summary(mentioningHeld: Bool) -> String {
            // What did not go first: at 80 columns the end of a long line is cut.
            var parts = refused
            if sent + alreadyApplied > 0 { parts.append("\(NumberText.count(sent + alreadyApplied, "offline edit", "offline edits")) sent") }
            if mentioningHeld, !held.isEmpty {
                parts.append("\(NumberText.count(held.count, "person", "people")) changed on the server meanwhile: choose on the conflict screen")
            }
            if let stopped { parts.append("the rest not sent yet (\(stopped)); kept") }
            return parts.joined(separator: "; ")
        }
    }

    /// "not sent: Ada Lovelace's edit (someone deleted them meanwhile)": who,
    /// by name, and why, short (the table's own words name an `_id`).
    static func refusal(of operation: OutboxOperation, base: Person?, changes: [FieldChange], _ error: EditFailure) -> String {
        let named = base?.fullName ?? Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }
            .applying(changes).fullName
        let who = named.isEmpty ? "_id \(operation.person)" : named
        if error.kind == .invalid {
            // Made on top of someone's change meanwhile, it would leave the person without a name.
            return "not sent: \(operation.kind == .add ? "the add of \(who)" : "\(who)'s edit") (\(FieldCheck.nameNeeded))"
        }
        switch operation.kind {
        case .update: return "not sent: \(who)'s edit (someone deleted them meanwhile)"
        case .add: return "not sent: the add of \(who) (someone has that _id)"
        case .delete:
            let gone = error.message.contains("was deleted") || error.kind == .notFound
            return "not sent: the delete of \(who) (someone \(gone ? "deleted them already" : "changed them meanwhile"))"
        }
    }

    static func send(_ outbox: Outbox, to destination: some OutboxDestination) -> Report {
        var report = Report()
        var crossedOff: Set<String> = []
        var heldPeople: [String: (operations: [OutboxOperation], theirs: Person)] = [:]
        var heldOrder: [String] = []
        let operations: [OutboxOperation]
        switch outbox.read() {
        case .success(let read): operations = read
        case .failure(let refusal):
            report.refused.append("not sent: edits made offline (the outbox \(outbox.path) \(refusal.reason))")
            return report
        }
        for (index, operation) in operations.enumerated() {
            if heldPeople[operation.person] != nil {
                heldPeople[operation.person]?.operations.append(operation)
                continue
            }
            guard let changes = operation.fieldChanges else {
                report.refused.append("not sent: an edit of \(operation.person) no longer reads")
                crossedOff.insert(operation.id)
                continue
            }
            let base = operation.basePerson
            let recordOperation: RecordOperation = switch operation.kind {
            case .update: .update(id: operation.person, changes: changes)
            case .add: .add(id: operation.person, changes: changes)
            case .delete: .delete(ids: [operation.person])
            }
            do throws(EditFailure) {
                let applied = try destination.send(recordOperation, operationID: operation.id, base: operation.kind == .update ? base : nil,
                                                   deleting: operation.kind == .delete ? base.map { [$0] } ?? [] : [])
                if applied { report.sent += 1 } else { report.alreadyApplied += 1 }
                // A test build dies here as if the reply had been lost: sent again next time, recognised then.
                Platform.crashPoint("after-send")
                crossedOff.insert(operation.id)
            } catch {
                if error.kind == .conflict, operation.kind == .update, base != nil, let theirs = error.theirs {
                    heldPeople[operation.person] = ([operation], theirs)
                    heldOrder.append(operation.person)
                } else if [.conflict, .notFound, .invalid].contains(error.kind) {
                    report.refused.append(Self.refusal(of: operation, base: base, changes: changes, error))
                    crossedOff.insert(operation.id)
                } else {
                    report.stopped = error.message
                    report.unsent = Set(operations[index...].map(\.person))
                    break
                }
            }
        }
        report.held = heldOrder.compactMap { heldPeople[$0].flatMap { Self.heldEdit($0.operations, theirs: $0.theirs) } }
        report.unsent.formUnion(heldOrder)
        if let failure = outbox.remove(crossedOff) {
            // Sent but not crossed off: sent again next time, and recognised then.
            report.refused.append("the outbox could not be updated (\(failure))")
        }
        return report
    }

    /// A person's edits the server refused for a conflict, as one edit for
    /// the conflict screen: later edits are made on top of the first, and
    /// together they are what the user wants. (A delete made after the
    /// edits is left in the outbox, for the next sending.)
    static func heldEdit(_ operations: [OutboxOperation], theirs: Person) -> HeldEdit? {
        guard let base = operations.first?.basePerson else { return nil }
        var mine = base
        var ids: Set<String> = []
        var fields: [EditableField] = []
        for operation in operations where operation.kind == .update {
            ids.insert(operation.id)
            guard let changes = operation.fieldChanges else { continue }
            mine = mine.applying(changes)
            fields += changes.map(\.field).filter { !fields.contains($0) }
        }
        let changes = fields.compactMap { field in try? FieldCheck.change(field, mine.value(of: field)) }
        return HeldEdit(base: base, changes: changes, theirs: theirs, operations: ids)
    }
}
