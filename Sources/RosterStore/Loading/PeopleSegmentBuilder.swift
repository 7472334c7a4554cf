#if !ROSTER_FUZZ
import RosterCore
#endif

/// The people one loader thread is parsing, in mutable buffers; `freeze`
/// turns them into the immutable `PeopleSegment` the store reads.
///
/// Not `Sendable`: a builder belongs to the one parser (and thread) that
/// fills it; only the frozen segment crosses threads.
final class PeopleSegmentBuilder {
    private(set) var count = 0
    let arena = ByteArena()
    var recordStart = ContiguousArray<Int>()
    /// Where each person's record starts in the file read.
    var fileOffsets = ContiguousArray<Int>()
    /// `PeopleSegment.textFieldCount` ends per person, relative to its `recordStart`.
    var fieldEnds = ContiguousArray<UInt32>()
    var indexValues = ContiguousArray<Int>()
    var ages = ContiguousArray<Int32>()
    /// 0 false, 1 true, 2 missing.
    var activeFlags = ContiguousArray<UInt8>()
    var cents = ContiguousArray<Int64>()
    /// Which text fields each record had (`TextField.bit`), for exports.
    var presentFields = ContiguousArray<UInt16>()
    let nameKeys = ByteArena()
    var nameKeyEnds = ContiguousArray<Int>()
    var namePrefixes = ContiguousArray<UInt64>()
    var companyIDs = ContiguousArray<UInt32>()

    func reserve(people: Int) {
        arena.reserve(people * 240)
        recordStart.reserveCapacity(people)
        fileOffsets.reserveCapacity(people)
        fieldEnds.reserveCapacity(people * PeopleSegment.textFieldCount)
        indexValues.reserveCapacity(people)
        ages.reserveCapacity(people)
        activeFlags.reserveCapacity(people)
        cents.reserveCapacity(people)
        presentFields.reserveCapacity(people)
        nameKeys.reserve(people * 16)
        nameKeyEnds.reserveCapacity(people)
        namePrefixes.reserveCapacity(people * 2)
        companyIDs.reserveCapacity(people)
    }

    /// One more person: its fields were appended to every buffer.
    func didAppendPerson() {
        count += 1
    }

    /// The people so far, immutable, with the loader's company table
    /// attached: the last step of every reader. The buffers move into the
    /// segment (no copy); the builder is left empty.
    func freeze(with companies: CompanyTable) -> PeopleSegment {
        let segment = PeopleSegment(
            count: count, arena: arena.freeze(), recordStart: recordStart, fileOffsets: fileOffsets, fieldEnds: fieldEnds, indexValues: indexValues,
            ages: ages, activeFlags: activeFlags, cents: cents, presentFields: presentFields, nameKeys: nameKeys.freeze(),
            nameKeyEnds: nameKeyEnds, namePrefixes: namePrefixes, companyIDs: companyIDs,
            companyNames: companies.names, companyHeadcounts: companies.headcounts)
        count = 0
        recordStart = []
        fileOffsets = []
        fieldEnds = []
        indexValues = []
        ages = []
        activeFlags = []
        cents = []
        presentFields = []
        nameKeyEnds = []
        namePrefixes = []
        companyIDs = []
        return segment
    }
}
