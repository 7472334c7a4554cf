#if !ROSTER_FUZZ
import RosterCore
#endif

/// A store with one record rewritten, made without reading the file again.
///
/// A save that rewrote one record in place (`FileSave.updateInPlace`)
/// leaves every other record's bytes as they were, only moved by the
/// difference in length. So the store after it is the one before with
/// that one person read afresh: windows on the old segments on either
/// side (sharing their buffers: no copy of anyone's text), the new record
/// as a segment of one between them. A million people cost a merge of the
/// company tables and two flat arrays, not a second load.
extension PeopleStore {
    /// More windows than this and a re-read is cheaper than a lookup
    /// through them; the caller reads the file whole instead.
    public static let mostSegments = 256

    /// This store with the person at `position` replaced by `record`'s one
    /// person (read from the file as it is now, its file offset already
    /// right), everyone after it `shift` bytes further on in the file. Nil
    /// past `mostSegments`.
    public func replacing(_ position: Int, with record: PeopleStore, shiftingLaterBy shift: Int) -> PeopleStore? {
        guard record.count == 1, record.segments.count == 1, segments.count + 2 <= Self.mostSegments else { return nil }
        let (found, local) = locate(position)
        var parts: [PeopleSegment] = []
        for (index, segment) in segments.enumerated() {
            if index < found {
                parts.append(segment)
            } else if index > found {
                parts.append(segment.window(0..<segment.count, shiftingFileOffsetsBy: shift))
            } else {
                if local > 0 { parts.append(segment.window(0..<local, shiftingFileOffsetsBy: 0)) }
                parts.append(record.segments[0])
                if local + 1 < segment.count { parts.append(segment.window((local + 1)..<segment.count, shiftingFileOffsetsBy: shift)) }
            }
        }
        // The usual edit (an email, a name) leaves the company as it was:
        // the companies and the company of each person are this store's
        // own, shared. Otherwise the companies are merged anew.
        let sameCompany = withBytes(.company, of: position) { old in record.withBytes(.company, of: 0) { $0.elementsEqual(old) } }
        guard sameCompany else { return PeopleStore(segments: parts) }
        return PeopleStore(segments: parts, companies: companies, companyOfPerson: companyOfPerson)
    }
}
