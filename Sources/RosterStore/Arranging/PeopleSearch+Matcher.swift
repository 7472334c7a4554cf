import Dispatch
import Foundation
#if !ROSTER_FUZZ
import RosterCore
#endif

/// The search loop's test of one person, and the byte searches it uses.
extension PeopleSearch {
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
                return view.people.activeFlags[local] == UInt8(truncatingIfNeeded: term.bounds.lowerBound)
            case .age:
                let age = view.people.ages[local]
                return age != PeopleSegment.missingAge && term.bounds.contains(Int64(age))
            case .balance:
                let cents = view.people.cents[local]
                return cents != PeopleSegment.missingCents && term.bounds.contains(cents)
            case .noAge:
                return view.people.ages[local] == PeopleSegment.missingAge
            case .noBalance:
                return view.people.cents[local] == PeopleSegment.missingCents
            case .text:
                return textMatches(term, person, local, view)
            case .exact:
                return exactMatches(term, person, local, view)
            case .people:
                let word = person >> 6
                return word < term.people.count && term.people[word] & (1 << UInt64(person & 63)) != 0
            }
        }

        /// `field=value`: the whole field, folded, is the needle.
        private mutating func exactMatches(_ term: RawTerm, _ person: Int, _ local: Int, _ view: SegmentView) -> Bool {
            let needle = term.needle
            switch term.scope {
            case .anywhere:
                if term.companies[Int(view.companyOfPerson[person])] || nameEquals(needle, view.nameKey(local), part: nil) { return true }
                for field in TextScope.bareTermFields where foldedEquals(view.field(field, of: local), needle) { return true }
                return false
            case .company: return term.companies[Int(view.companyOfPerson[person])]
            case .name: return nameEquals(needle, view.nameKey(local), part: nil)
            case .firstName: return nameEquals(needle, view.nameKey(local), part: .firstName)
            case .lastName: return nameEquals(needle, view.nameKey(local), part: .lastName)
            default:
                return foldedEquals(Self.plainField(term, local, view), needle)
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
                    let (bytes, secondStart, thirdStart) = view.contact(local)
                    if contactMatches(needle, bytes, secondStart: secondStart, thirdStart: thirdStart,
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
            default:
                return fieldContains(Self.plainField(term, local, view), needle)
            }
        }

        /// The bytes a scope other than names and the company looks at:
        /// one field, or one part of the address (`AddressPart`).
        @inline(__always)
        private static func plainField(_ term: RawTerm, _ local: Int, _ view: SegmentView) -> UnsafeBufferPointer<UInt8> {
            if let field = term.recordField { return view.field(field, of: local) }
            switch term.scope {
            case .street: return AddressPart.bytes(0, of: view.field(.address, of: local))
            case .city: return AddressPart.bytes(1, of: view.field(.address, of: local))
            case .state: return AddressPart.bytes(2, of: view.field(.address, of: local))
            case .zip: return AddressPart.bytes(3, of: view.field(.address, of: local))
            default:
                // The names and the company are matched on their keys, never here.
                return UnsafeBufferPointer(start: nil, count: 0)
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
            contactMatches(needle, bytes, secondStart: bytes.count, thirdStart: bytes.count, mayNeedFolding: hasNonASCII(bytes))
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

        /// The contact run's three fields (`ContactRun`: email, phone,
        /// address) lie side by side in the store: one
        /// case-insensitive pass over the three, a hit counting only when it
        /// stays inside one field. Non-ASCII text (`mayNeedFolding`: the
        /// bytes have some) is folded on the fly, field by field.
        private mutating func contactMatches(_ needle: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>,
                                             secondStart: Int, thirdStart: Int, mayNeedFolding: Bool) -> Bool {
            var from = 0
            while let hit = firstMatchIgnoringASCIICase(bytes, needle, from: from) {
                let end = hit + needle.count
                if (hit >= secondStart || end <= secondStart) && (hit >= thirdStart || end <= thirdStart) { return true }
                from = hit + 1
            }
            guard mayNeedFolding else { return false }
            var folded: [UInt8] = []
            swap(&folded, &scratch)
            defer { swap(&folded, &scratch) }
            // The run's three fields one after another (no array of bounds: this runs per person).
            var lower = 0
            for field in 0..<3 {
                let upper = field == 0 ? secondStart : field == 1 ? thirdStart : bytes.count
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
