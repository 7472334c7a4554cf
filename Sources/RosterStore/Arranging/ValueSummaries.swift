#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

extension ValueSummary {
    /// The figures of the people in `grouped` (everyone, or a search's
    /// matches) per value of `field`, in `ValueSummary.ordered`'s order
    /// (companies in the overview's). One pass over the store in file
    /// order; text values are tallied by their bytes in place, so a person
    /// costs a hash and a compare, never a String; spellings that fold
    /// alike are then merged (`ValueSummary.mergingSpellings`).
    public static func all(of field: SummaryField, in store: PeopleStore, grouped: GroupedPeople) -> [ValueSummary] {
        if field == .company {
            return CompanySummary.all(in: store, grouped: grouped).map(ValueSummary.init)
        }
        let members = grouped.order.count == store.count ? nil : PeopleSearch.members(of: grouped, store: store)
        var tally = ValueTally()
        let recorded = field.recordField
        for (segment, base) in zip(store.segments, store.segmentStarts) {
            segment.withBuffers { buffers in
                func text(_ textField: TextField, _ local: Int) -> UnsafeBufferPointer<UInt8> { buffers.field(textField, of: local) }
                for local in 0..<segment.count {
                    let person = base + local
                    if let members, members[person >> 6] & (1 << UInt64(person & 63)) == 0 { continue }
                    let cents = buffers.cents[local]
                    let balance: Int64? = cents == PeopleSegment.missingCents ? nil : cents
                    switch field {
                    case .company: break
                    case .city: tally.add(text: AddressPart.bytes(1, of: text(.address, local)), balance: balance)
                    case .state: tally.add(text: AddressPart.bytes(2, of: text(.address, local)), balance: balance)
                    case .active:
                        let flag = buffers.activeFlags[local]
                        tally.add(number: flag == 2 ? nil : Int64(flag), balance: balance)
                    case .ageBand:
                        let age = buffers.ages[local]
                        tally.add(number: age == PeopleSegment.missingAge ? nil : SummaryBands.ageBand(of: Int64(age)).lowerBound,
                                  balance: balance)
                    case .balanceBand:
                        tally.add(number: balance.map { SummaryBands.balanceBand(of: $0).lowerBound }, balance: balance)
                    default:
                        // A field as the record has it (eye colour, fruit).
                        if let recorded { tally.add(text: text(recorded, local), balance: balance) }
                    }
                }
            }
        }
        return ordered(tally.summaries(of: field))
    }
}

/// Running figures per value: numbers (a flag, a band's lower end) in a
/// dictionary, text in a table of distinct byte strings.
struct ValueTally {
    struct Figures {
        var headcount = 0
        var totalCents: Int128 = 0
        var balances = 0

        @inline(__always)
        mutating func add(balance: Int64?) {
            headcount += 1
            if let balance {
                totalCents += Int128(balance)
                balances += 1
            }
        }
    }

    var missing = Figures()
    var byNumber: [Int64: Figures] = [:]
    var texts = DistinctBytes()
    var byText: [Figures] = []

    @inline(__always)
    mutating func add(number: Int64?, balance: Int64?) {
        guard let number else { return missing.add(balance: balance) }
        byNumber[number, default: Figures()].add(balance: balance)
    }

    /// Empty text counts as no value.
    @inline(__always)
    mutating func add(text: UnsafeBufferPointer<UInt8>, balance: Int64?) {
        guard !text.isEmpty else { return missing.add(balance: balance) }
        let index = texts.index(of: text)
        if index == byText.count { byText.append(Figures()) }
        byText[index].add(balance: balance)
    }

    func summaries(of field: SummaryField) -> [ValueSummary] {
        var values: [(SummaryValue, Figures)] = byText.indices.map { (.text(texts.string(at: $0)), byText[$0]) }
        for (number, figures) in byNumber {
            switch field {
            case .active: values.append((.active(number == 1), figures))
            case .ageBand: values.append((.band(SummaryBands.ageBand(of: number)), figures))
            case .balanceBand: values.append((.band(SummaryBands.balanceBand(of: number)), figures))
            default: break
            }
        }
        if missing.headcount > 0 { values.append((.missing, missing)) }
        let spellings = values.map { value, figures in
            ValueSummary(value: value, title: field.title(of: value), headcount: figures.headcount, totalCents: figures.totalCents,
                         balances: figures.balances)
        }
        return ValueSummary.mergingSpellings(spellings, of: field)
    }
}

/// Distinct byte strings, each numbered in the order first seen: an
/// open-addressing hash table over one buffer of their bytes.
struct DistinctBytes {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var hashes: [UInt64] = []
    /// Index + 1 of the string in each slot; 0 for an empty slot.
    private var slots = [Int](repeating: 0, count: 64)

    var count: Int { ends.count }

    /// The number of `text`, adding it when new.
    @inline(__always)
    mutating func index(of text: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let index = slots[slot] - 1
            if hashes[index] == hash, equals(index, text) { return index }
            slot = (slot + 1) & mask
        }
        let index = ends.count
        bytes.append(contentsOf: text)
        ends.append(bytes.count)
        hashes.append(hash)
        slots[slot] = index + 1
        if ends.count * 2 > slots.count { grow() }
        return index
    }

    func string(at index: Int) -> String {
        String(decoding: bytes[range(of: index)], as: UTF8.self)
    }

    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    private func equals(_ index: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let stored = range(of: index)
        guard stored.count == text.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress, let other = text.baseAddress else { return true }
            return memcmp(base + stored.lowerBound, other, text.count) == 0
        }
    }

    private mutating func grow() {
        slots = [Int](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for index in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[index]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = index + 1
        }
    }
}
