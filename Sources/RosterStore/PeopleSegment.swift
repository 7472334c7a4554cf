#if !ROSTER_FUZZ
import RosterCore
#endif

/// The people one loader thread parsed: a contiguous run of the file,
/// frozen from its `PeopleSegmentBuilder`; or a window on such a run
/// (`window(_:shiftingFileOffsetsBy:)`), sharing its buffers, so that a
/// store with one record rewritten keeps everyone else's bytes where they are.
///
/// A class, so that reading a field retains one reference rather than
/// copying a struct of fifteen arrays (that was a quarter of search time).
/// Immutable: every stored property is a `let` of a `Sendable` type, so the
/// compiler checks that sharing it between threads is safe.
public final class PeopleSegment: Sendable {
    static let textFieldCount = TextField.allCases.count
    static let missingInt = Int.min
    static let missingAge = Int32.min
    static let missingCents = Int64.min

    public let count: Int
    /// Where the window starts in the per-person buffers below (0 for a
    /// whole segment): person `local` is entry `first + local` of each.
    let first: Int
    /// Added to every file offset: the bytes a rewritten record before
    /// the window added to the file (or took away).
    let fileOffsetShift: Int
    let arena: FrozenBytes
    let recordStart: ContiguousArray<Int>
    /// Where each person's record starts in the file read (its `{`, or
    /// its CSV line).
    let fileOffsets: ContiguousArray<Int>
    /// `textFieldCount` ends per person, relative to its `recordStart`.
    let fieldEnds: ContiguousArray<UInt32>
    let indexValues: ContiguousArray<Int>
    let ages: ContiguousArray<Int32>
    /// 0 false, 1 true, 2 missing.
    let activeFlags: ContiguousArray<UInt8>
    let cents: ContiguousArray<Int64>
    /// Which text fields each record had (`TextField.bit`), for exports.
    let presentFields: ContiguousArray<UInt16>
    let nameKeys: FrozenBytes
    let nameKeyEnds: ContiguousArray<Int>
    /// The first sixteen bytes of each name key, two integers a person.
    let namePrefixes: ContiguousArray<UInt64>
    let companyIDs: ContiguousArray<UInt32>
    /// The company table of the whole run the buffers were parsed as (a
    /// window's own is `companyTable()`).
    let companyNames: [CompanyName]
    let companyHeadcounts: [Int]

    init(count: Int, arena: FrozenBytes, recordStart: ContiguousArray<Int>, fileOffsets: ContiguousArray<Int>, fieldEnds: ContiguousArray<UInt32>,
         indexValues: ContiguousArray<Int>, ages: ContiguousArray<Int32>, activeFlags: ContiguousArray<UInt8>,
         cents: ContiguousArray<Int64>, presentFields: ContiguousArray<UInt16>, nameKeys: FrozenBytes,
         nameKeyEnds: ContiguousArray<Int>, namePrefixes: ContiguousArray<UInt64>, companyIDs: ContiguousArray<UInt32>,
         companyNames: [CompanyName], companyHeadcounts: [Int], first: Int = 0, fileOffsetShift: Int = 0) {
        self.count = count
        self.first = first
        self.fileOffsetShift = fileOffsetShift
        self.arena = arena
        self.recordStart = recordStart
        self.fileOffsets = fileOffsets
        self.fieldEnds = fieldEnds
        self.indexValues = indexValues
        self.ages = ages
        self.activeFlags = activeFlags
        self.cents = cents
        self.presentFields = presentFields
        self.nameKeys = nameKeys
        self.nameKeyEnds = nameKeyEnds
        self.namePrefixes = namePrefixes
        self.companyIDs = companyIDs
        self.companyNames = companyNames
        self.companyHeadcounts = companyHeadcounts
    }

    /// The people `range` of this segment (counted from its own first),
    /// sharing its buffers; their file offsets moved by `shift`. Nothing
    /// is copied or counted: the window's company table is made only if a
    /// store merges it (`companyTable`).
    func window(_ range: Range<Int>, shiftingFileOffsetsBy shift: Int) -> PeopleSegment {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "window out of range")
        return PeopleSegment(count: range.count, arena: arena, recordStart: recordStart, fileOffsets: fileOffsets, fieldEnds: fieldEnds,
                             indexValues: indexValues, ages: ages, activeFlags: activeFlags, cents: cents, presentFields: presentFields,
                             nameKeys: nameKeys, nameKeyEnds: nameKeyEnds, namePrefixes: namePrefixes, companyIDs: companyIDs,
                             companyNames: companyNames, companyHeadcounts: companyHeadcounts, first: first + range.lowerBound,
                             fileOffsetShift: fileOffsetShift + shift)
    }

    /// The companies of the segment's people, numbered as `companyID(of:)`
    /// numbers them, with headcounts and spellings (each company's first
    /// member's, as a load shows it). A window counts its own people: a
    /// company none of them is in counts 0, and `PeopleStore` leaves it out.
    func companyTable() -> (names: [CompanyName], headcounts: [Int]) {
        guard first > 0 || count < companyIDs.count else { return (companyNames, companyHeadcounts) }
        var headcounts = [Int](repeating: 0, count: companyNames.count)
        var names = companyNames
        for local in 0..<count {
            let company = Int(companyIDs[first + local])
            if headcounts[company] == 0, first > 0 {
                names[company] = CompanyName(bytes: arena.bytes(byteRange(.company, of: local)))
            }
            headcounts[company] += 1
        }
        return (names, headcounts)
    }

    /// Raw views of the window's people in the per-person buffers, for
    /// the loops that read every person (search, summaries): entry `local`
    /// of each is person `local` of the window.
    struct Buffers {
        let arena: UnsafeBufferPointer<UInt8>
        let recordStart: UnsafeBufferPointer<Int>
        /// `textFieldCount` entries per person.
        let fieldEnds: UnsafeBufferPointer<UInt32>
        let nameKeys: UnsafeBufferPointer<UInt8>
        let nameKeyEnds: UnsafeBufferPointer<Int>
        /// Where the window's first name key starts in `nameKeys`.
        let nameKeyStart: Int
        let ages: UnsafeBufferPointer<Int32>
        let cents: UnsafeBufferPointer<Int64>
        let activeFlags: UnsafeBufferPointer<UInt8>
        /// `PeopleSegment.textFieldCount`, read once: a static is a lazy global,
        /// checked on every read (per person, that showed in profiles).
        let fieldCount = PeopleSegment.textFieldCount

        @inline(__always)
        func nameKey(_ local: Int) -> UnsafeBufferPointer<UInt8> {
            let start = local == 0 ? nameKeyStart : nameKeyEnds[local - 1]
            return UnsafeBufferPointer(rebasing: nameKeys[start..<nameKeyEnds[local]])
        }

        @inline(__always)
        func field(_ field: TextField, of local: Int) -> UnsafeBufferPointer<UInt8> {
            let record = recordStart[local]
            let slot = local * fieldCount + field.rawValue
            let start = field.rawValue == 0 ? 0 : Int(fieldEnds[slot - 1])
            return UnsafeBufferPointer(rebasing: arena[(record + start)..<(record + Int(fieldEnds[slot]))])
        }
    }

    @inline(__always)
    func withBuffers<Result>(_ body: (Buffers) -> Result) -> Result {
        let people = first..<(first + count), fields = (first * Self.textFieldCount)..<((first + count) * Self.textFieldCount)
        return recordStart.withUnsafeBufferPointer { recordStart in
            fieldEnds.withUnsafeBufferPointer { fieldEnds in
                nameKeyEnds.withUnsafeBufferPointer { nameKeyEnds in
                    ages.withUnsafeBufferPointer { ages in
                        cents.withUnsafeBufferPointer { cents in
                            activeFlags.withUnsafeBufferPointer { activeFlags in
                                body(Buffers(arena: arena.allBytes, recordStart: UnsafeBufferPointer(rebasing: recordStart[people]),
                                             fieldEnds: UnsafeBufferPointer(rebasing: fieldEnds[fields]), nameKeys: nameKeys.allBytes,
                                             nameKeyEnds: UnsafeBufferPointer(rebasing: nameKeyEnds[people]),
                                             nameKeyStart: first == 0 ? 0 : nameKeyEnds[first - 1],
                                             ages: UnsafeBufferPointer(rebasing: ages[people]),
                                             cents: UnsafeBufferPointer(rebasing: cents[people]),
                                             activeFlags: UnsafeBufferPointer(rebasing: activeFlags[people])))
                            }
                        }
                    }
                }
            }
        }
    }

    func fileOffset(of local: Int) -> Int {
        fileOffsets[first + local] + fileOffsetShift
    }

    func activeFlag(of local: Int) -> UInt8 {
        activeFlags[first + local]
    }

    func age(of local: Int) -> Int32 {
        ages[first + local]
    }

    func companyID(of local: Int) -> UInt32 {
        companyIDs[first + local]
    }

    /// `PeopleStore.namePrefix(of:)`.
    func namePrefix(of local: Int) -> (first: UInt64, second: UInt64, keyLength: Int) {
        let entry = first + local
        return (namePrefixes[2 * entry], namePrefixes[2 * entry + 1], withNameKey(of: local) { $0.count })
    }

    func byteRange(_ field: TextField, of local: Int) -> Range<Int> {
        let local = first + local
        let base = recordStart[local]
        let slot = local * Self.textFieldCount + field.rawValue
        let start = field.rawValue == 0 ? 0 : Int(fieldEnds[slot - 1])
        return (base + start)..<(base + Int(fieldEnds[slot]))
    }

    /// The field as text; invalid UTF-8 in the file shows as U+FFFD.
    func text(_ field: TextField, of local: Int) -> String {
        arena.string(byteRange(field, of: local))
    }

    func balanceCents(of local: Int) -> Int64? {
        let value = cents[first + local]
        return value == Self.missingCents ? nil : value
    }

    func withNameKey<R>(of local: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let local = first + local
        let start = local == 0 ? 0 : nameKeyEnds[local - 1]
        return body(nameKeys.bytes(start..<nameKeyEnds[local]))
    }

    /// Eight bytes of a name key from `start`, as a big-endian integer.
    static func prefix(of key: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<(start + 8) {
            value = value << 8 | UInt64(index < key.count ? key[index] : 0)
        }
        return value
    }

    func person(at local: Int) -> Person {
        let index = indexValues[first + local]
        let age = ages[first + local]
        let active = activeFlags[first + local]
        return Person(index: index == Self.missingInt ? nil : index, isActive: active == 2 ? nil : active == 1,
                      balanceCents: balanceCents(of: local), age: age == Self.missingAge ? nil : Int(age),
                      presentTextFields: presentFields[first + local]) { text($0, of: local) }
    }
}
