#if !ROSTER_FUZZ
import RosterCore
#endif

/// One member of a JSON record set by its key, for a value no
/// `EditableField` holds (a person's manager reference).
extension JSONRecordText {
    /// The record at `span` with its member `key` set to `value` (JSON
    /// text) where it stands, or after the last in the record's spacing;
    /// nil takes the member out.
    static func setting(_ key: String, to value: [UInt8]?, in bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>, oneLine: Bool,
                        where place: String) throws(EditFailure) -> [UInt8] {
        var cursor = JSONCursor(bytes: UnsafeBufferPointer(rebasing: bytes[..<span.upperBound]), base: 0, isFinal: true, line: 1, lineStart: 0)
        cursor.position = span.lowerBound
        guard (try? cursor.peek()) == UInt8(ascii: "{") else { throw EditFailure(.failed, "\(place): the record is not an object; nothing written") }
        guard let record = try? object(&cursor) else { throw EditFailure(.unreadable, "\(place): the record is not readable JSON; nothing written") }
        return rewritten(record, bytes, [(key, value)], oneLine: oneLine)
    }
}
