#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// Reads one top-level field of a record that starts at a given offset of
/// a people file: a JSON object's member (a string unescaped, a number as
/// written; null or an object is no value), a CSV record's cell under
/// the header of that name (a spreadsheet's guard `'` taken off, as the
/// loader does), a card's `RELATED` of that `TYPE` (`RELATED;TYPE=manager:`,
/// or Apple's related name labelled so),
/// or an LDIF entry's attribute (its first value, unfolded, base64 decoded).
struct RecordFieldReader {
    /// The file's bytes from `start` on (the whole file, or a window of it).
    let fileBytes: UnsafeBufferPointer<UInt8>
    /// The file offset of `fileBytes`' first byte.
    let start: Int
    let format: InputFormat
    let field: String
    private let fieldBytes: [UInt8]
    /// The key as JSON writes it plainly: `"manager"`.
    private let quotedField: [UInt8]
    /// CSV: the column of the field, nil when the header has none.
    let column: Int?

    /// Reads `field` in `fileBytes`, the file from its start (a CSV
    /// file's header is read there).
    init(fileBytes: UnsafeBufferPointer<UInt8>, format: InputFormat, field: String) {
        self.fileBytes = fileBytes
        self.format = format
        self.field = field
        start = 0
        fieldBytes = Array(field.utf8)
        quotedField = [UInt8(ascii: "\"")] + fieldBytes + [UInt8(ascii: "\"")]
        guard format == .csv else {
            column = nil
            return
        }
        let start = InputFormat.startsWithByteOrderMark(fileBytes) ? InputFormat.byteOrderMark.count : 0
        let header = CSVRecordText.cells(fileBytes, from: start)?.cells ?? []
        column = header.firstIndex { CSVRecordText.text(of: $0, in: fileBytes).lowercased() == field }
    }

    private init(window: UnsafeBufferPointer<UInt8>, at start: Int, like reader: RecordFieldReader) {
        fileBytes = window
        self.start = start
        format = reader.format
        field = reader.field
        fieldBytes = reader.fieldBytes
        quotedField = reader.quotedField
        column = reader.column
    }

    /// The same reading over `window`, the file's bytes from offset `start`
    /// (a run of records read alone).
    func window(_ window: UnsafeBufferPointer<UInt8>, at start: Int) -> RecordFieldReader {
        RecordFieldReader(window: window, at: start, like: self)
    }

    /// False for a CSV file whose header has no such column.
    var canHaveField: Bool { format != .csv || column != nil }

    /// The field's value in the record at `offset`, nil when it has none.
    func value(atRecordStartingAt offset: Int) -> [UInt8]? {
        var cursor = JSONCursor(bytes: fileBytes, base: 0, isFinal: true, line: 1, lineStart: 0)
        return value(atRecordStartingAt: offset, cursor: &cursor)
    }

    /// `value(atRecordStartingAt:)` with the caller's cursor over `fileBytes`
    /// (its stack of containers kept for the next record: a million records
    /// read without an allocation each).
    /// `recordEnd`, when known, is where the next record starts: a JSON
    /// record whose bytes hold neither the key as written nor a `\` (an
    /// escape could spell it) has no such member, and is not scanned.
    func value(atRecordStartingAt fileOffset: Int, endingBefore recordEnd: Int? = nil, cursor: inout JSONCursor) -> [UInt8]? {
        let offset = fileOffset - start
        guard offset >= 0, offset < fileBytes.count else { return nil }
        if format == .csv {
            guard let column, let cells = CSVRecordText.cells(fileBytes, from: offset)?.cells, column < cells.count else { return nil }
            let text = SpreadsheetCell.unguarded(CSVRecordText.text(of: cells[column], in: fileBytes))
            return text.isEmpty ? nil : Array(text.utf8)
        }
        if format == .ldif { return ldifValue(atEntryStartingAt: offset) }
        if format == .vCard { return relatedValue(atCardStartingAt: offset) }
        // JSON: a record that cannot hold the key is passed over unscanned.
        if let recordEnd, !mayHaveMember(offset..<min(fileBytes.count, recordEnd - start)) { return nil }
        guard fileBytes[offset] == UInt8(ascii: "{") else { return nil }
        cursor.position = offset
        guard let member = try? lastMember(&cursor) else { return nil }
        return jsonValue(member)
    }

    /// Whether the bytes of `record` could hold the member: the quoted key
    /// as written, or a backslash (found with memchr: most records of a file
    /// without the field are passed over at the speed of memory).
    private func mayHaveMember(_ record: Range<Int>) -> Bool {
        guard let base = fileBytes.baseAddress, !record.isEmpty, let first = fieldBytes.first else { return false }
        if memchr(base + record.lowerBound, Int32(UInt8(ascii: "\\")), record.count) != nil { return true }
        // Each of the key's first letter, then whether the quoted key stands there.
        var from = record.lowerBound + 1
        while from < record.upperBound, let found = memchr(base + from, Int32(first), record.upperBound - from) {
            let at = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
            if at + fieldBytes.count < record.upperBound,
               UnsafeBufferPointer(rebasing: fileBytes[(at - 1)...(at + fieldBytes.count)]).elementsEqual(quotedField) { return true }
            from = at + 1
        }
        return false
    }

    /// Where the value of the object's last top-level member named `field`
    /// lies (the object at the cursor), nil when it has none. Only a key
    /// with an escape in it is decoded; the others are compared as written.
    private func lastMember(_ cursor: inout JSONCursor) throws(ScanFailure) -> Range<Int>? {
        cursor.position += 1
        if try cursor.nextToken() == UInt8(ascii: "}") { return nil }
        var found: Range<Int>?
        while true {
            guard try cursor.nextToken() == UInt8(ascii: "\"") else { throw ScanFailure.empty }
            let keyStart = cursor.position
            try cursor.skipString()
            let written = UnsafeBufferPointer(rebasing: fileBytes[(keyStart + 1)..<(cursor.position - 1)])
            var isField = written.elementsEqual(fieldBytes)
            if !isField, written.contains(UInt8(ascii: "\\")) {
                let key = CollectingSink()
                let end = cursor.position
                cursor.position = keyStart
                try cursor.scanString(into: key)
                cursor.position = end
                isField = key.bytes == fieldBytes
            }
            try cursor.expect(UInt8(ascii: ":"), "':' after a name")
            cursor.skipWhitespace()
            let valueStart = cursor.position
            try cursor.skipValue()
            if isField { found = valueStart..<cursor.position }
            let next = try cursor.nextToken()
            guard next == UInt8(ascii: ",") || next == UInt8(ascii: "}") else { throw ScanFailure.empty }
            cursor.position += 1
            if next == UInt8(ascii: "}") { return found }
        }
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

    /// The card's `RELATED` whose types include the field (`RELATED;TYPE=manager:`,
    /// or Apple's related name labelled so: `FieldRecord.relatedField`), as
    /// the card reader reads it; nil when it has none.
    private func relatedValue(atCardStartingAt offset: Int) -> [UInt8]? {
        let reader = VCardCardReader()
        guard case .complete(let next, _) = reader.scan(fileBytes, from: offset, line: 1, isFinal: true) else { return nil }
        var sink = ArraySink()
        reader.emit(fileBytes, base: 0, card: offset..<next, line: 1, into: &sink)
        guard let related = sink.records.first?.relatedField(ofType: field), !related.text.isEmpty else {
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
