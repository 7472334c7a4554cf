import Dispatch
import Foundation
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
/// Names and companies are compared on the folded keys the loader made;
/// a plain term first asks each person's presence bits (`PresenceMasks`),
/// which answer a one-character term alone and rule most people out of a
/// longer one before their text is read. Each half of a search returns its
/// own bits: the halves share nothing they write.
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
        let prepared = PreparedTerms(query.terms, companies: store.companies)
        let presence = prepared.readsPresence ? store.presenceMasks() : []
        let halfWords = (words + 1) / 2
        // Each half returns its own words; none means it was cancelled.
        let halves = Parallel.map(2) { half in
            let wordRange = min(words, half * halfWords)..<min(words, (half + 1) * halfWords)
            return matches(in: wordRange, store: store, presence: presence, terms: prepared, within: within,
                           isCancelled: isCancelled)
        }
        guard let first = halves[0], let second = halves[1] else { return nil }
        return result(query: query, matches: first + second, all: all, store: store)
    }

    /// The match bits of the people in `wordRange` (64 a word, file
    /// order), segment by segment; nil if cancelled.
    private static func matches(in wordRange: Range<Int>, store: PeopleStore, presence: [ContiguousArray<UInt64>],
                                terms prepared: PreparedTerms, within: SearchResult?, isCancelled: () -> Bool) -> [UInt64]? {
        var bits = [UInt64](repeating: 0, count: wordRange.count)
        // The terms in raw memory: the loop then runs without reference
        // counting (binding an array out of an enum per person per term
        // retained and released it, which doubled the time of a search).
        let pinned = PinnedTerms(prepared)
        defer { withExtendedLifetime(pinned) {} }
        var matcher = Matcher(terms: pinned.terms)
        let firstWord = wordRange.lowerBound
        // Segment by segment, with raw views of its arrays: the per-person
        // cost is then a few loads, not a lookup.
        for (segmentIndex, segment) in store.segments.enumerated() {
            let base = store.segmentStarts[segmentIndex]
            let from = max(wordRange.lowerBound * 64, base), to = min(wordRange.upperBound * 64, base + segment.count, store.count)
            guard from < to else { continue }
            let masks = presence.isEmpty ? [] : presence[segmentIndex]
            let stopped = bits.withUnsafeMutableBufferPointer { bits in
                SegmentView.of(segment, base: base, store: store, presence: masks) { view in
                    scan(from..<to, in: view, into: bits, firstWord: firstWord, within: within, matcher: &matcher, isCancelled: isCancelled)
                }
            }
            if stopped { return nil }
        }
        return bits
    }

    /// Sets the bits of the people in `range` who match (those `within`
    /// matched, when narrowing), 64 at a time; true if cancelled.
    @inline(__always)
    private static func scan(_ range: Range<Int>, in view: SegmentView, into bits: UnsafeMutableBufferPointer<UInt64>, firstWord: Int,
                             within: SearchResult?, matcher: inout Matcher, isCancelled: () -> Bool) -> Bool {
        var person = range.lowerBound
        while person < range.upperBound {
            let word = person >> 6
            if word & 63 == 0, person & 63 == 0, isCancelled() { return true }
            let end = min(range.upperBound, (word + 1) * 64)
            let candidates: UInt64 = within?.matches[word] ?? ~0
            if candidates == 0 {  // a narrowed search skips 64 people at a time
                person = end
                continue
            }
            var found: UInt64 = 0
            for position in person..<end {
                let bit = UInt64(position & 63)
                if candidates & (1 << bit) != 0, matcher.matches(position, in: view) { found |= 1 << bit }
            }
            bits[word - firstWord] |= found
            person = end
        }
        return false
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
        // Filled in place, at the size the bits give: appending a million
        // people one by one checked the array's uniqueness each time.
        let found = matches.reduce(0) { $0 + $1.nonzeroBitCount }
        var order = ContiguousArray<UInt32>(repeating: 0, count: found)
        var filled = 0
        matches.withUnsafeBufferPointer { bits in
            all.order.withUnsafeBufferPointer { everyone in
                order.withUnsafeMutableBufferPointer { order in
                    for person in everyone where bits[Int(person) >> 6] & (1 << UInt64(person & 63)) != 0 {
                        order[filled] = person
                        filled += 1
                    }
                }
            }
        }
        // `all` may hold fewer people than the bits (a company's own list).
        order.removeLast(found - filled)
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
        var sectionOfCompany = [Int?](repeating: nil, count: store.companies.count)
        for (index, section) in all.sections.enumerated() {
            if let company = section.companyID { sectionOfCompany[company] = index }
        }
        store.companyOfPerson.withUnsafeBufferPointer { companyOfPerson in
            while start < matches.count {
                let companyID = Int(companyOfPerson[Int(matches[start])])
                var end = start + 1
                while end < matches.count, Int(companyOfPerson[Int(matches[end])]) == companyID { end += 1 }
                let full = sectionOfCompany[companyID].map { all.sections[$0] }
                let title = full?.title ?? ""
                let total = full?.total ?? end - start
                sections.append(CompanySection(title: title, companyID: companyID, range: start..<end, total: total))
                start = end
            }
        }
        return GroupedPeople(order: matches, sections: sections)
    }
}
