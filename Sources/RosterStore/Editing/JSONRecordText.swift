#if !ROSTER_FUZZ
import RosterCore
#endif

/// A JSON record's text, edited in place: the members an edit sets get new
/// values where they stand, the ones it clears go, new ones follow the
/// last, all in the record's own spacing; every other byte stays.
enum JSONRecordText {
    /// One `"key": value` of an object, as offsets in the file.
    struct Member {
        let key: String
        let keyStart: Int
        /// Just after the key's closing quote.
        let keyEnd: Int
        let value: Range<Int>
    }

    /// An object's members and where its braces are.
    struct Object {
        let open: Int
        let close: Int
        let members: [Member]
    }

    // MARK: Where the records are

    /// The records of a JSON array, each with its `_id`.
    static func arrayLayout(_ bytes: UnsafeBufferPointer<UInt8>, sourceName: String) throws(EditFailure) -> RecordLayout {
        var cursor = JSONCursor(bytes: bytes, base: 0, isFinal: true, line: 1, lineStart: 0)
        if InputFormat.startsWithByteOrderMark(bytes) { cursor.position = InputFormat.byteOrderMark.count }
        do throws(ScanFailure) {
            try cursor.expect(UInt8(ascii: "["), "a list of people ('[')")
            var records: [RecordFile.RecordSpan] = []
            if try cursor.nextToken() == UInt8(ascii: "]") {
                let end = cursor.position
                try expectNothingAfter(&cursor)
                return RecordLayout(records: [], start: end, end: end)
            }
            while true {
                cursor.skipWhitespace()
                let start = cursor.position, line = cursor.line
                let id = try recordID(&cursor)
                records.append(RecordFile.RecordSpan(span: start..<cursor.position, id: id, line: line))
                let next = try cursor.nextToken()
                if next == UInt8(ascii: ",") {
                    cursor.position += 1
                    continue
                }
                guard next == UInt8(ascii: "]") else {
                    throw cursor.failure("expected ',' or ']' in the list, found \(cursor.describeByte(next))")
                }
                break
            }
            try expectNothingAfter(&cursor)
            return RecordLayout(records: records, start: records[0].span.lowerBound, end: records[records.count - 1].span.upperBound)
        } catch {
            throw unreadable(error, bytes, sourceName: sourceName)
        }
    }

    /// After the list's `]`: only whitespace.
    private static func expectNothingAfter(_ cursor: inout JSONCursor) throws(ScanFailure) {
        cursor.position += 1
        cursor.skipWhitespace()
        guard cursor.isAtEnd else { throw cursor.failure("text after the list's closing ']'") }
    }

    /// The records of a JSON Lines file: every line that is not blank (a
    /// line that is not an object is a record without an `_id`, kept).
    static func linesLayout(_ bytes: UnsafeBufferPointer<UInt8>) -> RecordLayout {
        var records: [RecordFile.RecordSpan] = []
        var start = InputFormat.startsWithByteOrderMark(bytes) ? InputFormat.byteOrderMark.count : 0
        var line = 1
        while start < bytes.count {
            var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let next = end + 1
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            if bytes[start..<end].contains(where: { $0 != 0x20 && $0 != 0x09 }) {
                var cursor = JSONCursor(bytes: UnsafeBufferPointer(rebasing: bytes[..<end]), base: 0, isFinal: true, line: line, lineStart: start)
                cursor.position = start
                cursor.skipWhitespace()
                let first = cursor.position  // the line's indentation stays as it is
                let id = try? recordID(&cursor)
                records.append(RecordFile.RecordSpan(span: first..<end, id: id ?? nil, line: line))
            }
            start = next
            line += 1
        }
        let first = records.first?.span.lowerBound ?? bytes.count
        return RecordLayout(records: records, start: first, end: records.last?.span.upperBound ?? bytes.count)
    }

    /// Where the JSON value at the start of `bytes` ends (nil: it runs
    /// past them, or is not JSON).
    static func endOfValue(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(bytes: buffer, base: 0, isFinal: true, line: 1, lineStart: 0)
            guard (try? cursor.skipValue()) != nil else { return nil }
            return cursor.position
        }
    }

    private static let idKey = Array("\"_id\"".utf8)

    /// Scans one value of the list; an object's `_id` if it has a text one.
    private static func recordID(_ cursor: inout JSONCursor) throws(ScanFailure) -> String? {
        guard try cursor.peek() == UInt8(ascii: "{") else {
            try cursor.skipValue()
            return nil
        }
        // The common case fast: only a key spelled `"_id"` is decoded.
        cursor.position += 1
        var id: String?
        if try cursor.nextToken() == UInt8(ascii: "}") {
            cursor.position += 1
            return nil
        }
        while true {
            try expectName(&cursor)
            let isID: Bool
            if cursor.startsWith(idKey) {
                cursor.position += idKey.count
                isID = true
            } else if cursor.position + 1 < cursor.bytes.count, cursor.bytes[cursor.position + 1] == UInt8(ascii: "\\") {
                let key = CollectingSink()
                try cursor.scanString(into: key)
                isID = key.bytes == Array("_id".utf8)
            } else {
                try cursor.skipString()
                isID = false
            }
            try cursor.expect(UInt8(ascii: ":"), "':' after a name")
            if isID, try cursor.nextToken() == UInt8(ascii: "\"") {
                let value = CollectingSink()
                try cursor.scanString(into: value)
                id = String(decoding: value.bytes, as: UTF8.self)
            } else {
                try cursor.skipValue()
            }
            if try !memberFollows(&cursor) { return id }
        }
    }

    /// At a member's name: its opening quote, else why not.
    private static func expectName(_ cursor: inout JSONCursor) throws(ScanFailure) {
        guard try cursor.nextToken() == UInt8(ascii: "\"") else {
            throw cursor.failure("expected a name in quotes, found \(cursor.describeByte(try cursor.peek()))")
        }
    }

    /// After a member: past its `,` (true: another follows) or the
    /// object's `}` (false), else why not.
    private static func memberFollows(_ cursor: inout JSONCursor) throws(ScanFailure) -> Bool {
        let next = try cursor.nextToken()
        guard next == UInt8(ascii: ",") || next == UInt8(ascii: "}") else {
            throw cursor.failure("expected ',' or '}' in an object, found \(cursor.describeByte(next))")
        }
        cursor.position += 1
        return next == UInt8(ascii: ",")
    }

    /// The object at the cursor, scanned whole.
    static func object(_ cursor: inout JSONCursor) throws(ScanFailure) -> Object {
        let open = cursor.position
        cursor.position += 1
        var members: [Member] = []
        if try cursor.nextToken() == UInt8(ascii: "}") {
            cursor.position += 1
            return Object(open: open, close: cursor.position - 1, members: [])
        }
        while true {
            try expectName(&cursor)
            let keyStart = cursor.position
            let key = CollectingSink()
            try cursor.scanString(into: key)
            let keyEnd = cursor.position
            try cursor.expect(UInt8(ascii: ":"), "':' after a name")
            cursor.skipWhitespace()
            let valueStart = cursor.position
            try cursor.skipValue()
            members.append(Member(key: String(decoding: key.bytes, as: UTF8.self), keyStart: keyStart, keyEnd: keyEnd,
                                  value: valueStart..<cursor.position))
            if try !memberFollows(&cursor) { return Object(open: open, close: cursor.position - 1, members: members) }
        }
    }

    // MARK: Editing

    /// A member set to new value text, or (nil) removed.
    typealias Setting = (key: String, value: [UInt8]?)

    /// The record at `span` with `changes` made.
    static func edited(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>, _ changes: [FieldChange], oneLine: Bool,
                       where place: String) throws(EditFailure) -> [UInt8] {
        var cursor = JSONCursor(bytes: UnsafeBufferPointer(rebasing: bytes[..<span.upperBound]), base: 0, isFinal: true, line: 1, lineStart: 0)
        cursor.position = span.lowerBound
        do {
            guard try cursor.peek() == UInt8(ascii: "{") else {
                throw EditFailureBox.refused("\(place): the record is not an object")
            }
            let record = try object(&cursor)
            var settings: [Setting] = []
            var nameChanges: [NameChange] = []
            for change in changes {
                switch (change.field, change.value) {
                case (.text(let field), .text(let text)) where field == .firstName || field == .lastName:
                    nameChanges.append((field, text))
                case (.text(let field), .absent) where field == .firstName || field == .lastName:
                    nameChanges.append((field, nil))
                default:
                    let existing = record.members.last { $0.key == key(of: change.field) }
                    settings.append((key(of: change.field), valueText(change.value, existing: existing.map { bytes[$0.value] })))
                }
            }
            if let name = try editedName(of: record, bytes, nameChanges, cursor: &cursor, oneLine: oneLine) {
                settings.append(("name", name))
            }
            return rewritten(record, bytes, settings, oneLine: oneLine)
        } catch let failure as EditFailureBox {
            throw failure.failure
        } catch {
            throw EditFailure(.unreadable, "\(place): the record is not readable JSON")
        }
    }

    /// The JSON key a field is kept under (the name's parts: in `name`).
    static func key(of field: EditableField) -> String {
        switch field {
        case .text(let text): return text.jsonKey
        case .age: return RecordValue.age.jsonKey
        case .balance: return TextField.balance.jsonKey
        case .active: return RecordValue.isActive.jsonKey
        }
    }

    /// Where a field stands in a record Roster writes.
    static func slot(of field: EditableField) -> RecordValue {
        switch field {
        case .text(.firstName), .text(.lastName): return .name
        case .text(let text): return .text(text)
        case .age: return .age
        case .balance: return .text(.balance)
        case .active: return .isActive
        }
    }

    /// A checked value as JSON text, nil to remove the member. A balance
    /// keeps its kind: a number stays a number, text is written `$1,200.00`.
    static func valueText(_ value: EditedValue, existing: UnsafeBufferPointer<UInt8>.SubSequence?) -> [UInt8]? {
        switch value {
        case .text(let text):
            return jsonText(text)
        case .absent:
            return nil
        case .age(let age):
            return age.map { Array(String($0).utf8) }
        case .active(let active):
            return active.map { Array(($0 ? "true" : "false").utf8) }
        case .balance(let cents):
            guard let cents else { return nil }
            if let first = existing?.first, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) {
                return Array(DirectoryExporter.plainAmount(cents).utf8)
            }
            return jsonText(Balance.format(cents: cents))
        }
    }

    static func jsonText(_ text: String) -> [UInt8] {
        Array(DirectoryExporter.jsonString(text).utf8)
    }

    /// `object`'s text with `settings` made: a set member keeps its place
    /// and its key's bytes, a removed one goes with the separator before
    /// it, a new one follows the last in the object's own spacing.
    static func rewritten(_ object: Object, _ bytes: UnsafeBufferPointer<UInt8>, _ settings: [Setting], oneLine: Bool) -> [UInt8] {
        var latest: [String: [UInt8]?] = [:]
        for setting in settings { latest[setting.key] = .some(setting.value) }
        let members = object.members
        var text = Array(bytes[object.open..<(members.first?.keyStart ?? object.close)])
        var written = 0
        for (index, member) in members.enumerated() {
            let setting = latest[member.key]
            if case .some(.none) = setting { continue }
            if written > 0 { text += bytes[members[index - 1].value.upperBound..<member.keyStart] }
            written += 1
            text += bytes[member.keyStart..<member.value.lowerBound]
            if case .some(.some(let value)) = setting { text += value } else { text += bytes[member.value] }
        }
        let style = Style(object, bytes, oneLine: oneLine)
        var added = Set(members.map(\.key))
        for setting in settings {
            guard let value = latest[setting.key] ?? nil, !added.contains(setting.key) else { continue }
            added.insert(setting.key)
            if written > 0 { text += style.separator }
            written += 1
            text += jsonText(setting.key) + style.colon + value
        }
        text += bytes[(members.last?.value.upperBound ?? object.close)...object.close]
        return text
    }

    /// How an object spaces its members, learnt from one.
    struct Style {
        var opening: [UInt8] = []
        var separator = Array(", ".utf8)
        var colon = Array(": ".utf8)
        var closing: [UInt8] = []

        init() {}

        init(_ object: Object, _ bytes: UnsafeBufferPointer<UInt8>, oneLine: Bool) {
            let members = object.members
            if let first = members.first {
                opening = Array(bytes[(object.open + 1)..<first.keyStart])
                colon = Array(bytes[first.keyEnd..<first.value.lowerBound])
                closing = Array(bytes[members[members.count - 1].value.upperBound..<object.close])
            }
            if members.count >= 2 { separator = Array(bytes[members[members.count - 2].value.upperBound..<members[members.count - 1].keyStart]) }
            if oneLine, (opening + separator + colon + closing).contains(0x0A) { self = Style() }
        }
    }

    /// A new object of `settings` (removals left out), spaced as `style`.
    static func newObject(_ settings: [Setting], style: Style?, oneLine: Bool) -> [UInt8] {
        let style = style ?? Style()
        let members = settings.compactMap { setting in setting.value.map { jsonText(setting.key) + style.colon + $0 } }
        var text: [UInt8] = [UInt8(ascii: "{")] + style.opening
        for (index, member) in members.enumerated() {
            if index > 0 { text += style.separator }
            text += member
        }
        return text + style.closing + [UInt8(ascii: "}")]
    }

    /// A new record: `_id`, `index`, then the changes' fields in the order
    /// Roster writes records, spaced like `neighbour` (the file's last record).
    static func new(id: String, index: Int, changes: [FieldChange], styledAfter neighbour: UnsafeBufferPointer<UInt8>?,
                    oneLine: Bool) -> [UInt8] {
        var style = Style()
        var nameStyle: Style?
        if let neighbour, let base = neighbour.baseAddress {
            let whole = UnsafeBufferPointer(start: base, count: neighbour.count)
            var cursor = JSONCursor(bytes: whole, base: 0, isFinal: true, line: 1, lineStart: 0)
            if let object = try? object(&cursor) {
                style = Style(object, whole, oneLine: oneLine)
                // The name object spaced as the neighbour's is.
                if let name = object.members.last(where: { $0.key == "name" }), whole[name.value.lowerBound] == UInt8(ascii: "{") {
                    cursor.position = name.value.lowerBound
                    if let nameObject = try? Self.object(&cursor) { nameStyle = Style(nameObject, whole, oneLine: oneLine) }
                }
            }
        }
        var settings: [Setting] = [("_id", jsonText(id)), (RecordValue.index.jsonKey, Array(String(index).utf8))]
        var name: [Setting] = []
        for value in RecordValue.jsonOrder {
            for change in changes where slot(of: change.field) == value {
                if value == .name, case .text(let text) = change.value {
                    name.append((key(of: change.field), jsonText(text)))
                } else {
                    settings.append((key(of: change.field), valueText(change.value, existing: nil)))
                }
            }
            if value == .name, !name.isEmpty {
                settings.append(("name", newObject(name, style: nameStyle, oneLine: true)))
            }
        }
        return newObject(settings, style: style, oneLine: oneLine)
    }
}

/// Decoded bytes, collected.
final class CollectingSink: ByteSink {
    var bytes: [UInt8] = []
    func append(_ byte: UInt8) { bytes.append(byte) }
    func appendPlainText(from text: UnsafeBufferPointer<UInt8>, start: Int) -> Int {
        let end = JSONCursor.endOfPlainText(text, from: start)
        bytes.append(contentsOf: text[start..<end])
        return end
    }
}
