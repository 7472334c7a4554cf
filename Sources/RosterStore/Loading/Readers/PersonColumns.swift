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
                                     ("name.first", .text(.firstName)), ("name.last", .text(.lastName))]
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
        }
    }

    /// Whether the column gives a name (a CSV header needs one of these).
    var isName: Bool {
        self == .text(.firstName) || self == .text(.lastName) || self == .wholeName
    }
}
