/// Which of a person's fields anyone in a source has: a list column no one
/// has a value in is left out (a vCard file has no age, balance or eye
/// colour, and a column of blanks would push its phone off the screen).
public struct FieldsInUse: Equatable, Sendable {
    /// `TextField.bit`s of the text fields some record has.
    public var textFields: UInt16
    public var age: Bool
    public var active: Bool
    /// The record's `index` (a number some exports number people with).
    public var index: Bool

    public init(textFields: UInt16, age: Bool, active: Bool, index: Bool) {
        self.textFields = textFields
        self.age = age
        self.active = active
        self.index = index
    }

    /// Every field: a source that does not say (a database).
    public static let all = FieldsInUse(textFields: .max, age: true, active: true, index: true)

    public func contains(_ field: TextField) -> Bool {
        textFields & TextField.bit(field) != 0
    }
}
