import Synchronization
/// Writing people: a second seam beside `PeopleRepository`, which a source
/// offers or not (standard input does not; neither does an offline copy).
/// Saves block (a file is rewritten, a server answers): callers run them
/// off the main actor.
public protocol PeopleEditing: Sendable {
    /// Saves `changes` to the person whose record's `_id` is `recordID`.
    /// `base` is that person as the user saw them when they began: a field
    /// someone else changed since, and this edit changes too, is a
    /// conflict, never overwritten; others' changes to other fields stay.
    func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure)
    /// Deletes the people whose records' `_id`s are `recordIDs`, all or
    /// none; `base` are those people as the user saw them: one changed
    /// since by someone else is a conflict (nothing deleted).
    func delete(_ people: [Person]) throws(EditFailure)
    /// Adds a person of `changes` with the `_id` `recordID`, after everyone.
    func add(recordID: String, changes: [FieldChange]) throws(EditFailure)
    /// Puts back `people`, whom a delete of this source's took out, under
    /// the same `_id`s: where the source can, each as they were, where
    /// they were (a file: the record's own text, after the record it
    /// followed); else added with every value Roster knows.
    func restore(_ people: [Person]) throws(EditFailure)
    /// How far the save in flight has got, where a save takes long enough
    /// to show (a large file rewritten); nil where it never does.
    var saveProgress: SaveProgress? { get }
    /// Whom people report to, where the source keeps it and Roster edits
    /// it (a file's manager field, a table's column); nil where it does
    /// not: the form offers no manager then.
    var managers: (any ManagerEditing)? { get }
    /// The fields a person's record here can hold, in the form's order,
    /// where the source keeps fewer than every field (a vCard or an LDIF
    /// entry: names, company, email, phone, address); nil: every field.
    /// The form offers only these, rather than refusing the rest at save.
    var fieldsKept: [EditableField]? { get }
}

/// Reading and setting a person's manager reference (an `_id`, email, DN
/// or full name), beside `PeopleEditing`: the form prefills it and saves
/// it through the one check (`ManagerChange`). Calls block (a file is
/// read again): callers run them off the main actor.
public protocol ManagerEditing: Sendable {
    /// The person's reference as the source holds it now.
    func manager(of recordID: String) throws(EditFailure) -> ManagerField
    /// Sets it (empty: none), checked first; refused with the reason,
    /// nothing written.
    func setManager(of recordID: String, to reference: String) throws(EditFailure)
}

/// A person's manager as a source holds it.
public enum ManagerField: Equatable, Sendable {
    /// The source has no place for one (a CSV file without a manager column).
    case notKept
    /// The reference as written; nil: none.
    case reference(String?)

    /// What a manager reference is called in every format: a JSON key, a
    /// CSV header, a card's `RELATED` type, an LDIF attribute, a column.
    public static let name = "manager"
}

extension PeopleEditing {
    public var saveProgress: SaveProgress? { nil }
    public var managers: (any ManagerEditing)? { nil }
    public var fieldsKept: [EditableField]? { nil }

    public func restore(_ people: [Person]) throws(EditFailure) {
        for person in people { try add(recordID: person.id, changes: person.allValues) }
    }
}

/// How far a save has got: bytes of the new file written, of how many.
/// The saving thread moves it; the form's progress bar reads it as it
/// draws. Equal only to itself.
public final class SaveProgress: Sendable, Equatable {
    private let done = Atomic<Int>(0)
    private let total = Atomic<Int>(0)

    public init() {}

    /// A save of `bytes` begins.
    public func begin(total bytes: Int) {
        done.store(0, ordering: .relaxed)
        total.store(bytes, ordering: .relaxed)
    }

    public func advance(to bytes: Int) { done.store(bytes, ordering: .relaxed) }

    public static func == (left: SaveProgress, right: SaveProgress) -> Bool { left === right }

    /// Done so far, 0 to 1; nil before a save has said how much it writes.
    public var fraction: Double? {
        let total = total.load(ordering: .relaxed)
        return total > 0 ? min(1, Double(done.load(ordering: .relaxed)) / Double(total)) : nil
    }
}

/// Why a save did not happen: one line for the screen or the command
/// line (which names the file or table), and nothing was written.
public struct EditFailure: Error, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The source cannot be written (standard input, a read-only file).
        case readOnly
        /// Someone else changed a field this edit changes.
        case conflict
        /// The person is no longer there (or never was: an unknown `_id`).
        case notFound
        /// The file is not readable as its format.
        case unreadable
        /// The edit would leave what no reader takes (a person without a
        /// name, whom the loader skips): refused wherever it is sent, for good.
        case invalid
        /// Someone else holds the data locked for now (another program
        /// writing to an SQLite file, a table another session locked): the
        /// same save may land in a moment, and the form tries it again.
        case busy
        /// Anything else: a lost server, a full disk.
        case failed
    }

    public let kind: Kind
    public let message: String
    /// For a conflict over fields: the person as the source holds them
    /// now, for the conflict screen to merge with.
    public let theirs: Person?
    /// Whose change `theirs` is, as far as the source knows ("saved to
    /// people.json by another program at 14:02:31"): the conflict screen says it.
    public let theirsNote: String?

    public init(_ kind: Kind, _ message: String, theirs: Person? = nil, theirsNote: String? = nil) {
        self.kind = kind
        self.message = message
        self.theirs = theirs
        self.theirsNote = theirsNote
    }
}

extension Person {
    /// The fields of `changes` whose value in `self` differs from `base`'s
    /// and from the change's own: what someone else changed meanwhile that
    /// this edit would overwrite.
    public func conflicts(with changes: [FieldChange], base: Person) -> [EditableField] {
        let mine = base.applying(changes)
        return changes.map(\.field).filter { field in
            let now = value(of: field), before = base.value(of: field)
            return now != before && now != mine.value(of: field)
        }
    }

    /// The changes of `changes` that change something in `self`: one that
    /// leaves its field's value as it is (`name=Renee Vega` setting a last
    /// name that is Vega already) is none. Empty: the edit changes nothing,
    /// and is not written.
    public func effective(_ changes: [FieldChange]) -> [FieldChange] {
        let after = applying(changes)
        return changes.filter { value(of: $0.field) != after.value(of: $0.field) }
    }

    /// A field's value as text, for comparing and saying.
    public func value(of field: EditableField) -> String {
        switch field {
        case .text(let text): return self.text(text)
        case .age: return age.map(String.init) ?? ""
        case .balance: return balance.cents.map { Balance.format(cents: $0) } ?? balance.text
        case .active: return isActive.map { $0 ? "yes" : "no" } ?? ""
        }
    }
}

extension Person {
    /// Whether any value an edit can set differs from `other`'s (what a
    /// delete checks against the person as shown).
    public func differs(from other: Person) -> Bool {
        EditableField.names.contains { value(of: $0.1) != other.value(of: $0.1) }
    }

    /// Every value the person has, as changes that would make them anew
    /// (an undone delete); values the checks refuse are left out.
    public var allValues: [FieldChange] {
        EditableField.names.compactMap { _, field in
            let text = value(of: field)
            return text.isEmpty ? nil : try? FieldCheck.change(field, text)
        }
    }
}

/// The last change saved from a screen, and how to take it back (`U`).
public enum UndoableChange: Equatable, Sendable {
    /// `before` puts back what an update changed; `after` is the person
    /// as the update left them (someone's change since is a conflict).
    case updated(before: [FieldChange], after: Person)
    /// Deleted again.
    case added(Person)
    /// Put back under the same `_id`s (`PeopleEditing.restore`: in a file,
    /// each record's own text where it was).
    case deleted([Person])
    /// `person`'s manager set back from `after` to `before` ("": none),
    /// with the update saved beside it (`fields`), if any.
    indirect case managerChanged(person: Person, before: String, after: String, fields: UndoableChange?)

    /// `fields` (the update saved with it, if any), and the manager
    /// change `manager` of `person` saved first, if there was one.
    public static func with(manager: (before: String, after: String)?, of person: Person, fields: UndoableChange?) -> UndoableChange? {
        guard let manager else { return fields }
        return .managerChanged(person: person, before: manager.before, after: manager.after, fields: fields)
    }

    /// The update `changes` of `base`, undone; nil when a value it had
    /// would not pass today's checks (it could not be saved back).
    public static func update(_ changes: [FieldChange], of base: Person) -> UndoableChange? {
        var before: [FieldChange] = []
        for change in changes {
            if case .text(let field) = change.field, !base.has(field) {
                before.append(FieldChange(field: change.field, value: .absent))  // it was not there: it goes again
                continue
            }
            guard let back = try? FieldCheck.change(change.field, base.value(of: change.field)) else { return nil }
            before.append(back)
        }
        return .updated(before: before, after: base.applying(changes))
    }

    /// Takes the change back through `editing`.
    public func undo(through editing: any PeopleEditing) throws(EditFailure) {
        switch self {
        case .updated(let before, let after): try editing.update(recordID: after.id, changes: before, base: after)
        case .added(let person): try editing.delete([person])
        case .deleted(let people): try editing.restore(people)
        case .managerChanged(let person, let before, let after, let fields):
            guard let managers = editing.managers else { throw EditFailure(.readOnly, "managers cannot be changed here") }
            // Someone's change since is theirs: nothing is put back over it.
            if case .reference(let now) = try managers.manager(of: person.id), ManagerChange.kept(now ?? "") != ManagerChange.kept(after) {
                throw EditFailure(.conflict, "\(Self.name(of: person))'s manager was changed meanwhile; left as it is")
            }
            try fields?.undo(through: editing)
            try managers.setManager(of: person.id, to: before)
        }
    }

    /// The person to select once it is undone (nil: the row where the selection was).
    public var selectedAfterUndo: String? {
        switch self {
        case .updated(_, let after): return after.id
        case .added: return nil
        case .deleted(let people): return people.first?.id
        case .managerChanged(let person, _, _, _): return person.id
        }
    }

    /// "Ada Lovelace's email put back", "Ada Lovelace deleted again", "2 people added back".
    public var done: String {
        switch self {
        case .updated(let before, let after):
            // Named as they are once it is undone, if the edit took their name.
            let name = Self.name(of: after, orElse: after.applying(before))
            return "\(name)'s \(before.map { $0.field.label.lowercased() }.joined(separator: ", ")) put back"
        case .added(let person): return "\(Self.name(of: person)) deleted again"
        case .deleted(let people):
            return people.count == 1 ? "\(Self.name(of: people[0])) added back" : "\(NumberText.count(people.count, "person", "people")) added back"
        case .managerChanged(let person, _, _, .updated(let before, _)?):
            return "\(Self.name(of: person))'s manager, \(before.map { $0.field.label.lowercased() }.joined(separator: ", ")) put back"
        case .managerChanged(let person, _, _, _): return "\(Self.name(of: person))'s manager put back"
        }
    }

    /// The person's name (`other`'s if they have none), or their `_id`.
    private static func name(of person: Person, orElse other: Person? = nil) -> String {
        for named in [person, other].compactMap({ $0 }) where FieldCheck.nameProblem(of: named) == nil { return named.fullName }
        return person.id.isEmpty ? "the person" : "_id \(person.id)"
    }
}
