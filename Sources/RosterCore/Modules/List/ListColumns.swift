/// A column of the people list. The name always comes first; the others
/// are the user's to show, hide and reorder (`C`), and appear as the
/// terminal widens. Remembered by `rawValue` ("email", "eyeColor"). (Not
/// `RawRepresentable`: its `==` would compare the names, not the cases.)
public enum ListColumn: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case name, email, phone, age, active, company, city, balance
    /// Hidden until chosen (`C`): the address whole and two of its parts,
    /// the record's plain fields (`TextField.plainColumn`), and its `_id`.
    case state, zip, address
    case text(TextField)
    case recordID

    public static let allCases: [ListColumn] = [.name, .email, .phone, .age, .active, .company, .city, .balance, .state, .zip, .address]
        + TextField.plainColumns.map(ListColumn.text) + [.recordID]

    /// Columns a list shows only once the user ticks them.
    static let hiddenByDefault = Set([ListColumn.state, .zip, .address, .recordID] + TextField.plainColumns.map(ListColumn.text))

    /// The column's name in the remembered place: its order's ("email",
    /// "eyeColor"), the name's own.
    public var rawValue: String { self == .name ? "name" : sortKey.rawValue }

    public init?(rawValue: String) {
        guard let column = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = column
    }

    public var description: String { rawValue }

    /// The header row's title.
    public var title: String {
        switch self {
        case .name: return "Name"
        case .email: return "Email"
        case .phone: return "Phone"
        case .age: return "Age"
        case .active: return "Active"
        case .company: return "Company"
        case .city: return "City"
        case .balance: return "Balance"
        case .state: return "State"
        case .zip: return "Zip"
        case .address: return "Address"
        case .text(let field): return field.plainColumn?.title ?? field.label
        case .recordID: return "ID"
        }
    }

    /// Cells a column takes (the balance's is measured per frame; the name
    /// takes what is left).
    public var width: Int {
        switch self {
        case .name: return ListColumns.nameMinimum
        case .email: return 30
        case .phone: return 17
        case .age: return 3
        case .active: return 6
        case .company: return 16
        case .city: return 16
        case .balance: return 12
        case .state: return 14
        case .zip: return 6
        case .address: return 30
        case .text(let field): return field.plainColumn?.width ?? 10
        case .recordID: return 24
        }
    }

    /// The field this column shows, as a query names it: the search's
    /// matches in it are highlighted. Nil for a figure.
    public var searchField: TextScope? {
        switch self {
        case .name: return .name
        case .email: return .email
        case .phone: return .phone
        case .company: return .company
        case .city: return .city
        case .state: return .state
        case .zip: return .zip
        case .address: return .address
        case .text(let field): return TextScope(field: field)
        case .recordID: return .id
        case .age, .active, .balance: return nil
        }
    }

    /// Numbers line up on the right.
    public var isRightAligned: Bool { self == .age || self == .balance }

    /// The column an order sorts on: both name orders sort the name column.
    public static func sorted(by key: SortOrder.Key) -> ListColumn {
        allCases.first { $0.sortKey == key } ?? .name
    }

    /// Whether anyone in a source with `fields` has a value here (the
    /// name always shows).
    public func hasValues(in fields: FieldsInUse) -> Bool {
        switch self {
        case .name: return true
        case .email: return fields.contains(.email)
        case .phone: return fields.contains(.phone)
        case .age: return fields.age
        case .active: return fields.active
        case .company: return fields.contains(.company)
        case .city, .state, .zip, .address: return fields.contains(.address)
        case .balance: return fields.contains(.balance)
        case .text(let field): return fields.contains(field)
        case .recordID: return fields.contains(.id)
        }
    }

    /// The order this column sorts by (the name: by last name).
    public var sortKey: SortOrder.Key {
        switch self {
        case .name: return .lastName
        case .email: return .email
        case .phone: return .phone
        case .age: return .age
        case .active: return .active
        case .company: return .company
        case .city: return .city
        case .balance: return .balance
        case .state: return .state
        case .zip: return .zip
        case .address: return .address
        case .text(let field): return .text(field)
        case .recordID: return .recordID
        }
    }

    /// What a row shows in this column, before fitting.
    public func text(of person: ListedPerson) -> String {
        switch self {
        case .name: return person.name
        case .age: return person.age.map(String.init) ?? ""
        case .active: return person.isActive.map { $0 ? "yes" : "no" } ?? ""
        case .city: return person.city
        case .company: return person.company
        case .balance: return person.balance
        case .state: return AddressPart.text(2, of: person.address)
        case .zip: return AddressPart.text(3, of: person.address)
        case .email, .phone, .address, .text, .recordID:
            // A text field of the record, as its search names it.
            return searchField?.recordField.map(person.text) ?? ""
        }
    }
}

/// One column placed on a row: where it starts and how wide it is.
public struct PlacedColumn: Equatable, Sendable {
    public var column: ListColumn
    public var start: Int
    public var width: Int
}

/// Which columns fit a width: the column sorted on always (it says what the
/// order is), the balance when chosen (as the list always showed it), then
/// the user's other columns in their order while the name keeps
/// `nameMinimum` cells; the company only in the flat list (grouped, its
/// header says it), and there at every width unless hidden (narrowed on a
/// small screen). The name takes what is left. Pure, for unit tests.
public struct ListColumns: Equatable, Sendable {
    /// Cells before the first column: the mark (`●`) and a space.
    public static let leftMargin = 2
    public static let gap = 2
    /// The name gives up no more than this to optional columns.
    public static let nameMinimum = 20
    /// Room beyond this goes to the email, company and city columns.
    public static let nameMaximum = 40
    /// The fewest cells a column is cut to rather than left out.
    static let narrowestCut = 14
    /// A balance never needs more (-$92,233,720,368,547,758.06).
    public static let widestAmount = 27

    public var choice: ColumnChoice
    public var sort: SortOrder
    public var showsCompany: Bool
    /// The source's fields: a column no one has a value in is left out
    /// (unless the list is sorted by it).
    public var fieldsInUse: FieldsInUse

    public init(choice: ColumnChoice, sort: SortOrder, byCompany: Bool, fieldsInUse: FieldsInUse = .all) {
        self.choice = choice
        self.sort = sort
        showsCompany = !byCompany
        self.fieldsInUse = fieldsInUse
    }

    public var sortColumn: ListColumn { ListColumn.sorted(by: sort.key) }

    /// The keys `s` goes through: last name, first name, then each column
    /// that may show, in the user's order (the company only in the flat
    /// list: grouped, everyone in a section has the same one).
    public var sortKeys: [SortOrder.Key] {
        [.lastName, .firstName] + shownInOrder.map(\.sortKey)
    }

    /// The order `s` goes to next.
    public var nextSort: SortOrder { sort.next(among: sortKeys) }

    /// The header row's title of `column`: the sorted one says which way
    /// ("Balance ↓"), and the name says which name orders it.
    public func title(of column: ListColumn) -> String {
        guard column == sortColumn else { return column.title }
        let title = column != .name ? column.title : sort.key == .firstName ? "First name" : "Last name"
        return title + (sort.descending ? " ↓" : " ↑")
    }

    /// No column grows past this to show its widest value whole.
    public static let widestValue = 40

    /// The columns on a row `width` cells wide, left to right; the balance
    /// column takes `balanceWidth` cells (the widest amount on screen),
    /// never so many that the name has fewer than 8 (or than the width allows).
    /// `widest` gives each column's widest value on screen: a column is no
    /// wider than that (or its title) and, with room to spare, grows to
    /// show it whole (up to `widestValue`), so a phone number is never cut
    /// while the name has blank cells. The name takes the rest, up to
    /// `nameMaximum` or its own widest value: a wide terminal leaves blank
    /// cells at the end rather than stretching a column.
    public func layout(width: Int, balanceWidth: Int = ListColumn.balance.width,
                       widest: [ListColumn: Int] = [:]) -> [PlacedColumn] {
        let room = max(1, width - Self.leftMargin)
        let balance = min(max(ListColumn.balance.title.count, min(balanceWidth, Self.widestAmount)), max(1, room - 8 - Self.gap))
        var sizes = ColumnSizes(balance: balance, widest: widest, sortColumn: sortColumn, sortTitle: title(of: sortColumn))
        let order = shownInOrder
        let chosen = choose(order, room: room, sizes: &sizes)
        var used = order.filter(chosen.contains).reduce(0) { $0 + sizes.cells($1) + Self.gap }
        // Room the name does not need (its widest on screen, at most
        // `nameMaximum`) first shows each column's widest value whole.
        let nameWants = min(Self.nameMaximum, max(Self.nameMinimum, widest[.name] ?? Self.nameMaximum))
        for column in order where chosen.contains(column) && column != .balance {
            let grow = min(sizes.natural(column) - sizes.cells(column), room - used - nameWants)
            guard grow > 0 else { continue }
            sizes.extra[column] = grow
            used += grow
        }
        let nameWidth = widest[.name].map { min(room - used, max(Self.nameMaximum, $0)) } ?? room - used
        var placed = [PlacedColumn(column: .name, start: Self.leftMargin, width: max(1, nameWidth))]
        var start = Self.leftMargin + placed[0].width
        for column in order where chosen.contains(column) {
            placed.append(PlacedColumn(column: column, start: start + Self.gap, width: sizes.cells(column)))
            start += Self.gap + sizes.cells(column)
        }
        return placed
    }

    /// The columns that may show, in the user's order: the company only in
    /// the flat list, none that no one has a value in, the sorted column
    /// even when hidden (at its place).
    var shownInOrder: [ListColumn] {
        var order = choice.shown.filter { ($0 != .company || showsCompany) && $0.hasValues(in: fieldsInUse) }
        if sortColumn != .name, !order.contains(sortColumn) {
            let place = choice.entries.firstIndex { $0.column == sortColumn } ?? choice.entries.count
            let before = choice.entries.prefix(place).map(\.column)
            order.insert(sortColumn, at: order.firstIndex { !before.contains($0) } ?? order.count)
        }
        return order
    }

    /// Which of `order` fit `room`: first the sorted column, the balance and
    /// the flat list's company (it says whose people these are: no header
    /// does), whenever they fit at all; then the user's columns in their
    /// order while the name keeps `nameMinimum` cells. The first that does
    /// not fit ends them: the user's order is kept, dropping from its end.
    private func choose(_ order: [ListColumn], room: Int, sizes: inout ColumnSizes) -> Set<ListColumn> {
        let isFlatCompany = { (column: ListColumn) in column == .company && self.showsCompany && column != self.sortColumn }
        // The sorted column shows at every width, narrowed so that the name
        // keeps a third of a small row (and the flat list's company its 6).
        let nameFloor = min(Self.nameMinimum, room / 3)
        let companyFloor = order.contains(where: isFlatCompany) ? 6 + Self.gap : 0
        sizes.sortedLimit = room - Self.gap - nameFloor - companyFloor
        var wanted = order.filter { $0 == sortColumn } + order.filter { $0 == .balance && $0 != sortColumn }
        wanted += order.filter(isFlatCompany) + order.filter { $0 != sortColumn && $0 != .balance && !isFlatCompany($0) }
        var chosen: Set<ListColumn> = []
        var used = 0
        var isFull = false
        for (rank, column) in wanted.enumerated() {
            if isFlatCompany(column) {
                // At every width: narrowed, never below 6 cells, so the name keeps as much.
                let left = room - used - Self.gap
                sizes.companyWidth = min(ListColumn.company.width, max(6, left - max(nameFloor, min(Self.nameMinimum, left / 2))))
            }
            let cost = sizes.cells(column) + Self.gap
            if column == sortColumn || (column == .balance && rank == 0) {
                guard used + cost < room else { continue }
            } else if (column == .balance && rank == 1) || isFlatCompany(column) {
                // Beside another sorted column, the name keeps its third.
                guard used + cost + nameFloor <= room else { continue }
            } else {
                guard !isFull else { continue }
                if used + cost + Self.nameMinimum > room {
                    isFull = true
                    // The first that does not fit whole shows narrowed into
                    // what the name leaves (an email cut, not a name 40 wide
                    // beside nothing), when that is enough to read.
                    let left = room - used - Self.gap - Self.nameMinimum
                    guard left >= Self.narrowestCut, left < sizes.cells(column) else { continue }
                    sizes.narrowed[column] = left
                    chosen.insert(column)
                    used += left + Self.gap
                    continue
                }
            }
            chosen.insert(column)
            used += cost
        }
        return chosen
    }
}

/// How wide each column of one layout is: its usual width, or less when
/// its values on screen (and its title) are narrower, plus what it grew.
struct ColumnSizes {
    let balance: Int
    let widest: [ListColumn: Int]
    let sortColumn: ListColumn
    let sortTitle: String
    /// The flat list's company, narrowed on a small screen.
    var companyWidth = ListColumn.company.width
    /// The most the sorted column takes (its title whole, whatever this says).
    var sortedLimit = Int.max
    var extra: [ListColumn: Int] = [:]
    /// A column cut to the room left, whatever its values want.
    var narrowed: [ListColumn: Int] = [:]

    private func titleWidth(_ column: ListColumn) -> Int {
        DisplayText.width(column == sortColumn ? sortTitle : column.title)
    }

    /// Cells to fit the column in: the sorted column never so narrow that its title is cut.
    private func base(_ column: ListColumn) -> Int {
        if column == .balance { return balance }
        if let narrowed = narrowed[column] { return narrowed }
        let usual = column == .company ? companyWidth : column.width
        let title = titleWidth(column)
        guard let values = widest[column] else { return column == sortColumn ? max(title, min(usual, sortedLimit)) : usual }
        return column == sortColumn ? max(title, min(usual, values, sortedLimit)) : min(usual, max(title, values))
    }

    func cells(_ column: ListColumn) -> Int { base(column) + extra[column, default: 0] }

    /// What the column would take to show its widest value whole.
    func natural(_ column: ListColumn) -> Int {
        max(titleWidth(column), min(widest[column] ?? 0, ListColumns.widestValue))
    }
}
