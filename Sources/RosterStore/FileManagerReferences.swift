#if !ROSTER_FUZZ
import RosterCore
#endif

/// What the org chart reads of a file held in memory: each person's
/// identifiers (`_id`, email, full name) from the store, and the reference
/// to their manager read from their record in the file — a `manager` key of
/// a JSON record, a `manager` column of a CSV file — which the store does
/// not keep. Read once when the chart opens, from the file's bytes, at the
/// offset the store says each record starts.
public struct FileManagerReferences: PersonReferenceSource, Sendable {
    /// The key (JSON) or header (CSV) a manager reference is read from.
    public static let fieldName = "manager"

    public let store: PeopleStore
    /// Every manager reference's bytes, one after another.
    private let referenceBytes: [UInt8]
    /// Per person, where their reference starts in `referenceBytes`; -1 for none.
    private let referenceStarts: [Int]
    private let referenceEnds: [Int]

    /// The references of the people of `store` in `fileBytes`, the file it
    /// was read from; nil when no record has a manager field at all.
    public init?(store: PeopleStore, fileBytes: UnsafeBufferPointer<UInt8>, format: InputFormat?) {
        let format = format ?? InputFormat(sniffing: fileBytes)
        var bytes: [UInt8] = []
        var starts = [Int](repeating: -1, count: store.count)
        var ends = [Int](repeating: -1, count: store.count)
        var anyField = false
        let reader = RecordFieldReader(fileBytes: fileBytes, format: format, field: Self.fieldName)
        guard reader.canHaveField else { return nil }
        for person in 0..<store.count {
            guard let value = reader.value(atRecordStartingAt: store.fileOffset(of: person)) else { continue }
            anyField = true
            starts[person] = bytes.count
            bytes += value
            ends[person] = bytes.count
        }
        guard anyField else { return nil }
        self.store = store
        referenceBytes = bytes
        referenceStarts = starts
        referenceEnds = ends
    }

    public var count: Int { store.count }

    public func forEachIdentifier(_ kind: PersonReferenceKind, of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch kind {
        case .id: store.withBytes(.id, of: person) { if !$0.isEmpty { body($0) } }
        case .email: store.withBytes(.email, of: person) { if !$0.isEmpty { body($0) } }
        case .name:
            var name = store.text(.firstName, of: person)
            let last = store.text(.lastName, of: person)
            if !name.isEmpty, !last.isEmpty { name += " " }
            name += last
            if !name.isEmpty { name.withUTF8(body) }
        case .distinguishedName: break
        }
    }

    public func withManagerReference(of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let start = referenceStarts[person]
        guard start >= 0 else { return }
        referenceBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<referenceEnds[person]])) }
    }
}

/// Reads one top-level field of a record that starts at a given offset of
/// a people file: a JSON object's member (a string unescaped, a number as
/// written; null or an object is no value), or a CSV record's cell under
/// the header of that name.
struct RecordFieldReader {
    let fileBytes: UnsafeBufferPointer<UInt8>
    let format: InputFormat
    let field: String
    /// CSV: the column of the field, nil when the header has none.
    private let column: Int?

    init(fileBytes: UnsafeBufferPointer<UInt8>, format: InputFormat, field: String) {
        self.fileBytes = fileBytes
        self.format = format
        self.field = field
        guard format == .csv else {
            column = nil
            return
        }
        let start = InputFormat.startsWithByteOrderMark(fileBytes) ? InputFormat.byteOrderMark.count : 0
        let header = CSVRecordText.cells(fileBytes, from: start)?.cells ?? []
        column = header.firstIndex { CSVRecordText.text(of: $0, in: fileBytes).lowercased() == field }
    }

    /// False for a CSV file whose header has no such column.
    var canHaveField: Bool { format != .csv || column != nil }

    /// The field's value in the record at `offset`, nil when it has none.
    func value(atRecordStartingAt offset: Int) -> [UInt8]? {
        guard offset >= 0, offset < fileBytes.count else { return nil }
        if format == .csv {
            guard let column, let cells = CSVRecordText.cells(fileBytes, from: offset)?.cells, column < cells.count else { return nil }
            let text = CSVRecordText.text(of: cells[column], in: fileBytes)
            return text.isEmpty ? nil : Array(text.utf8)
        }
        guard fileBytes[offset] == UInt8(ascii: "{") else { return nil }
        var cursor = JSONCursor(bytes: fileBytes, base: 0, isFinal: true, line: 1, lineStart: 0)
        cursor.position = offset
        guard let object = try? JSONRecordText.object(&cursor),
              let member = object.members.last(where: { $0.key == field }) else { return nil }
        return jsonValue(member.value)
    }

    private func jsonValue(_ range: Range<Int>) -> [UInt8]? {
        guard let first = range.first.map({ fileBytes[$0] }) else { return nil }
        if first == UInt8(ascii: "\"") {
            var cursor = JSONCursor(bytes: fileBytes, base: 0, isFinal: true, line: 1, lineStart: 0)
            cursor.position = range.lowerBound
            let sink = CollectingSink()
            guard (try? cursor.scanString(into: sink)) != nil else { return nil }
            return sink.bytes
        }
        // A number names a record by its id as written (`"manager": 17`).
        if first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
            return Array(fileBytes[range])
        }
        return nil
    }
}
