#if !ROSTER_FUZZ
import RosterCore
#endif

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
    /// Each field's end in the store's order (`lengthInStoreOrder`).
    private var storeEnds = ContiguousArray<UInt32>(repeating: 0, count: PeopleSegment.textFieldCount)
    var index = PeopleSegment.missingInt
    var age = PeopleSegment.missingAge
    var active: UInt8 = 2
    var cents = PeopleSegment.missingCents
    /// Which text fields the record had (bit `TextField.rawValue`), and
    /// whether its balance was a JSON number: exports write back only those.
    private var present: UInt16 = 0
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
        present = 0
        problem = nil
    }

    mutating func noteProblem(_ reason: String) {
        if problem == nil { problem = reason }
    }

    mutating func clear(_ field: TextField) {
        present &= ~TextField.bit(field)
        if field == .balance { present &= ~TextField.balanceIsNumberBit }
        starts[field.rawValue] = 0
        ends[field.rawValue] = 0
        if field == .balance { cents = PeopleSegment.missingCents }
    }

    mutating func scanText(_ field: TextField, from cursor: inout JSONCursor) throws(ScanFailure) {
        let start = bytes.count
        try cursor.scanString(into: bytes)
        starts[field.rawValue] = start
        ends[field.rawValue] = bytes.count
        present |= TextField.bit(field)
        if field == .balance { present &= ~TextField.balanceIsNumberBit }
        if field == .balance { readBalance(bytes.bytes(start..<bytes.count)) }
    }

    /// An amount beyond 64-bit cents skips the record: its sums could not be exact.
    private mutating func readBalance(_ text: UnsafeBufferPointer<UInt8>) {
        switch Balance.amount(fromUTF8: text) {
        case .cents(let value): cents = value
        case .notAnAmount: cents = PeopleSegment.missingCents
        case .tooLarge:
            cents = PeopleSegment.missingCents
            noteProblem("'balance' is too large (beyond ±$92,233,720,368,547,758.06)")
        }
    }

    /// A balance written as a JSON number (`2107.15`): kept as its text.
    mutating func setBalance(number: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: number)
        starts[TextField.balance.rawValue] = start
        ends[TextField.balance.rawValue] = bytes.count
        present |= TextField.bit(.balance) | TextField.balanceIsNumberBit
        readBalance(number)
    }

    /// Text from a reader that has it decoded already (CSV).
    mutating func setText(_ field: TextField, _ text: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: text)
        starts[field.rawValue] = start
        ends[field.rawValue] = bytes.count
        present |= TextField.bit(field)
        if field == .balance {
            present &= ~TextField.balanceIsNumberBit
            readBalance(text)
        }
    }

    /// `"name": "Ada Lovelace"`: the last word is the last name.
    mutating func scanWholeName(from cursor: inout JSONCursor) throws(ScanFailure) {
        let start = bytes.count
        try cursor.scanString(into: bytes)
        splitWholeName(from: start)
    }

    /// A whole name already decoded (a CSV `name` column).
    mutating func setWholeName(_ text: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: text)
        splitWholeName(from: start)
    }

    /// The name is `bytes[start...]`: the last word is the last name.
    private mutating func splitWholeName(from start: Int) {
        var end = bytes.count
        while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        var split = end
        while split > start, bytes[split - 1] != UInt8(ascii: " ") { split -= 1 }
        present |= TextField.bit(.firstName) | TextField.bit(.lastName)
        starts[TextField.lastName.rawValue] = split
        ends[TextField.lastName.rawValue] = end
        var firstEnd = split
        while firstEnd > start, bytes[firstEnd - 1] == UInt8(ascii: " ") { firstEnd -= 1 }
        starts[TextField.firstName.rawValue] = start
        ends[TextField.firstName.rawValue] = firstEnd
    }

    /// When every field's bytes follow the one before (empty ones aside),
    /// from the start: how many bytes they take, with each field's end in
    /// `storeEnds`. Nil when they came in another order, or with bytes
    /// between them (a key given twice, a whole name split in two).
    private mutating func lengthInStoreOrder() -> Int? {
        var end = 0
        for field in 0..<PeopleSegment.textFieldCount {
            if starts[field] != ends[field] {
                guard starts[field] == end else { return nil }
                end = ends[field]
            }
            storeEnds[field] = UInt32(truncatingIfNeeded: end)
        }
        return end
    }

    private func text(_ field: TextField) -> UnsafeBufferPointer<UInt8> {
        bytes.bytes(starts[field.rawValue]..<ends[field.rawValue])
    }

    /// Whether the record has `field` so far (even empty).
    func has(_ field: TextField) -> Bool {
        present & TextField.bit(field) != 0
    }

    var hasUsableName: Bool {
        hasVisibleText(.firstName) || hasVisibleText(.lastName)
    }

    /// A name of no-break spaces, zero-width or bidi characters would be a
    /// blank row: it counts as missing.
    private func hasVisibleText(_ field: TextField) -> Bool {
        TextFolding.hasVisibleText(bytes.bytes(starts[field.rawValue]..<ends[field.rawValue]))
    }

    /// Appends this record to `segment` in the store's field order;
    /// `fileOffset` is where its text starts in the file.
    mutating func commit(to segment: PeopleSegmentBuilder, fileOffset: Int) {
        let recordStart = segment.arena.count
        segment.recordStart.append(recordStart)
        segment.fileOffsets.append(fileOffset)
        if let length = lengthInStoreOrder() {
            // The fields arrived in the store's order (most files): one copy.
            segment.arena.append(contentsOf: bytes.bytes(0..<length))
            segment.fieldEnds.append(contentsOf: storeEnds)
        } else {
            for field in 0..<PeopleSegment.textFieldCount {
                segment.arena.append(contentsOf: bytes.bytes(starts[field]..<ends[field]))
                segment.fieldEnds.append(UInt32(truncatingIfNeeded: segment.arena.count - recordStart))
            }
        }
        let company = TextField.company.rawValue
        let fieldEnds = segment.fieldEnds.count - PeopleSegment.textFieldCount
        let companyStart = company == 0 ? 0 : Int(segment.fieldEnds[fieldEnds + company - 1])
        segment.appendCompany(spelling: (recordStart + companyStart)..<(recordStart + Int(segment.fieldEnds[fieldEnds + company])))
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
        segment.presentFields.append(present)
        segment.didAppendPerson()
    }
}
