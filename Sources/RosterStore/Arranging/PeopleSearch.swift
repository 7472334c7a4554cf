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
             masks.withUnsafeBufferPointer { masks in
              segment.recordStart.withUnsafeBufferPointer { recordStart in
                segment.fieldEnds.withUnsafeBufferPointer { fieldEnds in
                    segment.nameKeyEnds.withUnsafeBufferPointer { nameKeyEnds in
                        store.companyOfPerson.withUnsafeBufferPointer { companyOfPerson in
                          segment.ages.withUnsafeBufferPointer { ages in
                           segment.cents.withUnsafeBufferPointer { cents in
                            segment.activeFlags.withUnsafeBufferPointer { activeFlags in
                            let view = SegmentView(base: base, arena: segment.arena.allBytes, recordStart: recordStart,
                                                   fieldEnds: fieldEnds, nameKeys: segment.nameKeys.allBytes,
                                                   nameKeyEnds: nameKeyEnds, companyOfPerson: companyOfPerson,
                                                   ages: ages, cents: cents, activeFlags: activeFlags, presence: masks)
                            var person = from
                            while person < to {
                                let word = person >> 6
                                if word & 63 == 0, person & 63 == 0, isCancelled() { return true }
                                let end = min(to, (word + 1) * 64)
                                var candidates: UInt64 = within?.matches[word] ?? ~0
                                if candidates == 0 {  // a narrowed search skips 64 people at a time
                                    person = end
                                    continue
                                }
                                var found: UInt64 = 0
                                for position in person..<end {
                                    let bit = UInt64(position & 63)
                                    if candidates & (1 << bit) != 0, matcher.matches(position, in: view) { found |= 1 << bit }
                                }
                                candidates = 0
                                bits[word - firstWord] |= found
                                person = end
                            }
                            return false
                            }
                           }
                          }
                        }
                    }
                }
              }
             }
            }
            if stopped { return nil }
        }
        return bits
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
        let ages: UnsafeBufferPointer<Int32>
        let cents: UnsafeBufferPointer<Int64>
        let activeFlags: UnsafeBufferPointer<UInt8>
        /// `PresenceMasks` of the segment's people (empty when no term reads them).
        let presence: UnsafeBufferPointer<UInt64>
        /// `PeopleSegment.textFieldCount`, read once: a static is a lazy global,
        /// checked on every read (per person, that showed in profiles).
        let fieldCount = PeopleSegment.textFieldCount

        @inline(__always)
        func nameKey(_ local: Int) -> UnsafeBufferPointer<UInt8> {
            let start = local == 0 ? 0 : nameKeyEnds[local - 1]
            return UnsafeBufferPointer(rebasing: nameKeys[start..<nameKeyEnds[local]])
        }

        @inline(__always)
        func field(_ field: TextField, of local: Int) -> UnsafeBufferPointer<UInt8> {
            let record = recordStart[local]
            let slot = local * fieldCount + field.rawValue
            let start = field.rawValue == 0 ? 0 : Int(fieldEnds[slot - 1])
            return UnsafeBufferPointer(rebasing: arena[(record + start)..<(record + Int(fieldEnds[slot]))])
        }

        /// Email, phone and address as one run, with where phone and address start.
        @inline(__always)
        func contact(_ local: Int) -> (UnsafeBufferPointer<UInt8>, Int, Int) {
            let record = recordStart[local]
            let slot = local * fieldCount
            let emailStart = Int(fieldEnds[slot + TextField.email.rawValue - 1])
            let phoneStart = Int(fieldEnds[slot + TextField.phone.rawValue - 1])
            let addressStart = Int(fieldEnds[slot + TextField.address.rawValue - 1])
            let addressEnd = Int(fieldEnds[slot + TextField.address.rawValue])
            return (UnsafeBufferPointer(rebasing: arena[(record + emailStart)..<(record + addressEnd)]),
                    phoneStart - emailStart, addressStart - emailStart)
        }
    }

    /// A term as the search loop reads it: plain values and pointers into
    /// `PinnedTerms`' memory.
    struct RawTerm {
        enum Kind { case active, age, balance, noAge, noBalance, text, exact }
        var kind: Kind
        var scope: TextScope = .anywhere
        var isNegated: Bool
        var spansParts = false
        var bounds: ClosedRange<Int64> = 0...0
        var needle = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        /// The phone digits a plain or `phone:` term also matches (empty: none).
        var digits = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        /// Per company id, whether the company matches (plain and `company:` terms).
        var companies = UnsafeBufferPointer<Bool>(start: nil, count: 0)
        /// A plain term's `PresenceMasks` bits: a person lacking any of them
        /// matches only by company or phone digits.
        var presence: UInt64 = 0
        /// A plain term of one byte with a bit of its own: the bit alone decides.
        var presenceDecides = false
        /// The bits of `digits`: a person lacking any has no phone that holds them.
        var digitsPresence: UInt64 = 0
    }

    /// A query's terms with what can be decided once per search decided:
    /// which companies each company-matching term matches. Plain values,
    /// shared by the halves of a search; each pins its own copy.
    struct PreparedTerms: Sendable {
        let terms: [CompiledTerm]
        /// Per term, per company id, whether the company matches (empty for
        /// terms that do not look at the company).
        let companyMatches: [[Bool]]
        /// Whether a plain term reads the people's `PresenceMasks`.
        var readsPresence: Bool {
            terms.contains { if case .text(.anywhere, _, _, _) = $0.test { true } else { false } }
        }

        init(_ terms: [CompiledTerm], companies: [Company]) {
            self.terms = terms
            companyMatches = terms.map { term in
                if case .exact(let scope, let needle) = term.test, scope == .company || scope == .anywhere {
                    return companies.map { $0.key == needle }
                }
                guard case .text(let scope, let needle, _, _) = term.test, scope == .company || scope == .anywhere else { return [] }
                // ByteSearch, not `[UInt8].contains`: that is the generic
                // string-processing search, 70k companies cost 200 ms a keystroke.
                return needle.withUnsafeBufferPointer { needle in
                    companies.map { company in company.key.withUnsafeBufferPointer { ByteSearch.contains($0, needle) } }
                }
            }
        }
    }

    /// Owns the memory `RawTerm`s point into, for the length of one search
    /// (one half of it): not `Sendable`, it stays on the thread that made it.
    final class PinnedTerms {
        private(set) var terms = UnsafeBufferPointer<RawTerm>(start: nil, count: 0)
        private var allocations: [UnsafeMutableRawPointer] = []

        init(_ prepared: PreparedTerms) {
            var raw: [RawTerm] = []
            for (term, companyMatches) in zip(prepared.terms, prepared.companyMatches) {
                switch term.test {
                case .active(let wanted):
                    raw.append(RawTerm(kind: .active, isNegated: term.isNegated, bounds: wanted ? 1...1 : 0...0))
                case .number(let field, let bounds):
                    raw.append(RawTerm(kind: field == .age ? .age : .balance, isNegated: term.isNegated, bounds: bounds))
                case .unrecorded(let field):
                    // The store's flag for activity not recorded is 2.
                    let kind: RawTerm.Kind = field == .age ? .noAge : field == .balance ? .noBalance : .active
                    raw.append(RawTerm(kind: kind, isNegated: term.isNegated, bounds: 2...2))
                case .exact(let scope, let needle):
                    raw.append(RawTerm(kind: .exact, scope: scope, isNegated: term.isNegated, needle: pin(needle),
                                       companies: pin(companyMatches)))
                case .text(let scope, let needle, let spansParts, let digits):
                    raw.append(RawTerm(kind: .text, scope: scope, isNegated: term.isNegated, spansParts: spansParts,
                                       needle: pin(needle), digits: pin(digits ?? []), companies: pin(companyMatches),
                                       presence: PresenceMasks.mask(of: needle),
                                       presenceDecides: needle.count == 1 && PresenceMasks.hasOwnBit(needle[0]),
                                       digitsPresence: PresenceMasks.mask(of: digits ?? [])))
                }
            }
            terms = pin(raw)
        }

        private func pin<T>(_ values: [T]) -> UnsafeBufferPointer<T> {
            let memory = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, values.count))
            _ = memory.initialize(from: values)
            if let base = memory.baseAddress { allocations.append(UnsafeMutableRawPointer(base)) }
            return UnsafeBufferPointer(rebasing: memory[0..<values.count])
        }

        deinit {
            // Every pinned type is trivial (bytes, flags, plain structs): nothing to deinitialise.
            for allocation in allocations { allocation.deallocate() }
        }
    }

    /// Tests one person against every term (the cheap ones first); keeps
    /// scratch buffers between calls. Means what `QueryReference` says.
    struct Matcher {
        let terms: UnsafeBufferPointer<RawTerm>
        var scratch: [UInt8] = []

        init(terms: UnsafeBufferPointer<RawTerm>) {
            self.terms = terms
        }

        /// Whether `person` matches, read through its segment's raw views.
        @inline(__always)
        mutating func matches(_ person: Int, in view: SegmentView) -> Bool {
            let local = person - view.base
            for term in terms where test(term, person, local, view) == term.isNegated {
                return false
            }
            return true
        }

        @inline(__always)
        private mutating func test(_ term: RawTerm, _ person: Int, _ local: Int, _ view: SegmentView) -> Bool {
            switch term.kind {
            case .active:
                return view.activeFlags[local] == UInt8(truncatingIfNeeded: term.bounds.lowerBound)
            case .age:
                let age = view.ages[local]
                return age != PeopleSegment.missingAge && term.bounds.contains(Int64(age))
            case .balance:
                let cents = view.cents[local]
                return cents != PeopleSegment.missingCents && term.bounds.contains(cents)
            case .noAge:
                return view.ages[local] == PeopleSegment.missingAge
            case .noBalance:
                return view.cents[local] == PeopleSegment.missingCents
            case .text:
                return textMatches(term, person, local, view)
            case .exact:
                return exactMatches(term, person, local, view)
            }
        }

        /// `field=value`: the whole field, folded, is the needle.
        private mutating func exactMatches(_ term: RawTerm, _ person: Int, _ local: Int, _ view: SegmentView) -> Bool {
            let needle = term.needle
            switch term.scope {
            case .anywhere:
                if term.companies[Int(view.companyOfPerson[person])] || nameEquals(needle, view.nameKey(local), part: nil) { return true }
                return foldedEquals(view.field(.email, of: local), needle) || foldedEquals(view.field(.phone, of: local), needle)
                    || foldedEquals(view.field(.address, of: local), needle)
            case .company: return term.companies[Int(view.companyOfPerson[person])]
            case .name: return nameEquals(needle, view.nameKey(local), part: nil)
            case .firstName: return nameEquals(needle, view.nameKey(local), part: .firstName)
            case .lastName: return nameEquals(needle, view.nameKey(local), part: .lastName)
            case .email, .phone, .address, .eyeColor, .favoriteFruit, .id, .guid, .street, .city, .state, .zip:
                return foldedEquals(Self.plainField(term.scope, local, view), needle)
            }
        }

        /// The folded name key is "last\0first": one part, or the
        /// non-empty parts as "first last".
        private func nameEquals(_ needle: UnsafeBufferPointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>, part: TextField?) -> Bool {
            let split = key.firstIndex(of: 0) ?? key.count
            let last = UnsafeBufferPointer(rebasing: key[0..<split])
            let first = UnsafeBufferPointer(rebasing: key[min(key.count, split + 1)...])
            switch part {
            case .firstName?: return first.elementsEqual(needle)
            case .lastName?: return last.elementsEqual(needle)
            default:
                if first.isEmpty { return last.elementsEqual(needle) }
                if last.isEmpty { return first.elementsEqual(needle) }
                guard needle.count == first.count + 1 + last.count, needle[first.count] == UInt8(ascii: " ") else { return false }
                return UnsafeBufferPointer(rebasing: needle[..<first.count]).elementsEqual(first)
                    && UnsafeBufferPointer(rebasing: needle[(first.count + 1)...]).elementsEqual(last)
            }
        }

        /// One field, folded as `LatinFolding` folds, equals the needle:
        /// ASCII compared in place, non-ASCII text folded first.
        private mutating func foldedEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
            guard hasNonASCII(bytes) else {
                guard bytes.count == needle.count else { return false }
                for index in bytes.indices where TextFolding.lowercasedASCII(bytes[index]) != needle[index] { return false }
                return true
            }
            var folded = scratch
            defer { scratch = folded }
            LatinFolding.fold(bytes, into: &folded)
            return folded.withUnsafeBufferPointer { $0.elementsEqual(needle) }
        }

        private mutating func textMatches(_ term: RawTerm, _ person: Int, _ local: Int, _ view: SegmentView) -> Bool {
            let needle = term.needle
            switch term.scope {
            case .anywhere:
                if term.companies[Int(view.companyOfPerson[person])] { return true }
                let present = view.presence[local]
                if present & term.presence == term.presence {
                    if term.presenceDecides { return true }
                    if nameMatches(needle, term.spansParts, view.nameKey(local), part: nil) { return true }
                    let (bytes, phoneStart, addressStart) = view.contact(local)
                    if contactMatches(needle, bytes, phoneStart: phoneStart, addressStart: addressStart,
                                      mayNeedFolding: present & PresenceMasks.contactHasNonASCII != 0) { return true }
                }
                return !term.digits.isEmpty && present & term.digitsPresence == term.digitsPresence
                    && digitsMatch(term.digits, view.field(.phone, of: local))
            case .company: return term.companies[Int(view.companyOfPerson[person])]
            case .name: return nameMatches(needle, term.spansParts, view.nameKey(local), part: nil)
            case .firstName: return nameMatches(needle, term.spansParts, view.nameKey(local), part: .firstName)
            case .lastName: return nameMatches(needle, term.spansParts, view.nameKey(local), part: .lastName)
            case .phone:
                let phone = view.field(.phone, of: local)
                return fieldContains(phone, needle) || (!term.digits.isEmpty && digitsMatch(term.digits, phone))
            case .email, .address, .eyeColor, .favoriteFruit, .id, .guid, .street, .city, .state, .zip:
                return fieldContains(Self.plainField(term.scope, local, view), needle)
            }
        }

        /// The bytes a scope other than names and the company looks at:
        /// one field, or one part of the address (`AddressPart`).
        @inline(__always)
        private static func plainField(_ scope: TextScope, _ local: Int, _ view: SegmentView) -> UnsafeBufferPointer<UInt8> {
            switch scope {
            case .street: return AddressPart.bytes(0, of: view.field(.address, of: local))
            case .city: return AddressPart.bytes(1, of: view.field(.address, of: local))
            case .state: return AddressPart.bytes(2, of: view.field(.address, of: local))
            case .zip: return AddressPart.bytes(3, of: view.field(.address, of: local))
            case .email: return view.field(.email, of: local)
            case .phone: return view.field(.phone, of: local)
            case .address: return view.field(.address, of: local)
            case .eyeColor: return view.field(.eyeColor, of: local)
            case .favoriteFruit: return view.field(.favoriteFruit, of: local)
            case .id: return view.field(.id, of: local)
            case .guid: return view.field(.guid, of: local)
            case .anywhere, .name, .firstName, .lastName, .company: return UnsafeBufferPointer(start: nil, count: 0)
            }
        }

        /// The folded name key is "last\0first": one part, either part, or
        /// (for a text with a space) "first last".
        private mutating func nameMatches(_ needle: UnsafeBufferPointer<UInt8>, _ spansParts: Bool, _ key: UnsafeBufferPointer<UInt8>,
                                          part: TextField?) -> Bool {
            if part == nil, !spansParts { return contains(key, needle) }
            let split = key.firstIndex(of: 0) ?? key.count
            let last = UnsafeBufferPointer(rebasing: key[0..<split])
            let first = UnsafeBufferPointer(rebasing: key[min(key.count, split + 1)...])
            switch part {
            case .firstName?: return contains(first, needle)
            case .lastName?: return contains(last, needle)
            default:
                // Moved out and back, not copied: a copy would make every
                // append reallocate (the buffer shared with `scratch`).
                var combined: [UInt8] = []
                swap(&combined, &scratch)
                defer { swap(&combined, &scratch) }
                combined.removeAll(keepingCapacity: true)
                combined.append(contentsOf: first)
                combined.append(UInt8(ascii: " "))
                combined.append(contentsOf: last)
                return combined.withUnsafeBufferPointer { contains($0, needle) }
            }
        }

        /// One field, ASCII case ignored; non-ASCII text folded on the fly.
        private mutating func fieldContains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
            contactMatches(needle, bytes, phoneStart: bytes.count, addressStart: bytes.count, mayNeedFolding: hasNonASCII(bytes))
        }

        /// Whether the phone's digits, punctuation dropped, hold `wanted`
        /// (compared in place: from each digit, the digits that follow).
        private func digitsMatch(_ wanted: UnsafeBufferPointer<UInt8>, _ phone: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = wanted.first else { return true }
            for start in phone.indices where phone[start] == first {
                var matched = 1, index = start + 1
                while matched < wanted.count, index < phone.count {
                    let byte = phone[index]
                    index += 1
                    guard byte &- UInt8(ascii: "0") < 10 else { continue }
                    guard byte == wanted[matched] else { break }
                    matched += 1
                }
                if matched == wanted.count { return true }
            }
            return false
        }

        /// Email, phone and address lie side by side in the store: one
        /// case-insensitive pass over the three, a hit counting only when it
        /// stays inside one field. Non-ASCII text (`mayNeedFolding`: the
        /// bytes have some) is folded on the fly, field by field.
        private mutating func contactMatches(_ needle: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>,
                                             phoneStart: Int, addressStart: Int, mayNeedFolding: Bool) -> Bool {
            var from = 0
            while let hit = firstMatchIgnoringASCIICase(bytes, needle, from: from) {
                let end = hit + needle.count
                if (hit >= phoneStart || end <= phoneStart) && (hit >= addressStart || end <= addressStart) { return true }
                from = hit + 1
            }
            guard mayNeedFolding else { return false }
            var folded: [UInt8] = []
            swap(&folded, &scratch)
            defer { swap(&folded, &scratch) }
            // The three fields one after another (no array of bounds: this runs per person).
            var lower = 0
            for field in 0..<3 {
                let upper = field == 0 ? phoneStart : field == 1 ? addressStart : bytes.count
                guard lower < upper else { continue }
                LatinFolding.fold(UnsafeBufferPointer(rebasing: bytes[lower..<upper]), into: &folded)
                if folded.withUnsafeBufferPointer({ contains($0, needle) }) { return true }
                lower = upper
            }
            return false
        }

        /// Whether any byte is outside ASCII, eight bytes at a time.
        @inline(__always)
        private func hasNonASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = bytes.baseAddress else { return false }
            var index = 0
            while index + 8 <= bytes.count {
                if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return true }
                index += 8
            }
            while index < bytes.count {
                if bytes[index] >= 0x80 { return true }
                index += 1
            }
            return false
        }
    }

    /// Offset of the first place at or after `from` where ASCII-lowercased
    /// `haystack` holds `needle` (lowercase), or nil. Places where the
    /// needle's first two bytes both match, in either case, are found eight
    /// at a time (one byte alone, as frequent as `s`, sent most places to
    /// the byte-by-byte comparison).
    static func firstMatchIgnoringASCIICase(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>,
                                            from: Int) -> Int? {
        guard needle.count > 0 else { return from }
        guard haystack.count >= needle.count + from, let base = haystack.baseAddress else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// High bit set in each byte of `word` equal to `byte` in either case
        /// (and possibly in a byte just above one that is: candidates only).
        @inline(__always)
        func equalBytes(_ word: UInt64, _ byte: UInt8) -> UInt64 {
            let upper = byte &- UInt8(ascii: "a") < 26 ? byte - 32 : byte
            let a = word ^ (ones &* UInt64(byte)), b = word ^ (ones &* UInt64(upper))
            return ((a &- ones) & ~a | (b &- ones) & ~b) & highs
        }
        let first = needle[0]
        // With one byte, the second test passes everywhere.
        let second = needle.count > 1 ? needle[1] : nil
        let last = haystack.count - needle.count
        var start = from
        while start <= last {
            // The second byte's word is read one further on: it must fit too.
            if start + 9 <= haystack.count {
                let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
                var candidates = equalBytes(word, first)
                if let second, candidates != 0 {
                    candidates &= equalBytes(UnsafeRawPointer(base + start + 1).loadUnaligned(as: UInt64.self), second)
                }
                if candidates == 0 {
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

    /// Whether `haystack` contains `needle`, byte for byte.
    @inline(__always)
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteSearch.contains(haystack, needle)
    }
}
