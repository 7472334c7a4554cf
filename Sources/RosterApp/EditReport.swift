import RosterCore
import RosterStore

/// The one line `roster update|add|delete` says once it saved: the source,
/// who, and what changed ("people.json: Ada Lovelace: phone +1 555 0100 →
/// +1 555 0199"), every value made safe for a terminal and cut to fit.
/// Standard error carries it, so that standard output stays what scripts
/// read (add's new `_id`, a row's version); `-q` leaves it out.
enum EditReport {
    /// The most a value takes of the line.
    static let valueColumns = 40
    /// The most the names of the people deleted take.
    static let namesColumns = 60

    /// What `operation` did to `target`; `before` are the people it changed
    /// as the source held them just before (a file and a table both say).
    static func line(for operation: RecordOperation, in target: String, before: [Person]) -> String? {
        let source = DisplayText.sanitized(target)
        switch operation {
        case .update(let id, let changes):
            let old = before.first { $0.id == id }
            let who = old.map(PeopleNames.name(of:)) ?? "_id \(DisplayText.sanitized(id))"
            return "\(source): \(who): " + describe(changes, from: old)
        case .add(let id, let changes):
            var added = Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }.applying(changes)
            added.id = id
            return "\(source): added \(PeopleNames.name(of: added))" + (added.fullName.isEmpty ? "" : " (_id \(DisplayText.sanitized(id)))")
        case .delete(let ids):
            let names = ids.map { id in before.first { $0.id == id }.map(PeopleNames.name(of:)) ?? "_id \(DisplayText.sanitized(id))" }
            let count = names.count == 1 ? "" : NumberText.count(names.count, "person", "people") + ": "
            return "\(source): deleted \(count)\(PeopleNames.list(names, columns: namesColumns))"
        case .restore, .setManager:
            return nil  // a manager change says its own line (before and after are references, not a person's fields)
        }
    }

    /// "phone +1 555 0100 → +1 555 0199; age 36 → 37": the fields that
    /// change, each once ("nothing changed" when none does); without the
    /// person as they were, "phone → +1 555 0199".
    static func describe(_ changes: [FieldChange], from old: Person?) -> String {
        let new = (old ?? Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }).applying(changes)
        let changing = old?.effective(changes) ?? changes
        guard !changing.isEmpty else { return "nothing changed" }
        return changing.map { change in
            let after = shown(new.value(of: change.field))
            guard let old else { return "\(change.field.name) → \(after)" }
            return "\(change.field.name) \(shown(old.value(of: change.field))) → \(after)"
        }.joined(separator: "; ")
    }

    /// A value as the line shows it: safe, cut to `valueColumns`, "(none)" for nothing.
    private static func shown(_ value: String) -> String {
        value.isEmpty ? "(none)" : DisplayText.fit(value, columns: valueColumns)
    }
}
