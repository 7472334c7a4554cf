#if !ROSTER_FUZZ
import RosterCore
#endif

/// A million people without a million objects.
///
/// Every text field of a person is a byte range in one large buffer (the
/// segment's arena); numbers sit in flat arrays; people are addressed by
/// position (file order). The loader fills one segment per core and the
/// store joins them without copying. A `Person` is built only for what is
/// on screen. The store also keeps the keys the presenter sorts by, computed
/// once while loading: a company number per person and a folded name key.
public final class PeopleStore: Sendable {
    public let segments: [PeopleSegment]
    /// Position of each segment's first person.
    let segmentStarts: [Int]
    public let count: Int
    /// Companies, numbered; `companyOfPerson` maps a person to one of these.
    public let companies: [Company]
    /// Company id of every person, in file order (one flat array: grouping
    /// reads it a million times).
    public let companyOfPerson: ContiguousArray<UInt32>
    /// First sixteen bytes of each person's name key as two big-endian
    /// integers (`2i`, `2i+1`), so that comparing integers orders almost
    /// every pair of people without touching the keys themselves.
    public let namePrefixes: ContiguousArray<UInt64>
    /// What bytes each person's searchable text holds, per segment: built by
    /// the first search that needs it (`PresenceMasks`), then kept.
    private let presence = Locked<[ContiguousArray<UInt64>]?>(nil)

    public init(segments: [PeopleSegment]) {
        self.segments = segments
        var starts: [Int] = []
        var total = 0
        for segment in segments {
            starts.append(total)
            total += segment.count
        }
        segmentStarts = starts
        count = total
        // Merge the per-segment company tables: same folded name, same company.
        var merged = CompanyTable()
        var remaps: [ContiguousArray<UInt32>] = []
        for segment in segments {
            var remap = ContiguousArray<UInt32>()
            remap.reserveCapacity(segment.companyNames.count)
            for (local, name) in segment.companyNames.enumerated() {
                let global = merged.id(for: name)
                remap.append(global)
                merged.addHeadcount(segment.companyHeadcounts[local], to: global)
            }
            remaps.append(remap)
        }
        companies = merged.companies()
        var companyOfPerson = ContiguousArray<UInt32>()
        var namePrefixes = ContiguousArray<UInt64>()
        companyOfPerson.reserveCapacity(total)
        namePrefixes.reserveCapacity(total * 2)
        for (segment, remap) in zip(segments, remaps) {
            for local in 0..<segment.count {
                companyOfPerson.append(remap[Int(segment.companyIDs[local])])
            }
            namePrefixes.append(contentsOf: segment.namePrefixes)
        }
        self.companyOfPerson = companyOfPerson
        self.namePrefixes = namePrefixes
    }

    /// An empty directory.
    public convenience init() {
        self.init(segments: [])
    }

    /// The presence masks of every segment's people, built on first use.
    func presenceMasks() -> [ContiguousArray<UInt64>] {
        presence.withLock { masks in
            if let masks { return masks }
            let built = PresenceMasks.build(self)
            masks = built
            return built
        }
    }

    @inline(__always)
    private func locate(_ position: Int) -> (segment: Int, local: Int) {
        precondition(position >= 0 && position < count, "person position out of range")
        var segment = segmentStarts.count - 1
        while segmentStarts[segment] > position { segment -= 1 }
        return (segment, position - segmentStarts[segment])
    }

    /// The person at `position` (file order), built from the compact fields.
    public subscript(position: Int) -> Person {
        let (segment, local) = locate(position)
        return segments[segment].person(at: local)
    }

    /// Where the one record whose `_id` is `id` starts in the file; nil
    /// when no record, or more than one, has it.
    public func fileOffset(ofOnly id: String) -> Int? {
        let found = positions(withID: id, limit: 2)
        return found.count == 1 ? fileOffset(of: found[0]) : nil
    }

    /// The people whose `_id` is `id`, in file order, at most `limit` of
    /// them: one pass over the ids' bytes, no index (a million people
    /// in a few milliseconds).
    public func positions(withID id: String, limit: Int) -> [Int] {
        var wanted = id
        return wanted.withUTF8 { wanted in
            var found: [Int] = []
            for (segment, start) in zip(segments, segmentStarts) {
                let arena = segment.arena.allBytes
                for local in 0..<segment.count {
                    let range = segment.byteRange(.id, of: local)
                    guard range.count == wanted.count, arena[range].elementsEqual(wanted) else { continue }
                    found.append(start + local)
                    if found.count == limit { return found }
                }
            }
            return found
        }
    }

    /// Where the person's record starts in the file read (the byte after
    /// the records before it; a stream's offsets count from its start).
    public func fileOffset(of position: Int) -> Int {
        let (segment, local) = locate(position)
        return segments[segment].fileOffsets[local]
    }

    public func text(_ field: TextField, of position: Int) -> String {
        let (segment, local) = locate(position)
        return segments[segment].text(field, of: local)
    }

    /// Calls `body` with the field's raw UTF-8 bytes, without making a String.
    public func withBytes<R>(_ field: TextField, of position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let (segment, local) = locate(position)
        return body(segments[segment].arena.bytes(segments[segment].byteRange(field, of: local)))
    }

    public func balanceCents(of position: Int) -> Int64? {
        let (segment, local) = locate(position)
        return segments[segment].balanceCents(of: local)
    }

    public func isActive(_ position: Int) -> Bool? {
        let (segment, local) = locate(position)
        let flag = segments[segment].activeFlags[local]
        return flag == 2 ? nil : flag == 1
    }

    public func age(of position: Int) -> Int? {
        let (segment, local) = locate(position)
        let age = segments[segment].ages[local]
        return age == PeopleSegment.missingAge ? nil : Int(age)
    }

    public func companyID(of position: Int) -> Int {
        Int(companyOfPerson[position])
    }

    /// Calls `body` with the folded "last\0first" bytes that order people.
    public func withNameKey<R>(of position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let (segment, local) = locate(position)
        return segments[segment].withNameKey(of: local, body)
    }

    /// How many bytes the name key of the person at `position` has.
    public func nameKeyLength(of position: Int) -> Int {
        let (segment, local) = locate(position)
        return segments[segment].withNameKey(of: local) { $0.count }
    }
}

/// The people one loader thread parsed: a contiguous run of the file,
/// frozen from its `PeopleSegmentBuilder`.
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
    let namePrefixes: ContiguousArray<UInt64>
    let companyIDs: ContiguousArray<UInt32>
    let companyNames: [CompanyName]
    let companyHeadcounts: [Int]

    init(count: Int, arena: FrozenBytes, recordStart: ContiguousArray<Int>, fileOffsets: ContiguousArray<Int>, fieldEnds: ContiguousArray<UInt32>,
         indexValues: ContiguousArray<Int>, ages: ContiguousArray<Int32>, activeFlags: ContiguousArray<UInt8>,
         cents: ContiguousArray<Int64>, presentFields: ContiguousArray<UInt16>, nameKeys: FrozenBytes,
         nameKeyEnds: ContiguousArray<Int>, namePrefixes: ContiguousArray<UInt64>, companyIDs: ContiguousArray<UInt32>,
         companyNames: [CompanyName], companyHeadcounts: [Int]) {
        self.count = count
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

    func byteRange(_ field: TextField, of local: Int) -> Range<Int> {
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
        let value = cents[local]
        return value == Self.missingCents ? nil : value
    }

    func withNameKey<R>(of local: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
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
        let index = indexValues[local]
        let age = ages[local]
        let active = activeFlags[local]
        return Person(index: index == Self.missingInt ? nil : index, isActive: active == 2 ? nil : active == 1,
                      balanceCents: balanceCents(of: local), age: age == Self.missingAge ? nil : Int(age),
                      presentTextFields: presentFields[local]) { text($0, of: local) }
    }
}
