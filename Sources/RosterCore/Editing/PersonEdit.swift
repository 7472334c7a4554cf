/// A value of a person an edit may set, named as the query language names
/// it (`email=`, `age=`, `balance=`, `active=`, `first=`…). The record's
/// `_id` is its key, never edited.
public enum EditableField: Hashable, Sendable {
    case text(TextField)
    case age, balance, active

    /// Every field with its spellings, the first being the one messages
    /// use: the query language's, less those that are no one field (name,
    /// the address's parts) and the `_id`, and with the picture.
    public static let names: [([String], EditableField)] = QueryParser.fieldNames.compactMap { names, field in
        switch field {
        case .text(let scope):
            guard let text = TextField.allCases.first(where: { TextScope(field: $0) == scope }), text != .id else { return nil }
            return (names, .text(text))
        case .number(.age): return (names, .age)
        case .number(.balance): return (names, .balance)
        case .active: return (names, .active)
        // The org chart's terms name no value of the person's own.
        case .org, .depth: return nil
        }
    } + [(["picture"], .text(.picture))]

    /// The field a name (any case, `_` and `-` ignored) spells, or nil.
    public init?(name: String) {
        let folded = QueryParser.folded(fieldName: name)
        guard let found = Self.names.first(where: { $0.0.contains(folded) }) else { return nil }
        self = found.1
    }

    /// The person's screen's label ("Eye color").
    public var label: String {
        switch self {
        case .text(let text): return text.label
        case .age: return "Age"
        case .balance: return "Balance"
        case .active: return "Active"
        }
    }

    /// How messages name the field.
    public var name: String { Self.names.first { $0.1 == self }?.0[0] ?? "?" }

    /// The names, for help and messages.
    public static var list: String { names.map { $0.0[0] }.joined(separator: ", ") }
}

/// A checked value for a field; `nil` inside clears it (the record no
/// longer says anything about it).
public enum EditedValue: Equatable, Sendable {
    case text(String)
    case age(Int?)
    case balance(cents: Int64?)
    case active(Bool?)
    /// A text field the record did not have, taken out again (an undo):
    /// not `""`, which a record does say.
    case absent
}

/// One field set to one checked value.
public struct FieldChange: Equatable, Sendable {
    public let field: EditableField
    public let value: EditedValue

    public init(field: EditableField, value: EditedValue) {
        self.field = field
        self.value = value
    }
}

/// Why a value cannot be saved: one line that names the field.
public struct EditProblem: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}

/// The checks every edit passes, typed in a form or given to a command:
/// the same rules wherever the value comes from.
public enum FieldCheck {
    /// The longest text a field takes, in bytes.
    public static let longestText = 4096

    /// `field=value` as a command gives it.
    public static func change(from assignment: String) throws(EditProblem) -> FieldChange {
        let (name, value) = try split(assignment)
        guard let field = EditableField(name: name) else { throw unknown(name) }
        return try change(field, value)
    }

    /// Whether `word` reads as `field=value` for a field Roster edits
    /// (`email=…`, `name=…`), rather than as an ID: an LDIF entry's ID is
    /// its DN, which has `=` too (`uid=ada,ou=People,…`) but names no field.
    public static func namesField(_ word: String) -> Bool {
        guard let (name, _) = try? split(word) else { return false }
        return QueryParser.folded(fieldName: name) == "name" || EditableField(name: name) != nil
    }

    /// `field=value` as a command gives it, and `name=First Last` as a
    /// search names the whole name: both halves, split as a file's whole
    /// name is (the last word is the last name).
    public static func changes(from assignment: String) throws(EditProblem) -> [FieldChange] {
        let (name, value) = try split(assignment)
        guard QueryParser.folded(fieldName: name) == "name" else { return [try change(from: assignment)] }
        let words = value.trimmingSpaces.split(separator: " ", omittingEmptySubsequences: true)
        let last = words.last.map(String.init) ?? ""
        return [try change(.text(.firstName), words.dropLast().joined(separator: " ")), try change(.text(.lastName), last)]
    }

    private static func split(_ assignment: String) throws(EditProblem) -> (name: String, value: String) {
        // By scalars: a value starting with a joiner or a mark makes one character of it and the `=`.
        let scalars = assignment.unicodeScalars
        guard let equals = scalars.firstIndex(of: "=") else {
            throw EditProblem("expected field=value, found '\(DisplayText.sanitized(assignment))'")
        }
        return (String(scalars[..<equals]), String(scalars[scalars.index(after: equals)...]))
    }

    /// Why `name` is no field an edit sets: a part of the address (set
    /// whole), a name one edit from a field's (did you mean), or neither.
    private static func unknown(_ name: String) -> EditProblem {
        let shown = DisplayText.sanitized(name)
        if ["street", "city", "state", "zip"].contains(QueryParser.folded(fieldName: name)) {
            return EditProblem("\(shown) is a part of the address, which is set whole (address=…)")
        }
        if let guess = EditDistance.nearest(to: QueryParser.folded(fieldName: name), among: EditableField.names.map(\.0) + [["name"]]) {
            return EditProblem("unknown field '\(shown)'; did you mean \(guess)?")
        }
        return EditProblem("unknown field '\(shown)' (fields: name, \(EditableField.list))")
    }

    /// `text` checked as a value of `field`; empty clears the field.
    public static func change(_ field: EditableField, _ text: String) throws(EditProblem) -> FieldChange {
        FieldChange(field: field, value: try value(of: field, from: text))
    }

    static func value(of field: EditableField, from text: String) throws(EditProblem) -> EditedValue {
        if let control = text.unicodeScalars.first(where: isControl) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw EditProblem("\(field.name): a control character (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)) is not allowed")
        }
        guard text.utf8.count <= longestText else { throw EditProblem("\(field.name): longer than \(longestText) bytes") }
        let trimmed = text.trimmingSpaces
        switch field {
        case .age:
            guard !trimmed.isEmpty else { return .age(nil) }
            guard trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let age = Int(trimmed), age <= 200 else {
                throw EditProblem("age: expected a whole number of years (0 to 200), found '\(DisplayText.sanitized(trimmed))'")
            }
            return .age(age)
        case .balance:
            guard !trimmed.isEmpty else { return .balance(cents: nil) }
            guard case .cents(let cents) = Balance.amount(fromUTF8: trimmed.utf8) else {
                throw EditProblem("balance: expected an amount such as $1,200.00, found '\(DisplayText.sanitized(trimmed))'")
            }
            return .balance(cents: cents)
        case .active:
            switch trimmed.lowercased() {
            case "": return .active(nil)
            case "yes", "y", "true", "1": return .active(true)
            case "no", "n", "false", "0": return .active(false)
            default: throw EditProblem("active: expected yes or no, found '\(DisplayText.sanitized(trimmed))'")
            }
        case .text(.email):
            guard !trimmed.isEmpty else { return .text("") }
            let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !trimmed.contains(" ") else {
                throw EditProblem("email: expected name@domain, found '\(DisplayText.sanitized(trimmed))'")
            }
            return .text(trimmed)
        case .text:
            return .text(trimmed)
        }
    }

    /// A new record's `_id`: 24 random hexadecimal digits, the shape of the
    /// ids directory files carry.
    public static func newRecordID() -> String {
        (0..<3).map { _ in
            let word = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            return String(repeating: "0", count: 8 - word.count) + word
        }.joined()
    }

    /// C0 (tab and line breaks too: a field is one line), DEL and C1.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}


extension Person {
    /// The person with `changes` made: a set text is present (even empty),
    /// a cleared figure absent; a balance is written `$1,200.00`.
    public func applying(_ changes: [FieldChange]) -> Person {
        var person = self
        for change in changes {
            switch change.value {
            case .text(let text):
                guard case .text(let field) = change.field else { continue }
                person.setText(field, text)
                person.presentTextFields |= TextField.bit(field)
            case .absent:
                guard case .text(let field) = change.field else { continue }
                person.setText(field, "")
                person.presentTextFields &= ~TextField.bit(field)
            case .age(let age):
                person.age = age
            case .active(let active):
                person.isActive = active
            case .balance(let cents):
                person.balance = Balance(text: cents.map { Balance.format(cents: $0) } ?? "", cents: cents)
                person.presentTextFields &= ~TextField.balanceIsNumberBit
                if cents == nil {
                    person.presentTextFields &= ~TextField.bit(.balance)
                } else {
                    person.presentTextFields |= TextField.bit(.balance)
                }
            }
        }
        return person
    }
}
