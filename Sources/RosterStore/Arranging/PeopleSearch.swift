import Dispatch
import Foundation
import Synchronization
#if !ROSTER_FUZZ
import RosterCore
#endif

/// The people a query matched: the narrowed list, and a bit per person
/// (file order) so that the next, longer query looks only at these.
public struct SearchResult: Sendable {
    public let query: SearchQuery
    public let grouped: GroupedPeople
    let matches: [UInt64]
}

/// Narrows a grouped directory to the people whose name, email, company,
/// phone or address contains the query, ignoring case and accents.
///
/// People are tested in file order, which reads the store sequentially
/// (in list order every person is a cache miss: five times slower), on
/// both cores, checking `isCancelled` as it goes so that a newer keystroke
/// can stop it; the list's order and sections are then kept (empty ones
/// disappear, each keeps its full headcount as `total` for "COMSTAR 2/31").
/// Names and companies are compared on the folded keys the loader made.
public enum PeopleSearch {
    /// Everyone in `all` that matches, looking only at `within`'s matches
    /// when given (a narrowing query); nil if cancelled.
    public static func filter(_ all: GroupedPeople, store: PeopleStore, query: SearchQuery,
                              within: SearchResult? = nil, isCancelled: @Sendable () -> Bool = { false }) -> SearchResult? {
        let count = store.count
        let words = (count + 63) / 64
        if query.isEmpty {
            return SearchResult(query: query, grouped: all, matches: [UInt64](repeating: ~0, count: words))
        }
        let companyMatches = store.companies.map { company in
            company.key.withUnsafeBufferPointer { key in query.folded.withUnsafeBufferPointer { SearchQuery.contains(key, $0) } }
        }
        var matches = [UInt64](repeating: 0, count: words)
        let halfWords = (words + 1) / 2
        // Either half stopping means the whole search was cancelled.
        let wasCancelled = Atomic<Bool>(false)
        matches.withUnsafeMutableBufferPointer { bits in
            nonisolated(unsafe) let bits = bits
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                var matcher = Matcher(store: store, query: query, companyMatches: companyMatches)
                let firstWord = half * halfWords
                let lastWord = min(words, (half + 1) * halfWords)
                // Segment by segment, with raw views of its arrays: the
                // per-person cost is then a few loads, not a lookup.
                for (segmentIndex, segment) in store.segments.enumerated() {
                    let base = store.segmentStarts[segmentIndex]
                    let from = max(firstWord * 64, base), to = min(lastWord * 64, base + segment.count, count)
                    guard from < to else { continue }
                    let stopped = segment.recordStart.withUnsafeBufferPointer { recordStart in
                        segment.fieldEnds.withUnsafeBufferPointer { fieldEnds in
                            segment.nameKeyEnds.withUnsafeBufferPointer { nameKeyEnds in
                                store.companyOfPerson.withUnsafeBufferPointer { companyOfPerson in
                                    let view = SegmentView(base: base, arena: segment.arena.allBytes, recordStart: recordStart,
                                                           fieldEnds: fieldEnds, nameKeys: segment.nameKeys.allBytes,
                                                           nameKeyEnds: nameKeyEnds, companyOfPerson: companyOfPerson)
                                    var person = from
                                    while person < to {
                                        let word = person >> 6
                                        if word & 63 == 0, person & 63 == 0, isCancelled() { return true }
                                        let end = min(to, (word + 1) * 64)
                                        var candidates: UInt64 = within?.matches[word] ?? ~0
                                        var found: UInt64 = 0
                                        for position in person..<end {
                                            let bit = UInt64(position & 63)
                                            if candidates & (1 << bit) != 0, matcher.matches(position, in: view) { found |= 1 << bit }
                                        }
                                        candidates = 0
                                        bits[word] |= found
                                        person = end
                                    }
                                    return false
                                }
                            }
                        }
                    }
                    if stopped {
                        wasCancelled.store(true, ordering: .relaxed)
                        return
                    }
                }
            }
        }
        if wasCancelled.load(ordering: .relaxed) { return nil }
        return result(query: query, matches: matches, all: all, store: store)
    }

    /// The people of `all` whose bit is set in `members` (file order).
    public static func restrict(_ all: GroupedPeople, to members: [UInt64], store: PeopleStore) -> GroupedPeople {
        result(query: SearchQuery(""), matches: members, all: all, store: store).grouped
    }

    /// A bit per person of the store, set for the people in `grouped`.
    public static func members(of grouped: GroupedPeople, store: PeopleStore) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: (store.count + 63) / 64)
        for person in grouped.order { bits[Int(person) >> 6] |= 1 << UInt64(person & 63) }
        return bits
    }

    /// The same matches laid out over a new arrangement (after a sort).
    public static func reapply(_ result: SearchResult, to all: GroupedPeople, store: PeopleStore) -> SearchResult {
        Self.result(query: result.query, matches: result.matches, all: all, store: store)
    }

    private static func result(query: SearchQuery, matches: [UInt64], all: GroupedPeople, store: PeopleStore) -> SearchResult {
        var order = ContiguousArray<UInt32>()
        matches.withUnsafeBufferPointer { bits in
            all.order.withUnsafeBufferPointer { everyone in
                for person in everyone where bits[Int(person) >> 6] & (1 << UInt64(person & 63)) != 0 {
                    order.append(person)
                }
            }
        }
        return SearchResult(query: query, grouped: regroup(order, like: all, store: store), matches: matches)
    }

    /// Sections for `matches` (already in list order), totals from `all`.
    private static func regroup(_ matches: ContiguousArray<UInt32>, like all: GroupedPeople, store: PeopleStore) -> GroupedPeople {
        if let only = all.sections.first, all.sections.count == 1 {
            // The flat list: one section, whatever the companies.
            let sections = matches.isEmpty ? [] : [CompanySection(title: only.title, companyID: only.companyID,
                                                                   range: 0..<matches.count, total: only.total)]
            return GroupedPeople(order: matches, sections: sections)
        }
        var sections: [CompanySection] = []
        var start = 0
        // The full sections by company id (an array: a million lookups, no hashing).
        var sectionOfCompany = [Int](repeating: -1, count: store.companies.count)
        for (index, section) in all.sections.enumerated() where section.companyID >= 0 { sectionOfCompany[section.companyID] = index }
        store.companyOfPerson.withUnsafeBufferPointer { companyOfPerson in
            while start < matches.count {
                let companyID = Int(companyOfPerson[Int(matches[start])])
                var end = start + 1
                while end < matches.count, Int(companyOfPerson[Int(matches[end])]) == companyID { end += 1 }
                let full = sectionOfCompany[companyID]
                let title = full >= 0 ? all.sections[full].title : ""
                let total = full >= 0 ? all.sections[full].total : end - start
                sections.append(CompanySection(title: title, companyID: companyID, range: start..<end, total: total))
                start = end
            }
        }
        return GroupedPeople(order: matches, sections: sections)
    }

    /// Raw views of one segment's arrays, for the search loop.
    struct SegmentView {
        let base: Int
        let arena: UnsafeBufferPointer<UInt8>
        let recordStart: UnsafeBufferPointer<Int>
        let fieldEnds: UnsafeBufferPointer<UInt32>
        let nameKeys: UnsafeBufferPointer<UInt8>
        let nameKeyEnds: UnsafeBufferPointer<Int>
        let companyOfPerson: UnsafeBufferPointer<UInt32>

        @inline(__always)
        func nameKey(_ local: Int) -> UnsafeBufferPointer<UInt8> {
            let start = local == 0 ? 0 : nameKeyEnds[local - 1]
            return UnsafeBufferPointer(rebasing: nameKeys[start..<nameKeyEnds[local]])
        }

        /// Email, phone and address as one run, with where phone and address start.
        @inline(__always)
        func contact(_ local: Int) -> (UnsafeBufferPointer<UInt8>, Int, Int) {
            let record = recordStart[local]
            let slot = local * PeopleSegment.textFieldCount
            let emailStart = Int(fieldEnds[slot + TextField.email.rawValue - 1])
            let phoneStart = Int(fieldEnds[slot + TextField.phone.rawValue - 1])
            let addressStart = Int(fieldEnds[slot + TextField.address.rawValue - 1])
            let addressEnd = Int(fieldEnds[slot + TextField.address.rawValue])
            return (UnsafeBufferPointer(rebasing: arena[(record + emailStart)..<(record + addressEnd)]),
                    phoneStart - emailStart, addressStart - emailStart)
        }
    }

    /// Tests one person's fields; keeps a scratch buffer between calls.
    struct Matcher {
        let store: PeopleStore
        let needle: [UInt8]
        let companyMatches: [Bool]
        let hasSpace: Bool
        var scratch: [UInt8] = []

        init(store: PeopleStore, query: SearchQuery, companyMatches: [Bool]) {
            self.store = store
            needle = query.folded
            self.companyMatches = companyMatches
            hasSpace = query.folded.contains(UInt8(ascii: " "))
        }

        /// Whether `person` matches, read through its segment's raw views.
        @inline(__always)
        mutating func matches(_ person: Int, in view: SegmentView) -> Bool {
            if companyMatches[Int(view.companyOfPerson[person])] { return true }
            let local = person - view.base
            if !hasSpace {
                if needle.withUnsafeBufferPointer({ SearchQuery.contains(view.nameKey(local), $0) }) { return true }
            } else if nameMatches(person) {
                return true
            }
            let (bytes, phoneStart, addressStart) = view.contact(local)
            return contactMatches(bytes, phoneStart: phoneStart, addressStart: addressStart)
        }

        /// The folded name key is "last\0first": each part, and "first last".
        private mutating func nameMatches(_ person: Int) -> Bool {
            let needle = self.needle
            if !hasSpace {
                return store.withNameKey(of: person) { key in needle.withUnsafeBufferPointer { SearchQuery.contains(key, $0) } }
            }
            var combined = scratch
            defer { scratch = combined }
            return store.withNameKey(of: person) { key -> Bool in
                let split = key.firstIndex(of: 0) ?? key.count
                combined.removeAll(keepingCapacity: true)
                combined.append(contentsOf: key[min(key.count, split + 1)...])
                combined.append(UInt8(ascii: " "))
                combined.append(contentsOf: key[0..<split])
                return combined.withUnsafeBufferPointer { whole in needle.withUnsafeBufferPointer { SearchQuery.contains(whole, $0) } }
            }
        }

        /// Email, phone and address lie side by side in the store: one
        /// case-insensitive pass over the three, a hit counting only when it
        /// stays inside one field. Non-ASCII text is folded on the fly.
        private mutating func contactMatches(_ bytes: UnsafeBufferPointer<UInt8>, phoneStart: Int, addressStart: Int) -> Bool {
            let needle = self.needle
            var folded = scratch
            defer { scratch = folded }
            return needle.withUnsafeBufferPointer { needle in
                do {
                    var from = 0
                    while let hit = firstMatchIgnoringASCIICase(bytes, needle, from: from) {
                        let end = hit + needle.count
                        if (hit >= phoneStart || end <= phoneStart) && (hit >= addressStart || end <= addressStart) { return true }
                        from = hit + 1
                    }
                    guard bytes.contains(where: { $0 >= 0x80 }) else { return false }
                    for field in [0..<phoneStart, phoneStart..<addressStart, addressStart..<bytes.count] {
                        LatinFolding.fold(UnsafeBufferPointer(rebasing: bytes[field]), into: &folded)
                        if folded.withUnsafeBufferPointer({ SearchQuery.contains($0, needle) }) { return true }
                    }
                    return false
                }
            }
        }
    }

    /// Offset of the first place at or after `from` where ASCII-lowercased
    /// `haystack` holds `needle` (lowercase), or nil. Candidates for the
    /// needle's first byte, in either case, are found eight bytes at a time.
    static func firstMatchIgnoringASCIICase(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>,
                                            from: Int) -> Int? {
        guard needle.count > 0 else { return from }
        guard haystack.count >= needle.count + from, let base = haystack.baseAddress else { return nil }
        let first = needle[0]
        let upper = first &- UInt8(ascii: "a") < 26 ? first - 32 : first
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lowerPattern = ones &* UInt64(first), upperPattern = ones &* UInt64(upper)
        let last = haystack.count - needle.count
        var start = from
        while start <= last {
            if start + 8 <= haystack.count {
                let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
                let a = word ^ lowerPattern, b = word ^ upperPattern
                if ((a &- ones) & ~a | (b &- ones) & ~b) & highs == 0 {
                    start += 8
                    continue
                }
            }
            let stop = min(start + 8, last + 1)
            while start < stop {
                if TextFolding.lowercasedASCII(base[start]) == first {
                    var offset = 1
                    while offset < needle.count, TextFolding.lowercasedASCII(base[start + offset]) == needle[offset] { offset += 1 }
                    if offset == needle.count { return start }
                }
                start += 1
            }
        }
        return nil
    }

}

/// Folding of UTF-8 bytes without Foundation, for searching a million
/// fields a keystroke: ASCII letters lowercased, the accented letters of
/// Latin-1 and Latin Extended-A mapped to their base letter (`ö` → `o`,
/// `Ł` → `l`), anything else kept as it is. Agrees with `TextFolding` on
/// every character it maps.
enum LatinFolding {
    static func fold(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                output.append(TextFolding.lowercasedASCII(byte))
                index += 1
                continue
            }
            if (byte == 0xC3 || byte == 0xC4 || byte == 0xC5), index + 1 < bytes.count {
                let scalar = (Int(byte & 0x1F) << 6) | Int(bytes[index + 1] & 0x3F)
                if scalar >= 0xC0, scalar <= 0x17F, let base = baseLetters[scalar - 0xC0] {
                    output.append(base)
                    index += 2
                    continue
                }
            }
            output.append(byte)
            index += 1
        }
    }

    /// U+00C0…U+017F → base letter (nil: keep the bytes, e.g. ×, ÷, æ, ß).
    private static let baseLetters: [UInt8?] = {
        // Generated from Unicode decompositions (NFD base letter, lowercased);
        // x: no ASCII base (×, ÷, æ, ø, ß, đ, ł …), kept as it is.
        let table = "aaaaaaxceeeeiiiixnoooooxxuuuuyxxaaaaaaxceeeeiiiixnoooooxxuuuuyxyaaaaaaccccccccddxxeeeeeeeeeegggggggghhxxiiiiiiiiixxxjjkkxllllllxxxxnnnnnnxxxooooooxxrrrrrrssssssssttttxxuuuuuuuuuuuuwwyyyzzzzzzx"
        return table.unicodeScalars.map { $0 == "x" ? nil : UInt8(ascii: $0) }
    }()
}
