/// How people are ordered within a section (or in the flat list).
///
/// Any column the list can show is a key: the names, the figures (balance,
/// age, active) and the text columns. Text compares folded (case and Latin
/// accents ignored, as search does), byte by byte, so every source orders
/// alike. Whatever the key and direction, people without a value come
/// last, ties go by name (reversed with a reversed text key), then file
/// order.
public struct SortOrder: Equatable, Sendable {
    public enum Key: String, CaseIterable, Sendable {
        case lastName, firstName, balance, age
        case email, phone, active, company, city, state, zip, address, eyeColor, favoriteFruit, recordID

        var label: String {
            switch self {
            case .lastName: return "last name"
            case .firstName: return "first name"
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
            case .eyeColor: return "eye color"
            case .favoriteFruit: return "fruit"
            case .recordID: return "id"
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
            case .eyeColor: return .eyeColor
            case .favoriteFruit: return .favoriteFruit
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
            case .eyeColor: return "eye-color"
            case .favoriteFruit: return "fruit"
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
            case "eyecolor", "eyecolour", "eye": return .eyeColor
            case "fruit", "favoritefruit": return .favoriteFruit
            case "id", "recordid", "_id": return .recordID
            default: return allCases.first { $0.rawValue.lowercased() == word }
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
