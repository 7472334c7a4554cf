import Dispatch
import Foundation
#if !ROSTER_FUZZ
import RosterCore
#endif

/// What the search loop reads: a segment's arrays and the query's terms
/// as raw pointers, pinned for the length of one search.
extension PeopleSearch {
    /// Raw views of one segment's arrays, for the search loop.
    struct SegmentView {
        let base: Int
        /// The segment's own arrays, from its first person.
        let people: PeopleSegment.Buffers
        let companyOfPerson: UnsafeBufferPointer<UInt32>
        /// `PresenceMasks` of the segment's people (empty when no term reads them).
        let presence: UnsafeBufferPointer<UInt64>
        /// `ContactRun`'s first and last fields, read once per segment (not per person).
        let contactFirst = ContactRun.first, contactLast = ContactRun.last

        /// Runs `body` with raw views of `segment`'s arrays, whose first
        /// person is `base` in `store`.
        @inline(__always)
        static func of<Result>(_ segment: PeopleSegment, base: Int, store: PeopleStore, presence masks: ContiguousArray<UInt64>,
                               _ body: (SegmentView) -> Result) -> Result {
            masks.withUnsafeBufferPointer { masks in
                store.companyOfPerson.withUnsafeBufferPointer { companyOfPerson in
                    segment.withBuffers { people in
                        body(SegmentView(base: base, people: people, companyOfPerson: companyOfPerson, presence: masks))
                    }
                }
            }
        }

        @inline(__always)
        func nameKey(_ local: Int) -> UnsafeBufferPointer<UInt8> {
            people.nameKey(local)
        }

        @inline(__always)
        func field(_ field: TextField, of local: Int) -> UnsafeBufferPointer<UInt8> {
            people.field(field, of: local)
        }

        /// The fields a bare term reads whole (`ContactRun`) as one run of
        /// the record's bytes, with where its second and third fields start.
        @inline(__always)
        func contact(_ local: Int) -> (UnsafeBufferPointer<UInt8>, Int, Int) {
            let record = people.recordStart[local]
            let slot = local * people.fieldCount
            let start = Int(people.fieldEnds[slot + contactFirst - 1])
            let secondStart = Int(people.fieldEnds[slot + contactFirst])
            let thirdStart = Int(people.fieldEnds[slot + contactFirst + 1])
            let end = Int(people.fieldEnds[slot + contactLast])
            return (UnsafeBufferPointer(rebasing: people.arena[(record + start)..<(record + end)]), secondStart - start, thirdStart - start)
        }
    }

    /// The record's fields a bare term reads whole (`TextScope.bareTermFields`:
    /// email, phone, address), which the search loop and the presence masks
    /// read as one run of bytes: three fields side by side in the record.
    /// A table that asks for another shape stops the first search, loudly.
    enum ContactRun {
        /// The first field's and the last field's `TextField` raw values.
        static let (first, last): (Int, Int) = {
            let fields = TextScope.bareTermFields.map(\.rawValue)
            precondition(fields.count == 3 && fields == Array(fields[0]...fields[0] + 2),
                         "the search loop reads a bare term's fields as three side by side, not \(TextScope.bareTermFields)")
            return (fields[0], fields[2])
        }()
    }

    /// A term as the search loop reads it: plain values and pointers into
    /// `PinnedTerms`' memory.
    struct RawTerm {
        enum Kind { case active, age, balance, noAge, noBalance, text, exact, people }
        var kind: Kind
        var scope: TextScope = .anywhere
        /// `scope.recordField`, looked up once per search, not per person.
        var recordField: TextField?
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
        /// `.people`: a bit per person (`PersonSet`'s words).
        var people = UnsafeBufferPointer<UInt64>(start: nil, count: 0)
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
                    raw.append(RawTerm(kind: .exact, scope: scope, recordField: scope.recordField, isNegated: term.isNegated, needle: pin(needle),
                                       companies: pin(companyMatches)))
                case .people(let set):
                    raw.append(RawTerm(kind: .people, isNegated: term.isNegated, people: pin(set.words)))
                case .orgChart:
                    // Not answered by the source's chart: nobody (see `CompiledTerm.Test.orgChart`).
                    raw.append(RawTerm(kind: .people, isNegated: term.isNegated))
                case .text(let scope, let needle, let spansParts, let digits):
                    raw.append(RawTerm(kind: .text, scope: scope, recordField: scope.recordField, isNegated: term.isNegated, spansParts: spansParts,
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
}
