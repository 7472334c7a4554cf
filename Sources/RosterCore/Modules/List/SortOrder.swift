/// How people are ordered within a section (or in the flat list).
public struct SortOrder: Equatable, Sendable {
    public enum Key: CaseIterable, Sendable {
        case lastName, firstName, balance, age

        var label: String {
            switch self {
            case .lastName: return "last name"
            case .firstName: return "first name"
            case .balance: return "balance"
            case .age: return "age"
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

    /// The next key in `s`'s cycle, in its natural direction: ascending
    /// (A→Z, smallest first), as `--sort` takes a key without `:desc`.
    /// A direction `S` chose was for the key it reversed.
    public func nextKey() -> SortOrder {
        let keys = Key.allCases
        let index = keys.firstIndex(of: key) ?? 0
        return SortOrder(keys[(index + 1) % keys.count])
    }

    public func reversed() -> SortOrder {
        SortOrder(key, descending: !descending)
    }

    /// "balance ↓": what the status bar shows.
    public var label: String { key.label + (descending ? " ↓" : " ↑") }
}
