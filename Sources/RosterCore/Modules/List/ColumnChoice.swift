/// The user's columns: every column but the name, in the order they show,
/// each shown or hidden. Remembered with the place.
public struct ColumnChoice: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var column: ListColumn
        public var isShown: Bool

        public init(_ column: ListColumn, isShown: Bool = true) {
            self.column = column
            self.isShown = isShown
        }
    }

    public private(set) var entries: [Entry]

    /// Every column shown, in the order they appear as the terminal widens
    /// (the narrow age and activity before the phone: a column that does not
    /// fit ends the row, so at 80 columns they still show); the balance
    /// last, at the right edge, as the list always had it.
    public static let standard = ColumnChoice(entries: [.email, .age, .active, .phone, .company, .city, .balance].map { Entry($0) })
    // (then the columns hidden by default, added by `init(entries:)`)

    /// `entries` made whole: unknown and repeated columns dropped, the name
    /// left out (it is always first), missing ones added at the end, shown
    /// unless hidden by default (a remembered choice from before a column
    /// existed).
    public init(entries: [Entry]) {
        var seen: Set<ListColumn> = [.name]
        var kept: [Entry] = []
        for entry in entries where seen.insert(entry.column).inserted { kept.append(entry) }
        for column in ListColumn.allCases where !seen.contains(column) {
            kept.append(Entry(column, isShown: !ListColumn.hiddenByDefault.contains(column)))
        }
        self.entries = kept
    }

    /// The shown columns, in order.
    public var shown: [ListColumn] { entries.filter(\.isShown).map(\.column) }

    /// "email,-phone,age": how a place remembers it (a hidden column
    /// starts with `-`); unknown names are dropped, so an older or newer
    /// state file never fails to load.
    public var remembered: [String] { entries.map { ($0.isShown ? "" : "-") + $0.column.rawValue } }

    public init(remembered: [String]) {
        self.init(entries: remembered.compactMap { text in
            let isShown = !text.hasPrefix("-")
            return ListColumn(rawValue: isShown ? text : String(text.dropFirst())).map { Entry($0, isShown: isShown) }
        })
    }

    public mutating func toggle(at index: Int) {
        guard entries.indices.contains(index) else { return }
        entries[index].isShown.toggle()
    }

    /// Moves the entry at `index` by `delta` places (clamped); its new index.
    @discardableResult
    public mutating func move(at index: Int, by delta: Int) -> Int {
        guard entries.indices.contains(index) else { return index }
        let target = min(max(0, index + delta), entries.count - 1)
        let entry = entries.remove(at: index)
        entries.insert(entry, at: target)
        return target
    }
}
