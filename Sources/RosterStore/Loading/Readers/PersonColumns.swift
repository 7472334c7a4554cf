#if !ROSTER_FUZZ
import RosterCore
#endif

/// What a named value in the input sets on a person: the one mapping of
/// field names shared by every reader.
///
/// JSON and JSON Lines use the seed's keys (`eyeColor`, `isActive`, `name`
/// as an object); CSV uses the columns `--export csv` writes (`eye_color`,
/// `active`, `first_name`). A CSV header may use either spelling: names are
/// matched ignoring case and `_`, `-`, `.` and spaces, so `Eye Color`,
/// `eyeColor` and `EYE_COLOR` are one column.
enum PersonColumn: Equatable, Sendable {
    case text(TextField)
    /// The whole name in one value; its last word is the last name.
    case wholeName
    /// The balance as a plain number (`2107.15`); `balanceText` wins when both are given.
    case balanceNumber
    /// The balance exactly as the source wrote it (`$2,107.15`).
    case balanceText
    case index, age, active
    /// Another program's column for a text field (Google's `E-mail 1 -
    /// Value`, Outlook's `Business Phone`): read when no column of a lower
    /// rank gave the field (the field's own column is rank 0), and written
    /// by an edit when the file has no column of the field's own.
    case alias(TextField, rank: Int)
    /// A whole name (`Display Name`) read only when no first or last name is given.
    case fallbackName
    /// A part of the address in a column of its own (Outlook's `Business
    /// City`): 0 street, 1 city, 2 state, 3 postal code; joined as Roster
    /// writes an address when the file has no address column.
    case addressPart(Int)

    /// Every spelling, in `DirectoryExporter.csvHeader`'s order first.
    static let names: [(name: String, column: PersonColumn)] = {
        let written = CSVColumn.order.map { column -> (String, PersonColumn) in
            switch column {
            case .text(.balance): return (column.header, .balanceText)
            case .text(let field): return (column.header, .text(field))
            case .balanceAmount: return (column.header, .balanceNumber)
            case .age: return (column.header, .age)
            case .active: return (column.header, .active)
            case .index: return (column.header, .index)
            }
        }
        // The JSON keys, for a CSV made by other tools from JSON records
        // (the name's parts as `name.first` and `name.last`).
        let jsonKeys = TextField.allCases.filter { $0 != .firstName && $0 != .lastName && $0 != .balance }
            .map { ($0.jsonKey, PersonColumn.text($0)) }
        return written + jsonKeys + [("isActive", .active), ("name", .wholeName),
                                     ("name.first", .text(.firstName)), ("name.last", .text(.lastName))] + aliases
    }()

    private static let byNormalizedName: [String: PersonColumn] = {
        var table: [String: PersonColumn] = [:]
        for (name, column) in names where table[normalized(name)] == nil { table[normalized(name)] = column }
        return table
    }()

    /// The column a header cell names, or nil for a column Roster ignores.
    init?(header: String) {
        guard let column = Self.byNormalizedName[Self.normalized(header)] else { return nil }
        self = column
    }

    /// Lowercased, without `_`, `-`, `.` and spaces (`First Name` → `firstname`).
    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !["_", "-", ".", " "].contains($0) })
    }

    /// How a reason for skipping a record names this value.
    var name: String {
        switch self {
        case .text(let field):
            return Self.names.first { $0.column == .text(field) }?.name ?? "\(field)"
        case .wholeName: return "name"
        case .balanceNumber: return "balance"
        case .balanceText: return "balance_text"
        case .index: return "index"
        case .age: return "age"
        case .active: return "active"
        case .alias(let field, _): return PersonColumn.text(field).name
        case .fallbackName: return "name"
        case .addressPart: return "address"
        }
    }

    /// Whether the column gives a name (a CSV header needs one of these).
    var isName: Bool {
        switch self {
        case .text(.firstName), .text(.lastName), .wholeName, .fallbackName, .alias(.firstName, _), .alias(.lastName, _): true
        default: false
        }
    }

    /// Whether reading the column needs more than setting a field (an
    /// alias's rank, a name or address kept until the record ends).
    var isAliasLike: Bool {
        switch self {
        case .alias, .fallbackName, .addressPart: true
        default: false
        }
    }
}
