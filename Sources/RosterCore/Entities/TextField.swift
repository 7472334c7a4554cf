/// The text fields of a person, in the order the store lays them out.
public enum TextField: Int, CaseIterable, Sendable {
    case id, guid, balance, picture, eyeColor, firstName, lastName, company
    case email, phone, address, favoriteFruit

    /// The field's bit in a person's `presentFields` mask.
    @inlinable
    public static func bit(_ field: TextField) -> UInt16 { 1 << UInt16(field.rawValue) }
    /// Set when the balance was written as a JSON number, not as text.
    public static let balanceIsNumberBit: UInt16 = 1 << 15
}
