import Foundation

/// Where the user was in a directory: restored at the next launch of the
/// same file (see the app's `PlaceStore`).
public struct RememberedPlace: Codable, Equatable, Sendable {
    /// The selected person's position in the file, and their `_id` (to check
    /// that the file has not changed under it; if it has, the id is looked up).
    public var selectedPosition: Int?
    public var selectedID: String?
    public var sortKey: String
    public var descending: Bool
    public var groupedByCompany: Bool
    /// Companies shown collapsed, by name (absent in older state files).
    public var collapsedCompanies: [String]?
    /// The list's columns in order, a hidden one prefixed with `-`
    /// (`ColumnChoice.remembered`; absent in older state files).
    public var columns: [String]?
    /// When it was saved (seconds since 1970): only the most recent places
    /// are kept (absent in older state files).
    public var savedAt: Double?

    public init(selectedPosition: Int?, selectedID: String?, sortKey: String = "lastName",
                descending: Bool = false, groupedByCompany: Bool = true) {
        self.selectedPosition = selectedPosition
        self.selectedID = selectedID
        self.sortKey = sortKey
        self.descending = descending
        self.groupedByCompany = groupedByCompany
    }

    public var sortOrder: SortOrder {
        get {
            let key = SortOrder.Key(rawValue: sortKey) ?? .lastName
            return SortOrder(key, descending: descending)
        }
        set {
            sortKey = newValue.key.rawValue
            descending = newValue.descending
        }
    }
}

/// The state file's contents: the places of the most recently used data
/// files, keyed by resolved path. Decoding never trusts its input (it is
/// fuzzed): anything that is not this shape is nil.
public struct RememberedPlaces: Codable, Equatable, Sendable {
    /// How many data files are remembered: the most recently saved win.
    public static let maximumPlaces = 200

    public var version = 1
    public var places: [String: RememberedPlace] = [:]

    public init(places: [String: RememberedPlace] = [:]) {
        self.places = places
    }

    /// The places in a state file's bytes, or nil when they are not one.
    public static func decode(_ bytes: [UInt8]) -> RememberedPlaces? {
        try? JSONDecoder().decode(RememberedPlaces.self, from: Data(bytes))
    }

    public func encoded() -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)).map { Array($0) }
    }

    /// Remembers `place` for `dataFile` as saved at `time`, forgetting the
    /// least recently saved places beyond `maximumPlaces`.
    public mutating func remember(_ place: RememberedPlace, for dataFile: String, at time: Double) {
        var place = place
        place.savedAt = time
        places[dataFile] = place
        guard places.count > Self.maximumPlaces else { return }
        let newest = places.sorted { ($0.value.savedAt ?? 0, $0.key) > ($1.value.savedAt ?? 0, $1.key) }.prefix(Self.maximumPlaces)
        places = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}
