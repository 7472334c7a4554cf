#if !ROSTER_FUZZ
import RosterCore
#endif

/// One change to a file's records, by `_id`.
public enum RecordOperation: Equatable, Sendable {
    case update(id: String, changes: [FieldChange])
    /// A new record with this `_id`, after every other.
    case add(id: String, changes: [FieldChange])
    case delete(ids: [String])
    /// Records a delete took out, each put back after the record it
    /// followed (`RemovedRecord`).
    case restore([RemovedRecord])
    /// The person's manager set to `reference` (an `_id`, email, DN or full
    /// name; empty: none), checked first (`settingManager`).
    case setManager(id: String, reference: String)
}

/// A record a delete took out, to put back as it was: its own text (every
/// field, known to Roster or not, as spelled), and the `_id` of the record
/// it followed (nil: it was first).
public struct RemovedRecord: Equatable, Sendable {
    public let id: String
    public let text: [UInt8]
    public let after: String?
}

/// What a save writes, in order: stretches of the file as it was read, and
/// new bytes between them. Records nobody edited are stretches: their bytes
/// (key order, spacing, number spellings, fields Roster does not know)
/// reach the new file exactly.
public enum FilePiece: Equatable, Sendable {
    case original(Range<Int>)
    case new([UInt8])
}

/// A people file as a row of records, each a byte span with its `_id`:
/// enough to rewrite one record, add one or drop some, and keep every
/// other byte. JSON (an array), JSON Lines and CSV share the bookkeeping;
/// how one record's text changes is each format's (`JSONRecordText`,
/// `CSVRecordText`).
public struct RecordFile: Sendable {
    public let format: InputFormat
    let records: [RecordSpan]
    /// Where the first record starts (or a new one would go), and where
    /// the records end: everything outside is kept as it is.
    let recordsStart: Int
    let recordsEnd: Int
    let byteCount: Int
    /// CSV: the header's columns; nil for JSON.
    let columns: CSVColumns?

    struct RecordSpan: Sendable {
        let span: Range<Int>
        let id: String?
        let line: Int
    }

    /// Why a person is not added to (or deleted from) a vCard or LDIF file: one line.
    static func onlyUpdates(_ format: InputFormat, sourceName: String) -> EditFailure {
        EditFailure(.failed, "\(sourceName): people in a \(format.displayName) file are edited, not added or deleted, in Roster "
                    + "for now; nothing written")
    }

    /// Whether the CSV header at the start of `bytes` names an `_id`
    /// column, the one edits find people by (nil: no whole header in them).
    public static func csvHeaderNamesID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        CSVRecordText.headerNamesID(bytes)
    }

    /// Reads the records of `bytes` in `format`; `sourceName` names the file in messages.
    public init(bytes: UnsafeBufferPointer<UInt8>, format: InputFormat, sourceName: String) throws(EditFailure) {
        self.format = format
        byteCount = bytes.count
        let layout: RecordLayout
        switch format {
        case .json: layout = try JSONRecordText.arrayLayout(bytes, sourceName: sourceName)
        case .jsonLines: layout = JSONRecordText.linesLayout(bytes)
        case .csv: layout = try CSVRecordText.layout(bytes, sourceName: sourceName)
        case .vCard, .ldif: layout = try ContactRecordText.layout(bytes, format: format, sourceName: sourceName)
        }
        records = layout.records
        recordsStart = layout.start
        recordsEnd = layout.end
        columns = layout.columns
    }

    public var count: Int { records.count }

    /// Where the JSON value at the start of `bytes` ends (nil: it runs
    /// past them, or is not JSON): one record read alone.
    public static func endOfJSONValue(in bytes: [UInt8]) -> Int? { JSONRecordText.endOfValue(in: bytes) }

    /// Whether a record has `id`.
    public func contains(id: String) -> Bool { records.contains { $0.id == id } }

    /// The person the record with `id` holds now, read as the loader reads
    /// it (nil: no such record, or it does not read).
    public func person(id: String, in bytes: UnsafeBufferPointer<UInt8>) -> Person? {
        records.first(where: { $0.id == id }).flatMap { person(at: $0, in: bytes) }
    }

    private func person(at record: RecordSpan, in bytes: UnsafeBufferPointer<UInt8>) -> Person? {
        let text: [UInt8]
        switch format {
        case .json, .jsonLines: text = [UInt8(ascii: "[")] + bytes[record.span] + [UInt8(ascii: "]")]
        case .csv: text = Array(bytes[..<recordsStart]) + bytes[record.span] + [0x0A]
        case .vCard, .ldif: text = Array(bytes[record.span])
        }
        let reading: InputFormat = format.isFieldRecords ? format : format == .csv ? .csv : .json
        guard let store = try? PeopleLoader(format: reading).load(bytes: text, sourceName: "record").store,
              store.count == 1 else { return nil }
        return store[0]
    }

    /// The file with `operation` applied, as pieces of the old file and
    /// new bytes.
    public func applying(_ operation: RecordOperation, to bytes: UnsafeBufferPointer<UInt8>,
                         sourceName: String) throws(EditFailure) -> [FilePiece] {
        if format.isFieldRecords, case .delete = operation { throw Self.onlyUpdates(format, sourceName: sourceName) }
        if format.isFieldRecords, case .restore = operation { throw Self.onlyUpdates(format, sourceName: sourceName) }
        switch operation {
        case .update(let id, let changes):
            let record = try only(id, sourceName: sourceName)
            if let now = person(at: record, in: bytes) { try Self.checkName(of: now.applying(changes), sourceName: sourceName) }
            let text = try recordText(bytes, record, changes, sourceName: sourceName)
            return [.original(0..<record.span.lowerBound), .new(text), .original(record.span.upperBound..<byteCount)]
        case .add(let id, let changes):
            guard !contains(id: id) else { throw EditFailure(.failed, "\(sourceName): a record already has _id \(id)") }
            try Self.checkName(of: Person(firstName: "", lastName: "").applying(changes), sourceName: sourceName)
            let text = try newRecordText(bytes, id: id, changes: changes, sourceName: sourceName)
            guard let last = records.last else {
                return [.original(0..<recordsStart), .new(text + emptyFileSeparator(bytes)), .original(recordsStart..<byteCount)]
            }
            return [.original(0..<last.span.upperBound), .new(separatorBeforeNew(bytes) + text), .original(last.span.upperBound..<byteCount)]
        case .delete(let ids):
            for id in ids { _ = try only(id, sourceName: sourceName) }
            return kept { record in !ids.contains { $0 == record.id } }
        case .restore(let removed):
            if let taken = removed.first(where: { contains(id: $0.id) }) {
                throw EditFailure(.failed, "\(sourceName): a record already has _id \(taken.id) again; nothing put back")
            }
            return restoring(removed, bytes)
        case .setManager(let id, let reference):
            return try settingManager(of: id, to: reference, in: bytes, sourceName: sourceName).1 ?? [.original(0..<byteCount)]
        }
    }

    /// Refuses a person an edit would leave without a name (the loader
    /// would skip their record): the rule every editor checks first.
    private static func checkName(of person: Person, sourceName: String) throws(EditFailure) {
        if let problem = FieldCheck.nameProblem(of: person) {
            throw EditFailure(.invalid, "\(sourceName): \(problem.message); nothing written")
        }
    }

    /// The records `ids` are, as a delete of them takes them out: each
    /// with the `_id` of the nearest record before it that stays.
    public func removing(_ ids: [String], in bytes: UnsafeBufferPointer<UInt8>) -> [RemovedRecord] {
        var removed: [RemovedRecord] = []
        var lastKept: String?
        for record in records {
            if let id = record.id, ids.contains(id) {
                removed.append(RemovedRecord(id: id, text: Array(bytes[record.span]), after: lastKept))
            } else if let id = record.id {
                lastKept = id
            }
        }
        return removed
    }

    /// The file with `removed` back in it: each after the record it
    /// followed, in the order they were; first ones before the first
    /// record; one whose record is gone since, after the last.
    private func restoring(_ removed: [RemovedRecord], _ bytes: UnsafeBufferPointer<UInt8>) -> [FilePiece] {
        let separator = separatorBeforeNew(bytes)
        guard let last = records.last else {
            let texts = removed.map(\.text).joined(separator: separator)
            return [.original(0..<recordsStart), .new(Array(texts) + emptyFileSeparator(bytes)), .original(recordsStart..<byteCount)]
        }
        let present = Set(records.compactMap(\.id))
        var following: [String?: [RemovedRecord]] = [:]
        var orphans: [RemovedRecord] = []
        for record in removed {
            if let after = record.after, !present.contains(after) {
                orphans.append(record)
            } else {
                following[record.after, default: []].append(record)
            }
        }
        var pieces: [FilePiece] = []
        var copied = 0
        if let first = following[nil] {
            pieces += [.original(0..<records[0].span.lowerBound), .new(first.flatMap { $0.text + separator })]
            copied = records[0].span.lowerBound
        }
        for record in records {
            guard let id = record.id, let after = following.removeValue(forKey: id) else { continue }
            pieces += [.original(copied..<record.span.upperBound), .new(after.flatMap { separator + $0.text })]
            copied = record.span.upperBound
        }
        if !orphans.isEmpty {
            pieces += [.original(copied..<last.span.upperBound), .new(orphans.flatMap { separator + $0.text })]
            copied = last.span.upperBound
        }
        pieces.append(.original(copied..<byteCount))
        return pieces
    }

    /// The one record with `id`.
    func only(_ id: String, sourceName: String) throws(EditFailure) -> RecordSpan {
        let found = records.filter { $0.id == id }
        guard let record = found.first else { throw EditFailure(.notFound, "\(sourceName): no record has _id \(id); nothing written") }
        guard found.count == 1 else {
            let lines = found.map { String($0.line) }.joined(separator: ", ")
            throw EditFailure(.failed, "\(sourceName): \(found.count) records have _id \(id) (lines \(lines)); nothing written")
        }
        return record
    }

    /// The file holding only the records `isKept` keeps: each after the bytes
    /// that separated it from the record before it in the file.
    /// Stretches that meet are one piece: a delete of one person in a
    /// million is three stretches, not two million (each a system call).
    private func kept(_ isKept: (RecordSpan) -> Bool) -> [FilePiece] {
        var stretches: [Range<Int>] = [0..<recordsStart]
        func keep(_ range: Range<Int>) {
            if let last = stretches.last, last.upperBound == range.lowerBound {
                stretches[stretches.count - 1] = last.lowerBound..<range.upperBound
            } else if !range.isEmpty {
                stretches.append(range)
            }
        }
        var isFirst = true
        for (index, record) in records.enumerated() where isKept(record) {
            if !isFirst { keep(records[index - 1].span.upperBound..<record.span.lowerBound) }
            isFirst = false
            keep(record.span)
        }
        keep(recordsEnd..<byteCount)
        return stretches.map { .original($0) }
    }

    private func recordText(_ bytes: UnsafeBufferPointer<UInt8>, _ record: RecordSpan, _ changes: [FieldChange],
                            sourceName: String) throws(EditFailure) -> [UInt8] {
        switch format {
        case .json, .jsonLines:
            return try JSONRecordText.edited(bytes, record.span, changes, oneLine: format == .jsonLines,
                                             where: "\(sourceName), line \(record.line)")
        case .csv:
            return try CSVRecordText.edited(bytes, record.span, changes, columns: columns!, sourceName: sourceName)
        case .vCard, .ldif:
            guard let current = person(at: record, in: bytes) else {
                throw EditFailure(.unreadable, "\(sourceName), line \(record.line): the record is no person Roster reads; nothing written")
            }
            return try ContactRecordText.edited(Array(bytes[record.span]), format: format, changes: changes, current: current,
                                                sourceName: sourceName)
        }
    }

    private func newRecordText(_ bytes: UnsafeBufferPointer<UInt8>, id: String, changes: [FieldChange],
                               sourceName: String) throws(EditFailure) -> [UInt8] {
        switch format {
        case .json, .jsonLines:
            return JSONRecordText.new(id: id, index: nextIndex(bytes), changes: changes,
                                      styledAfter: records.last.map { UnsafeBufferPointer(rebasing: bytes[$0.span]) },
                                      oneLine: format == .jsonLines)
        case .csv:
            return try CSVRecordText.new(id: id, changes: changes, columns: columns!, sourceName: sourceName)
        case .vCard, .ldif:
            throw Self.onlyUpdates(format, sourceName: sourceName)
        }
    }

    /// One past the highest `index` in the file, never the count: after a
    /// delete the count is someone's index. Every `"index"` key followed by
    /// a whole number counts, nested ones and ones inside text included:
    /// a number too high only leaves a gap, never a second person with it.
    private func nextIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let key = Array("\"index\"".utf8)
        var highest = -1
        var position = 0
        let count = bytes.count
        while position + key.count < count {
            guard bytes[position] == key[0], bytes[position..<(position + key.count)].elementsEqual(key) else {
                position += 1
                continue
            }
            position += key.count
            while position < count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"), UInt8(ascii: "\"")].contains(bytes[position]) { position += 1 }
            var value = 0, digits = 0
            while position < count, digits < 18, (0x30...0x39).contains(bytes[position]) {
                value = value * 10 + Int(bytes[position] - 0x30)
                digits += 1
                position += 1
            }
            if digits > 0 { highest = max(highest, value) }
        }
        return max(highest + 1, records.count)
    }

    /// What goes between the last record and a new one: what the file has
    /// between its last two records, else the format's plain separator.
    private func separatorBeforeNew(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if records.count >= 2 {
            return Array(bytes[records[records.count - 2].span.upperBound..<records[records.count - 1].span.lowerBound])
        }
        switch format {
        case .json:
            // A comma and the spacing the only record has after the `[`.
            var start = recordsStart
            while start > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[start - 1]) { start -= 1 }
            return [UInt8(ascii: ",")] + (start < recordsStart ? Array(bytes[start..<recordsStart]) : Array("\n".utf8))
        case .jsonLines, .csv, .vCard, .ldif: return lineBreak(bytes)
        }
    }

    /// After the only record of a file that had none: a line break where
    /// records are lines and the file does not go on with one.
    private func emptyFileSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard format != .json else { return [] }
        let goesOnWithOne = recordsStart < byteCount && (bytes[recordsStart] == 0x0A || (format == .csv && bytes[recordsStart] == 0x0D))
        return goesOnWithOne ? [] : lineBreak(bytes)
    }

    /// The file's own line break, as its first line ends: CRLF, LF, or
    /// (CSV, whose records may end so) a lone CR; LF when no line ends.
    private func lineBreak(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let ends: Set<UInt8> = format == .csv ? [0x0A, 0x0D] : [0x0A]
        guard let end = bytes.firstIndex(where: ends.contains) else { return [0x0A] }
        if bytes[end] == 0x0D { return end + 1 < bytes.count && bytes[end + 1] == 0x0A ? [0x0D, 0x0A] : [0x0D] }
        return end > 0 && bytes[end - 1] == 0x0D ? [0x0D, 0x0A] : [0x0A]
    }
}

/// Where a format's records are.
struct RecordLayout {
    var records: [RecordFile.RecordSpan]
    var start: Int
    var end: Int
    var columns: CSVColumns?
}

extension FilePiece {
    /// The bytes the pieces make, from `bytes` (tests and small files).
    public static func joined(_ pieces: [FilePiece], _ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .original(let range): result.append(contentsOf: bytes[range])
            case .new(let text): result.append(contentsOf: text)
            }
        }
        return result
    }
}
