/// How people are ordered within a section (or in the flat list).
///
/// Any column the list can show is a key: the names, the figures (balance,
/// age, active) and the text columns. Text compares folded (case and Latin
/// accents ignored, as search does), byte by byte, so every source orders
/// alike. Whatever the key and direction, people without a value come
/// last, ties go by name (reversed with a reversed text key), then file
/// order.
public struct SortOrder: Equatable, Sendable {
    /// Remembered and printed by `rawValue` ("lastName", "eyeColor"). (Not
    /// `RawRepresentable`: its `==` would compare the names, not the cases.)
    public enum Key: Hashable, CaseIterable, Sendable, CustomStringConvertible {
        case lastName, firstName, balance, age
        case email, phone, active, company, city, state, zip, address
        /// A field of the record with a plain column (`TextField.plainColumn`).
        case text(TextField)
        case recordID

        public static let allCases: [Key] = [.lastName, .firstName, .balance, .age, .email, .phone, .active, .company, .city, .state,
                                             .zip, .address] + TextField.plainColumns.map(Key.text) + [.recordID]

        public var rawValue: String {
            switch self {
            case .lastName: return "lastName"
            case .firstName: return "firstName"
            case .balance: return "balance"
            case .age: return "age"
            case .email: return "email"
            case .phone: return "phone"
            case .active: return "active"
            case .company: return "company"
            case .city: return "city"
            case .state: return "state"
            case .zip: return "zip"
            case .address: return "address"
            case .text(let field): return "\(field)"
            case .recordID: return "recordID"
            }
        }

        public init?(rawValue: String) {
            guard let key = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = key
        }

        public var description: String { rawValue }

        var label: String {
            switch self {
            case .lastName: return "last name"
            case .firstName: return "first name"
            case .text(let field): return (field.plainColumn?.title ?? field.label).lowercased()
            case .recordID: return "id"
            default: return rawValue
            }
        }

        /// The record's field a text key orders by as the record has it;
        /// nil for the names, the figures and the address's parts.
        public var recordField: TextField? {
            switch self {
            case .email: return .email
            case .phone: return .phone
            case .company: return .company
            case .address: return .address
            case .text(let field): return field
            case .recordID: return .id
            case .lastName, .firstName, .balance, .age, .active, .city, .state, .zip: return nil
            }
        }

        /// A key compared as text (folded), not as a number or a name.
        public var isText: Bool {
            switch self {
            case .lastName, .firstName, .balance, .age, .active: return false
            default: return true
            }
        }

        /// The key `--sort` and the remembered place spell it with
        /// ("eye-color"); `named` also takes the column's title's words.
        public var spelling: String {
            switch self {
            case .lastName: return "last"
            case .firstName: return "first"
            case .text: return label.split(separator: " ").joined(separator: "-")
            case .recordID: return "id"
            default: return rawValue
            }
        }

        /// The key spelled `text` (any case, `-` or `_` or nothing between
        /// words), nil if none is.
        public static func named(_ text: String) -> Key? {
            let word = String(text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
            switch word {
            case "last", "lastname", "name": return .lastName
            case "first", "firstname": return .firstName
            case "id", "recordid", "_id": return .recordID
            default:
                // A plain field also goes by its query names ("eye", "fruit").
                if let field = TextField.plainColumns.first(where: { $0.queryNames.contains(word) }) { return .text(field) }
                return allCases.first { $0.rawValue.lowercased() == word }
            }
        }
    }

    public var key: Key
    public var descending: Bool

    public init(_ key: Key = .lastName, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }

    public static let byLastName = SortOrder()

    /// The next of `keys` after this one (`s`), in its natural direction:
    /// ascending (A→Z, smallest first), as `--sort` takes a key without
    /// `:desc`. A direction `S` chose was for the key it reversed. A key
    /// not among `keys` goes to the first.
    public func next(among keys: [Key]) -> SortOrder {
        guard !keys.isEmpty else { return SortOrder(key) }
        let index = keys.firstIndex(of: key).map { $0 + 1 } ?? 0
        return SortOrder(keys[index % keys.count])
    }

    public func reversed() -> SortOrder {
        SortOrder(key, descending: !descending)
    }

    /// "balance ↓": what the status bar shows.
    public var label: String { key.label + (descending ? " ↓" : " ↑") }
}
