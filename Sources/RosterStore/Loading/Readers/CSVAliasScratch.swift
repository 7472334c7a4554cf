#if !ROSTER_FUZZ
import RosterCore
#endif

/// What other programs' CSV columns (`PersonColumn.alias`, `.fallbackName`,
/// `.addressPart`) gave one record, until it ends: which rank set each
/// field, the whole name to fall back on, the address's parts. Unused
/// (and never reset) for a header of Roster's own columns.
struct CSVAliasScratch {
    var isUsed = false
    /// The rank that set each text field (0 its own column; `Int.max` none yet).
    private var ranks = ContiguousArray<Int>(repeating: .max, count: PeopleSegment.textFieldCount)
    private var fallbackName: [UInt8] = []
    private var addressParts: [[UInt8]] = [[], [], [], []]

    mutating func reset() {
        for index in ranks.indices { ranks[index] = .max }
        fallbackName.removeAll(keepingCapacity: true)
        for index in addressParts.indices { addressParts[index].removeAll(keepingCapacity: true) }
    }

    /// The field's own column gave it: no alias replaces it.
    mutating func noteExact(_ field: TextField) {
        ranks[field.rawValue] = 0
    }

    /// A non-empty cell of an alias-like column.
    mutating func take(_ text: UnsafeBufferPointer<UInt8>, as column: PersonColumn, into record: inout RecordScratch) {
        switch column {
        case .alias(let field, let rank):
            guard rank < ranks[field.rawValue] else { return }
            ranks[field.rawValue] = rank
            record.setText(field, text)
        case .fallbackName:
            if fallbackName.isEmpty { fallbackName.append(contentsOf: text) }
        case .addressPart(let part):
            if addressParts[part].isEmpty { addressParts[part].append(contentsOf: text) }
        default:
            break
        }
    }

    /// The record's end: the whole name when it has no name of its own,
    /// the address's parts when it has no address.
    func finish(_ record: inout RecordScratch) {
        if !fallbackName.isEmpty, !record.has(.firstName), !record.has(.lastName) {
            fallbackName.withUnsafeBufferPointer { record.setWholeName($0) }
        }
        guard !record.has(.address), addressParts.contains(where: { !$0.isEmpty }) else { return }
        let address = PersonFieldValues.address(street: addressParts[0], city: addressParts[1], region: addressParts[2],
                                                postalCode: addressParts[3])
        address.withUnsafeBufferPointer { record.setText(.address, $0) }
    }
}
