#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// A reader of one format of records of named fields (vCard, LDIF), fed a
/// buffer at a time as `PeopleLoader.run` feeds a `ChunkParser`, and
/// handing what it reads to its sink. The same contract as `ChunkParser`
/// without the segment: `parse` takes whole records and returns how many
/// bytes it used; the rest comes again with more input.
public protocol FieldChunkReader {
    associatedtype Sink: FieldRecordSink
    var sink: Sink { get }
    /// 1-based line of the place parsed up to.
    var line: Int { get }
    /// Records seen so far, read and skipped alike.
    var recordCount: Int { get }
    /// Whether parsing stopped at its boundary (a record starts exactly there).
    var reachedBoundary: Bool { get }

    /// Parses as many whole records of `bytes` (at absolute offset `base`)
    /// as it can; returns how many bytes were used. `isFinal`: the input
    /// ends with `bytes`. Stops early when the sink refuses.
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, isFinal: Bool) -> Int

    /// The record at the start of `bytes` is longer than `limit`: it is
    /// noted as skipped, and the rest of it passed over in the next
    /// `parse` calls. (Both readers can always find the next record.)
    mutating func skipLongRecord(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int)
}

extension FieldChunkReader {
    /// "longer than 64 MiB, the most one record may hold".
    static func tooLong(_ limit: Int) -> String {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return "longer than \(size), the most one record may hold"
    }

    /// The 1-based line in `bytes` (whose first line is `line`) on which
    /// the last, unfinished line starts, and whether that line is longer
    /// than half of them (then the line, not the record, is what is long).
    static func lastLine(of bytes: UnsafeBufferPointer<UInt8>, firstLine line: Int) -> (line: Int, isLong: Bool) {
        guard let base = bytes.baseAddress else { return (line, false) }
        var lines = line
        var lastStart = 0
        var position = 0
        while position < bytes.count, let found = memchr(base + position, 0x0A, bytes.count - position) {
            position = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            lastStart = position
            lines += 1
        }
        return (lines, bytes.count - lastStart > bytes.count / 2)
    }
}
