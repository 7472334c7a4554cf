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

/// How each part of Roster spells a text field: the one table of names
/// that the readers, the writers, the database's columns, the query
/// language and the person's screen share. A new text field is a case
/// above and a line in each of these.
extension TextField {
    /// The record's JSON key (the name's two parts are keys of its `name` object).
    public var jsonKey: String {
        switch self {
        case .id: return "_id"
        case .guid: return "guid"
        case .balance: return "balance"
        case .picture: return "picture"
        case .eyeColor: return "eyeColor"
        case .firstName: return "first"
        case .lastName: return "last"
        case .company: return "company"
        case .email: return "email"
        case .phone: return "phone"
        case .address: return "address"
        case .favoriteFruit: return "favoriteFruit"
        }
    }

    /// The CSV column `--export csv` writes the text in and the CSV reader
    /// reads it from (the balance's text: `balance` is its plain amount).
    public var csvHeader: String {
        switch self {
        case .id: return "id"
        case .guid: return "guid"
        case .balance: return "balance_text"
        case .picture: return "picture"
        case .eyeColor: return "eye_color"
        case .firstName: return "first_name"
        case .lastName: return "last_name"
        case .company: return "company"
        case .email: return "email"
        case .phone: return "phone"
        case .address: return "address"
        case .favoriteFruit: return "favorite_fruit"
        }
    }

    /// The database column holding the text (`roster import`): the CSV
    /// header's name, but for the balance's text, which is `balance`.
    public var columnName: String { self == .balance ? "balance" : csvHeader }

    /// The query language's names for the field (`fruit:apple`), the first
    /// the one help shows; none for the balance's text (`balance` is the
    /// amount) and the picture, which nobody searches.
    public var queryNames: [String] {
        switch self {
        case .id: return ["id"]
        case .guid: return ["guid"]
        case .balance, .picture: return []
        case .eyeColor: return ["eye", "eyecolor", "eyecolour"]
        case .firstName: return ["first", "firstname"]
        case .lastName: return ["last", "lastname"]
        case .company: return ["company"]
        case .email: return ["email"]
        case .phone: return ["phone"]
        case .address: return ["address"]
        case .favoriteFruit: return ["fruit", "favoritefruit", "favouritefruit"]
        }
    }

    /// The list's column for a field with nothing special to show (`C`
    /// ticks it; `s` sorts by it): its title and width. Nil for the fields
    /// the list shows in columns of their own making (the name, the
    /// company, the contacts, the `_id`) or not at all.
    public var plainColumn: (title: String, width: Int)? {
        switch self {
        case .eyeColor: return ("Eye color", 9)
        case .favoriteFruit: return ("Fruit", 10)
        case .id, .guid, .balance, .picture, .firstName, .lastName, .company, .email, .phone, .address: return nil
        }
    }

    /// How the counts (`F`) name a plain field, which they count people by
    /// ("eye color"); nil for the others (about a value per person, or
    /// counted on their own terms: the company).
    public var countLabel: String? { plainColumn.map { $0.title.lowercased() } }

    /// The fields with a `plainColumn`, in `TextField`'s order.
    public static let plainColumns = allCases.filter { $0.plainColumn != nil }

    /// The name, company and contacts: what CSV and the form put first.
    public static let leading: [TextField] = [.firstName, .lastName, .company, .email, .phone, .address]

    /// Whether the list's rows carry the field (`ListedPerson`): all but
    /// the two no column shows, which a database would send for nothing.
    public var isListed: Bool { self != .picture && self != .guid }

    /// The person's screen's label.
    public var label: String {
        switch self {
        case .id: return "ID"
        case .guid: return "GUID"
        case .balance: return "Balance"
        case .picture: return "Picture"
        case .eyeColor: return "Eye color"
        case .firstName: return "First name"
        case .lastName: return "Last name"
        case .company: return "Company"
        case .email: return "Email"
        case .phone: return "Phone"
        case .address: return "Address"
        case .favoriteFruit: return "Favorite fruit"
        }
    }
}

/// A value of a record as JSON lays it out: what the JSON reader expects
/// and the JSON writer writes, in that order.
public enum RecordValue: Equatable, Sendable {
    /// A text field (not the name's parts: they are `name`'s).
    case text(TextField)
    case index, isActive, age
    /// The `name` object, holding the first and last names.
    case name

    /// The text fields in `TextField`'s order, the name object where its
    /// first part falls, and the three figures where the records Roster
    /// was made for keep them: `index` after `_id`, `isActive` after
    /// `guid`, `age` after `picture`.
    public static let jsonOrder: [RecordValue] = TextField.allCases.flatMap { field -> [RecordValue] in
        switch field {
        case .id: return [.text(field), .index]
        case .guid: return [.text(field), .isActive]
        case .picture: return [.text(field), .age]
        case .firstName: return [.name]
        case .lastName: return []
        default: return [.text(field)]
        }
    }

    /// The key this value has in a JSON record.
    public var jsonKey: String {
        switch self {
        case .text(let field): return field.jsonKey
        case .index: return "index"
        case .isActive: return "isActive"
        case .age: return "age"
        case .name: return "name"
        }
    }
}

/// A column of the CSV Roster writes (`--export csv`) and reads first.
public enum CSVColumn: Equatable, Sendable {
    case text(TextField)
    /// The balance as a plain number (`2107.15`); its text is `.text(.balance)`.
    case balanceAmount
    case age, active, index

    /// The name, company and contacts first, then the balance, age and
    /// activity, then every other text field in `TextField`'s order, with
    /// the record's index after its `_id`.
    public static let order: [CSVColumn] = {
        let rest = TextField.allCases.filter { !TextField.leading.contains($0) && $0 != .balance }
        return TextField.leading.map(CSVColumn.text) + [.balanceAmount, .text(.balance), .age, .active]
            + rest.flatMap { $0 == .id ? [.text($0), .index] : [CSVColumn.text($0)] }
    }()

    public var header: String {
        switch self {
        case .text(let field): return field.csvHeader
        case .balanceAmount: return "balance"
        case .age: return "age"
        case .active: return "active"
        case .index: return "index"
        }
    }
}
