import RosterCore
import RosterStore

/// The rows `roster import` writes for a loaded directory: one per person,
/// values in `PeopleTable.columns` order, keys folded as the file source
/// folds them (taken from the store itself, so they cannot drift).
///
/// People without an `_id` still need a key that is the same each time the
/// same file is imported (so that importing it again replaces them rather
/// than adding copies): it is `(no _id) ` and a 128-bit digest of every
/// field, and ` #2`, ` #3`… for further identical records. Editing such a
/// person in the file and importing again therefore adds the edited one
/// beside the old; give people an `_id` to update them in place.
public struct ImportRows: Sequence, Sendable {
    public let store: PeopleStore
    /// The positions to give rows for, in this order (nil: file order).
    public let order: ContiguousArray<UInt32>?
    /// Per person of the store, the manager reference the file gave
    /// (`PeopleTable.managerColumn`, the last value of each row); nil: none.
    public let managers: [String?]?

    public init(store: PeopleStore, order: ContiguousArray<UInt32>? = nil, managers: [String?]? = nil) {
        self.store = store
        self.order = order
        self.managers = managers
    }

    /// Whether every row's key is surely different: every person has an
    /// `_id`, no two alike, and none spelled like a made-up key. Then rows
    /// can go straight into an empty table, with no staging to weed out
    /// duplicates. Hashes first (8 bytes a person); a shared hash is
    /// settled by comparing the ids themselves.
    public static func keysAreUnique(in store: PeopleStore) -> Bool {
        // Strings, as the keys are made: ids equal as text (canonically,
        // which is stricter than the database's bytes) count as alike.
        var seen = Set<Int>(minimumCapacity: store.count)
        var shared = Set<Int>()
        for position in 0..<store.count {
            let id = store.text(.id, of: position)
            guard !id.isEmpty, !id.hasPrefix(noIDPrefix) else { return false }
            if !seen.insert(id.hashValue).inserted { shared.insert(id.hashValue) }
        }
        guard !shared.isEmpty else { return true }
        var ids = Set<String>()
        for position in 0..<store.count {
            let id = store.text(.id, of: position)
            if shared.contains(id.hashValue), !ids.insert(id).inserted { return false }
        }
        return true
    }

    /// Prefix of the keys made for records without an `_id`.
    public static let noIDPrefix = "(no _id) "
    /// Company key of people without a company: a byte no UTF-8 text holds.
    public static let noCompanyKey: [UInt8] = [0xFF]

    public func makeIterator() -> Iterator {
        Iterator(store: store, order: order, managers: managers)
    }

    public struct Iterator: IteratorProtocol {
        let store: PeopleStore
        let order: ContiguousArray<UInt32>?
        let managers: [String?]?
        var index = 0
        /// How many records without an `_id` had each digest so far.
        var digestCounts: [String: Int] = [:]

        public mutating func next() -> [SQLValue]? {
            guard index < store.count else { return nil }
            let position = order.map { Int($0[index]) } ?? index
            index += 1
            let person = store[position]
            let key: String
            if person.id.isEmpty {
                let digest = ImportRows.digest(of: person)
                let copies = digestCounts[digest, default: 0] + 1
                digestCounts[digest] = copies
                key = ImportRows.noIDPrefix + digest + (copies > 1 ? " #\(copies)" : "")
            } else {
                key = person.id
            }
            let manager = managers.flatMap { $0.indices.contains(position) ? $0[position] : nil }
            return ImportRows.values(for: person, at: position, key: key, store: store) + [.text(manager)]
        }
    }

    static func values(for person: Person, at position: Int, key: String, store: PeopleStore) -> [SQLValue] {
        let company = store.companies[store.companyID(of: position)]
        let companyKey = company.key.isEmpty ? noCompanyKey : company.key
        // The store's name key is "last\0first", folded.
        let (lastKey, firstKey) = store.withNameKey(of: position) { key -> ([UInt8], [UInt8]) in
            let split = key.firstIndex(of: 0) ?? key.count
            return (Array(key[..<split]), Array(key[Swift.min(key.count, split + 1)...]))
        }
        return layout.map { value in
            switch value {
            case .key: return .text(key)
            case .position: return .int(Int64(position))
            case .text(let field): return .text(person.text(field))
            case .index: return .int(person.index)
            case .active: return .bool(person.isActive)
            case .cents: return .int(person.balance.cents)
            case .age: return .int(person.age)
            case .presentFields: return .int(Int64(person.presentTextFields))
            case .companyKey: return .bytes(companyKey)
            case .lastKey: return .bytes(lastKey)
            case .firstKey: return .bytes(firstKey)
            case .searchText: return .text(searchText(companyKey: company.key, lastKey: lastKey, firstKey: firstKey, person: person))
            }
        }
    }

    /// What a column of the table holds of a person.
    enum ColumnValue {
        case key, position, text(TextField), index, active, cents, age, presentFields, companyKey, lastKey, firstKey, searchText
    }

    /// What each column holds, in `PeopleTable.columns`' order: a text
    /// field's column its text, the others by name.
    static let layout: [ColumnValue] = {
        let byName: [String: ColumnValue] = [
            "person_key": .key, "position": .position, "record_index": .index, "is_active": .active, "balance_cents": .cents,
            "age": .age, "present_fields": .presentFields, "company_key": .companyKey, "last_key": .lastKey,
            "first_key": .firstKey, "search_text": .searchText,
        ]
        return PeopleTable.columns.map { column in
            if let field = column.field { return .text(field) }
            guard let value = byName[column.name] else { preconditionFailure("no person's value for column \(column.name)") }
            return value
        }
    }()

    /// What `/` matches (`TextScope.bareTermScopes`), folded, one field
    /// per line: a search term (which has no line break) can match inside
    /// a field but never across two.
    static func searchText(companyKey: [UInt8], lastKey: [UInt8], firstKey: [UInt8], person: Person) -> String {
        let fields: [[UInt8]] = TextScope.bareTermScopes.flatMap { scope -> [[UInt8]] in
            switch scope {
            case .company: return [companyKey]
            case .name: return [lastKey, firstKey, firstKey + [UInt8(ascii: " ")] + lastKey]
            default:
                guard let field = scope.recordField else { preconditionFailure("a bare term looks at \(scope), which search_text lacks") }
                return [TextFolding.foldedBytes(person.text(field))]
            }
        }
        return String(decoding: Array(fields.joined(separator: [UInt8(ascii: "\n")])), as: UTF8.self)
    }

    /// 32 hex digits of FNV-1a (128-bit) over every field: stable across
    /// runs and machines, unlike `Hasher`, which is seeded per process.
    static func digest(of person: Person) -> String {
        // Every text field but the `_id` (this stands for it), in `TextField`'s order.
        var fields: [String] = TextField.allCases.filter { $0 != .id }.map(person.text)
        fields.append(person.index.map(String.init) ?? "")
        fields.append(person.age.map(String.init) ?? "")
        fields.append(person.isActive.map { $0 ? "true" : "false" } ?? "")
        fields.append(String(person.presentTextFields))
        var hash: UInt128 = 0x6c62272e07bb014262b821756295c58d
        let prime: UInt128 = 0x0000000001000000000000000000013B
        for field in fields {
            // 0xFF separates fields: it never occurs in UTF-8.
            for byte in field.utf8 + [0xFF] {
                hash ^= UInt128(byte)
                hash = hash &* prime
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 32 - hex.count) + hex
    }
}

/// One company's row in the summary table, with exact sums.
public struct CompanyTotals: Sendable, Equatable {
    public var companyKey: [UInt8]
    public var spelling: String
    public var headcount: Int64
    public var active: Int64
    public var balances: Int64
    public var totalCents: Int128
    public var ages: Int64
    public var ageSum: Int64

    /// Reads a row of `PeopleTable.totalsQuery`, joining the two halves of
    /// the balance sum; `spelling` is chosen by the caller.
    init?(totalsRow row: SQLRow, spelling: String) {
        guard let key = row.bytes(0), let headcount = row.int(2), let active = row.int(3), let balances = row.int(4),
              let high = row.int128(5), let low = row.int128(6), let ages = row.int(7), let ageSum = row.int(8) else { return nil }
        self.init(companyKey: key, spelling: spelling, headcount: headcount, active: active, balances: balances,
                  totalCents: (high << 32) + low, ages: ages, ageSum: ageSum)
    }

    public init(companyKey: [UInt8], spelling: String, headcount: Int64, active: Int64, balances: Int64,
                totalCents: Int128, ages: Int64, ageSum: Int64) {
        self.companyKey = companyKey
        self.spelling = spelling
        self.headcount = headcount
        self.active = active
        self.balances = balances
        self.totalCents = totalCents
        self.ages = ages
        self.ageSum = ageSum
    }

    /// Reads a row of the summary table (`PeopleTable.summaryColumns`).
    public init?(summaryRow row: SQLRow) {
        guard let key = row.bytes(0), let spelling = row.text(1), let headcount = row.int(2), let active = row.int(3),
              let balances = row.int(4), let total = row.int128(5), let ages = row.int(6), let ageSum = row.int(7) else { return nil }
        self.init(companyKey: key, spelling: spelling, headcount: headcount, active: active, balances: balances,
                  totalCents: total, ages: ages, ageSum: ageSum)
    }

    /// Values in `PeopleTable.summaryColumns` order; the total as decimal
    /// text, which `numeric` reads exactly and SQLite keeps as it is.
    var values: [SQLValue] {
        [.bytes(companyKey), .text(spelling), .int(headcount), .int(active), .int(balances), .text(String(totalCents)),
         .int(ages), .int(ageSum)]
    }
}
