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
    /// What bytes each person's searchable text holds, per segment: built by
    /// the first search that needs it (`PresenceMasks`), then kept.
    private let presence = Locked<[ContiguousArray<UInt64>]?>(nil)
    /// `fieldsInUse`, once made.
    let fieldsInUseCache = Locked<FieldsInUse?>(nil)

    public init(segments: [PeopleSegment]) {
        self.segments = segments
        segmentStarts = Self.starts(of: segments)
        count = segments.reduce(0) { $0 + $1.count }
        // Merge the per-segment company tables: same folded name, same company.
        var merged = CompanyTable()
        var remaps: [ContiguousArray<UInt32>] = []
        for segment in segments {
            let (names, headcounts) = segment.companyTable()
            var remap = ContiguousArray<UInt32>()
            remap.reserveCapacity(names.count)
            for (local, name) in names.enumerated() {
                // A company nobody in a window is in (`PeopleSegment.window`) is not one of the store's.
                guard headcounts[local] > 0 else {
                    remap.append(0)
                    continue
                }
                let global = merged.id(for: name)
                remap.append(global)
                merged.addHeadcount(headcounts[local], to: global)
            }
            remaps.append(remap)
        }
        companies = merged.companies()
        var companyOfPerson = ContiguousArray<UInt32>()
        companyOfPerson.reserveCapacity(count)
        for (segment, remap) in zip(segments, remaps) {
            for local in 0..<segment.count {
                companyOfPerson.append(remap[Int(segment.companyID(of: local))])
            }
        }
        self.companyOfPerson = companyOfPerson
    }

    /// A store of `segments` whose companies and each person's company are
    /// already known (`replacing`, when a rewrite left the company as it was).
    init(segments: [PeopleSegment], companies: [Company], companyOfPerson: ContiguousArray<UInt32>) {
        self.segments = segments
        segmentStarts = Self.starts(of: segments)
        count = segments.reduce(0) { $0 + $1.count }
        self.companies = companies
        self.companyOfPerson = companyOfPerson
    }

    /// Position of each segment's first person.
    private static func starts(of segments: [PeopleSegment]) -> [Int] {
        var starts: [Int] = []
        var total = 0
        for segment in segments {
            starts.append(total)
            total += segment.count
        }
        return starts
    }

    /// An empty directory.
    public convenience init() {
        self.init(segments: [])
    }

    /// Takes `masks` as the segments' presence masks (`QueryIndex` keeps
    /// them), instead of building them at the first search.
    func keepPresenceMasks(_ masks: [ContiguousArray<UInt64>]) {
        presence.withLock { $0 = masks }
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
    func locate(_ position: Int) -> (segment: Int, local: Int) {
        precondition(position >= 0 && position < count, "person position out of range")
        var segment = segmentStarts.count - 1
        if segment >= 4 {
            // Windows after rewritten records (`replacing`): halve.
            var low = 0
            while low < segment {
                let middle = (low + segment + 1) / 2
                if segmentStarts[middle] <= position { low = middle } else { segment = middle - 1 }
            }
        }
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
        position(ofOnly: id).map(fileOffset(of:))
    }

    /// The one person whose `_id` is `id`; nil when nobody, or more than one, has it.
    public func position(ofOnly id: String) -> Int? {
        let found = positions(withID: id, limit: 2)
        return found.count == 1 ? found[0] : nil
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
        return segments[segment].fileOffset(of: local)
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
        let flag = segments[segment].activeFlag(of: local)
        return flag == 2 ? nil : flag == 1
    }

    public func age(of position: Int) -> Int? {
        let (segment, local) = locate(position)
        let age = segments[segment].age(of: local)
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

    /// The first sixteen bytes of the person's name key as two big-endian
    /// integers (comparing them orders almost every pair of people without
    /// touching the keys themselves), and the key's length.
    public func namePrefix(of position: Int) -> (first: UInt64, second: UInt64, keyLength: Int) {
        let (segment, local) = locate(position)
        return segments[segment].namePrefix(of: local)
    }
}
