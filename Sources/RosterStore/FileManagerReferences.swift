#if !ROSTER_FUZZ
import RosterCore
#endif

/// What the org chart reads of a file held in memory: each person's
/// identifiers (`_id`, email, full name; an LDIF entry's `_id` is its DN)
/// from the store, and the reference to their manager read from their
/// record in the file — a `manager` key of a JSON record, a `manager`
/// column of a CSV file, a card's `RELATED;TYPE=manager:`, an LDIF entry's
/// `manager:` (a DN) — which the
/// store does not keep. Read once when the chart opens, from the file's bytes, at the
/// offset the store says each record starts.
public struct FileManagerReferences: PersonReferenceSource, Sendable {
    /// The key (JSON) or header (CSV) a manager reference is read from.
    public static let fieldName = "manager"

    public let store: PeopleStore
    /// LDIF: each person's id is their entry's DN, which managers name.
    private let idsAreDistinguishedNames: Bool
    /// Every manager reference's bytes, one after another.
    private let referenceBytes: [UInt8]
    /// Per person, where their reference starts in `referenceBytes`; -1 for none.
    private let referenceStarts: [Int]
    private let referenceEnds: [Int]

    /// The references of the people of `store` in `fileBytes`, the file it
    /// was read from; nil when no record has a manager field at all, unless
    /// `evenWithoutManagers` (an edit giving the first one checks it
    /// against everyone's identifiers).
    public init?(store: PeopleStore, fileBytes: UnsafeBufferPointer<UInt8>, format: InputFormat?, evenWithoutManagers: Bool = false) {
        let format = format ?? InputFormat(sniffing: fileBytes)
        var bytes: [UInt8] = []
        var starts = [Int](repeating: -1, count: store.count)
        var ends = [Int](repeating: -1, count: store.count)
        var anyField = false
        let reader = RecordFieldReader(fileBytes: fileBytes, format: format, field: Self.fieldName)
        guard reader.canHaveField || evenWithoutManagers else { return nil }
        for person in 0..<store.count {
            guard let value = reader.value(atRecordStartingAt: store.fileOffset(of: person)) else { continue }
            anyField = true
            starts[person] = bytes.count
            bytes += value
            ends[person] = bytes.count
        }
        guard anyField || evenWithoutManagers else { return nil }
        self.store = store
        idsAreDistinguishedNames = format == .ldif
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
        case .distinguishedName:
            if idsAreDistinguishedNames { store.withBytes(.id, of: person) { if !$0.isEmpty { body($0) } } }
        }
    }

    /// `person`'s manager reference as text, nil when the record has none.
    public func managerReference(of person: Int) -> String? {
        var reference: String?
        withManagerReference(of: person) { reference = String(decoding: $0, as: UTF8.self) }
        return reference
    }

    public func withManagerReference(of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let start = referenceStarts[person]
        guard start >= 0 else { return }
        referenceBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<referenceEnds[person]])) }
    }
}

/// Reads one top-level field of a record that starts at a given offset of
/// a people file: a JSON object's member (a string unescaped, a number as
/// written; null or an object is no value), a CSV record's cell under
/// the header of that name (a spreadsheet's guard `'` taken off, as the
/// loader does), a card's `RELATED` of that `TYPE` (`RELATED;TYPE=manager:`),
/// or an LDIF entry's attribute (its first value, unfolded, base64 decoded).
struct RecordFieldReader {
    let fileBytes: UnsafeBufferPointer<UInt8>
    let format: InputFormat
    let field: String
    /// CSV: the column of the field, nil when the header has none.
    let column: Int?

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
            let text = SpreadsheetCell.unguarded(CSVRecordText.text(of: cells[column], in: fileBytes))
            return text.isEmpty ? nil : Array(text.utf8)
        }
        if format == .ldif { return ldifValue(atEntryStartingAt: offset) }
        if format == .vCard { return relatedValue(atCardStartingAt: offset) }
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

    /// The card's first `RELATED` whose type is the field (`RELATED;TYPE=manager:`),
    /// as the card reader reads it; nil when it has none.
    private func relatedValue(atCardStartingAt offset: Int) -> [UInt8]? {
        let reader = VCardCardReader()
        guard case .complete(let next, _) = reader.scan(fileBytes, from: offset, line: 1, isFinal: true) else { return nil }
        var sink = ArraySink()
        reader.emit(fileBytes, base: 0, card: offset..<next, line: 1, into: &sink)
        guard let related = sink.records.first?.fields(named: "RELATED").first(where: { $0.hasType(field) }), !related.text.isEmpty else {
            return nil
        }
        return Array(related.text.utf8)
    }

    /// The entry's first `field:` value (`field;option:` too, the name in
    /// any case): its folded lines joined, `field::` decoded from base64;
    /// nil when the entry, which ends at a blank line, has none.
    private func ldifValue(atEntryStartingAt offset: Int) -> [UInt8]? {
        let name = Array(field.utf8)
        var lineStart = offset
        while lineStart < fileBytes.count {
            var lineEnd = lineStart
            while lineEnd < fileBytes.count, fileBytes[lineEnd] != 0x0A { lineEnd += 1 }
            let line = UnsafeBufferPointer(rebasing: fileBytes[lineStart..<lineEnd])
            if line.isEmpty || (line.count == 1 && line[line.startIndex] == 0x0D) { return nil }
            if line.count > name.count, zip(line, name).allSatisfy({ TextFolding.lowercasedASCII($0) == $1 }),
               line[line.startIndex + name.count] == UInt8(ascii: ":") || line[line.startIndex + name.count] == UInt8(ascii: ";") {
                return ldifValue(from: lineStart + name.count, lineEnd: lineEnd)
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// The value after the attribute's name at `start`, and the lines that
    /// continue it (a leading space).
    private func ldifValue(from start: Int, lineEnd: Int) -> [UInt8]? {
        var colon = start
        while colon < lineEnd, fileBytes[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < lineEnd else { return nil }
        let isBase64 = colon + 1 < lineEnd && fileBytes[colon + 1] == UInt8(ascii: ":")
        var text: [UInt8] = []
        var position = colon + (isBase64 ? 2 : 1)
        while position < lineEnd, fileBytes[position] == 0x20 { position += 1 }
        var end = lineEnd
        while true {
            text += fileBytes[position..<end].filter { $0 != 0x0D }
            guard end + 1 < fileBytes.count, fileBytes[end + 1] == 0x20 else { break }
            position = end + 2
            end = position
            while end < fileBytes.count, fileBytes[end] != 0x0A { end += 1 }
        }
        guard isBase64 else { return text.isEmpty ? nil : text }
        let decoded = ByteArena()
        guard text.withUnsafeBufferPointer({ Base64Text.decode($0, into: decoded) }), decoded.count > 0 else { return nil }
        return Array(decoded.bytes(0..<decoded.count))
    }
}
