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
    /// Filled in batches (`appendCompany`): it may lag `count` until `freeze`.
    private(set) var companyIDs = ContiguousArray<UInt32>()
    private var companies = CompanyTable()
    /// The company spellings (ranges of `arena`) of the people appended
    /// since the last batch was numbered.
    private var pendingCompanies: [Range<Int>] = []
    /// What `SpellingTable.touch` read, kept so the reads are not optimised away.
    private var touched: UInt64 = 0

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

    /// The company of the person being appended, spelled by `range` of
    /// `arena`. Companies are numbered 32 people at a time: a lookup reads
    /// a table of megabytes (70,000 companies at 1M people), nearly always
    /// a cache miss, and lookups made back to back wait for memory
    /// together instead of one at a time between two people's parsing.
    func appendCompany(spelling range: Range<Int>) {
        pendingCompanies.append(range)
        if pendingCompanies.count == 32 { numberPendingCompanies() }
    }

    private func numberPendingCompanies() {
        let bytes = arena.allBytes
        for range in pendingCompanies { touched &+= companies.touch(UnsafeBufferPointer(rebasing: bytes[range])) }
        for range in pendingCompanies {
            let id = companies.id(forSpelling: UnsafeBufferPointer(rebasing: bytes[range]))
            companyIDs.append(id)
            companies.addHeadcount(1, to: id)
        }
        pendingCompanies.removeAll(keepingCapacity: true)
    }

    /// One more person: its fields were appended to every buffer.
    func didAppendPerson() {
        count += 1
    }

    /// The people so far, immutable, with their company table attached:
    /// the last step of every reader. The buffers move into the segment
    /// (no copy); the builder is left empty.
    func freeze() -> PeopleSegment {
        numberPendingCompanies()
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
        companies = CompanyTable()
        return segment
    }
}
