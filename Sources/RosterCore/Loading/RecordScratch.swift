/// One record while it is being parsed, before it is known to be good.
///
/// Fields arrive in any order; their decoded bytes collect here and are
/// copied into the segment in the store's fixed field order on `commit`,
/// so a skipped record leaves nothing behind in the arena.
struct RecordScratch {
    private let bytes = ByteArena(capacity: 1024)
    /// Start and end in `bytes` for each `TextField`; start == end: empty.
    private var starts = ContiguousArray<Int>(repeating: 0, count: PeopleSegment.textFieldCount)
    private var ends = ContiguousArray<Int>(repeating: 0, count: PeopleSegment.textFieldCount)
    var index = PeopleSegment.missingInt
    var age = PeopleSegment.missingAge
    var active: UInt8 = 2
    var cents = PeopleSegment.missingCents
    private var centsFromNumber = false
    /// Folded forms of names with accents or other non-ASCII text.
    private var foldedNames = FoldingCache()
    /// The first reason this record is not a person; later ones are not news.
    var problem: String?

    mutating func reset() {
        bytes.removeAll()
        for field in 0..<PeopleSegment.textFieldCount {
            starts[field] = 0
            ends[field] = 0
        }
        index = PeopleSegment.missingInt
        age = PeopleSegment.missingAge
        active = 2
        cents = PeopleSegment.missingCents
        centsFromNumber = false
        problem = nil
    }

    mutating func noteProblem(_ reason: String) {
        if problem == nil { problem = reason }
    }

    mutating func clear(_ field: TextField) {
        starts[field.rawValue] = 0
        ends[field.rawValue] = 0
        if field == .balance { cents = PeopleSegment.missingCents }
    }

    mutating func scanText(_ field: TextField, from cursor: inout JSONCursor) throws(ScanFailure) {
        let start = bytes.count
        try cursor.scanString(into: bytes)
        starts[field.rawValue] = start
        ends[field.rawValue] = bytes.count
        if field == .balance {
            cents = Balance.cents(fromUTF8: bytes.bytes(start..<bytes.count)) ?? PeopleSegment.missingCents
        }
    }

    /// A balance written as a JSON number (`2107.15`): kept as its text.
    mutating func setBalance(number: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: number)
        starts[TextField.balance.rawValue] = start
        ends[TextField.balance.rawValue] = bytes.count
        cents = Balance.cents(fromUTF8: number) ?? PeopleSegment.missingCents
    }

    /// `"name": "Ada Lovelace"`: the last word is the last name.
    mutating func scanWholeName(from cursor: inout JSONCursor) throws(ScanFailure) {
        let start = bytes.count
        try cursor.scanString(into: bytes)
        var end = bytes.count
        while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        var split = end
        while split > start, bytes[split - 1] != UInt8(ascii: " ") { split -= 1 }
        starts[TextField.lastName.rawValue] = split
        ends[TextField.lastName.rawValue] = end
        var firstEnd = split
        while firstEnd > start, bytes[firstEnd - 1] == UInt8(ascii: " ") { firstEnd -= 1 }
        starts[TextField.firstName.rawValue] = start
        ends[TextField.firstName.rawValue] = firstEnd
    }

    private func text(_ field: TextField) -> UnsafeBufferPointer<UInt8> {
        bytes.bytes(starts[field.rawValue]..<ends[field.rawValue])
    }

    var hasUsableName: Bool {
        hasVisibleText(.firstName) || hasVisibleText(.lastName)
    }

    private func hasVisibleText(_ field: TextField) -> Bool {
        bytes.bytes(starts[field.rawValue]..<ends[field.rawValue]).contains { $0 > 0x20 }
    }

    /// Appends this record to `segment` in the store's field order.
    mutating func commit(to segment: PeopleSegment, companies: inout CompanyTable) {
        let recordStart = segment.arena.count
        segment.recordStart.append(recordStart)
        for field in 0..<PeopleSegment.textFieldCount {
            segment.arena.append(contentsOf: bytes.bytes(starts[field]..<ends[field]))
            segment.fieldEnds.append(UInt32(truncatingIfNeeded: segment.arena.count - recordStart))
        }
        let companyID = companies.id(forSpelling: text(.company))
        segment.companyIDs.append(companyID)
        companies.addHeadcount(1, to: companyID)
        foldedNames.appendFolded(text(.lastName), to: segment.nameKeys)
        segment.nameKeys.append(0)
        foldedNames.appendFolded(text(.firstName), to: segment.nameKeys)
        let keyStart = segment.nameKeyEnds.last ?? 0
        segment.nameKeyEnds.append(segment.nameKeys.count)
        let key = segment.nameKeys.bytes(keyStart..<segment.nameKeys.count)
        segment.namePrefixes.append(PeopleSegment.prefix(of: key))
        segment.namePrefixes.append(PeopleSegment.prefix(of: key, from: 8))
        segment.indexValues.append(index)
        segment.ages.append(age)
        segment.activeFlags.append(active)
        segment.cents.append(cents)
        segment.count += 1
    }
}
