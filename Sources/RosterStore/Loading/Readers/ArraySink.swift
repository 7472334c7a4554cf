#if !ROSTER_FUZZ
import RosterCore
#endif

/// One record as Swift values (`ArraySink`): tests, `--fields`-style
/// listings, and the whole-card writers' input.
public struct FieldRecord: Equatable, Sendable {
    /// The folder's file it came from (nil for a single file).
    public var file: String?
    public var line: Int
    public var kind: RecordKind
    /// Its bytes in the file.
    public var byteRange: Range<Int>
    public var fields: [RecordField]

    /// The fields named `name` (any case), in file order.
    public func fields(named name: String) -> [RecordField] {
        fields.filter { $0.name.caseInsensitiveCompare(name) }
    }

    /// The first field named `name`'s text, or nil.
    public func text(of name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) }?.text
    }
}

/// One field (a vCard property, an LDIF attribute line) with all its values.
public struct RecordField: Equatable, Sendable {
    public var group: String
    public var name: String
    /// Each value of each parameter, in order (a bare 2.1 one has an empty name).
    public var parameters: [FieldParameter]
    public var groupLabel: String
    /// The values: components, each a list of items (`[["a"], ["b", "c"]]`
    /// for `N:a;b,c`; `[["x"]]` for a single value).
    public var components: [[String]]
    public var kind: FieldValueKind
    public var line: Int

    /// The values as one text: items joined by `,`, components by `;`.
    public var text: String {
        components.map { $0.joined(separator: ",") }.joined(separator: ";")
    }

    /// Whether a parameter `TYPE` (or a bare one) is `type`, any case.
    public func hasType(_ type: String) -> Bool {
        parameters.contains { ($0.name.isEmpty || $0.name.caseInsensitiveCompare("TYPE")) && $0.value.caseInsensitiveCompare(type) }
    }
}

public struct FieldParameter: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A line or record passed over, with its place and why.
public struct FieldSkip: Equatable, Sendable {
    public var file: String?
    public var line: Int
    public var reason: String
}

/// A sink that keeps every record as Swift values (one `String` per
/// value: for tests and small files, not the loader's hot path).
public struct ArraySink: FieldRecordSink {
    public private(set) var records: [FieldRecord] = []
    public private(set) var skippedRecords: [FieldSkip] = []
    public private(set) var skippedLines: [FieldSkip] = []
    private var file: String?
    private var current: FieldRecord?

    public init() {}

    public mutating func beginFile(path: String) {
        file = path
    }

    public mutating func beginRecord(fileOffset: Int, line: Int) {
        current = FieldRecord(file: file, line: line, kind: .individual, byteRange: fileOffset..<fileOffset, fields: [])
    }

    public mutating func field(_ field: SourceField) {
        guard var record = current else { return }
        current = nil  // the record's fields are changed in place, not copied
        if field.property >= record.fields.count {
            var parameters: [FieldParameter] = []
            field.parameters.forEach { parameters.append(FieldParameter(name: Self.text($0), value: Self.text($1))) }
            record.fields.append(RecordField(group: Self.text(field.group), name: Self.text(field.name), parameters: parameters,
                                             groupLabel: Self.text(field.groupLabel), components: [], kind: field.kind, line: field.line))
        }
        let index = record.fields.count - 1
        while record.fields[index].components.count <= field.component { record.fields[index].components.append([]) }
        record.fields[index].components[field.component].append(Self.text(field.value))
        current = record
    }

    public mutating func endRecord(_ end: RecordEnd) {
        guard var record = current else { return }
        record.kind = end.kind
        record.byteRange = end.byteRange
        records.append(record)
        current = nil
    }

    public mutating func skipRecord(reason: String, line: Int) {
        skippedRecords.append(FieldSkip(file: file, line: line, reason: reason))
    }

    public mutating func skipLine(reason: String, line: Int) {
        skippedLines.append(FieldSkip(file: file, line: line, reason: reason))
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// A sink that only counts: what reading a format costs before anything
/// is kept (`roster-bench fields`).
public struct FieldCountingSink: FieldRecordSink {
    public private(set) var records = 0
    public private(set) var values = 0
    public private(set) var valueBytes = 0
    public private(set) var external = 0
    public private(set) var skipped = 0
    /// A sum over each value's ends and length, so that no value goes unread.
    public private(set) var checksum: UInt64 = 0

    public init() {}

    public mutating func beginRecord(fileOffset: Int, line: Int) {}

    public mutating func field(_ field: SourceField) {
        values += 1
        valueBytes += field.value.count
        if case .external = field.kind { external += 1 }
        checksum = checksum &* 31 &+ UInt64(field.value.first ?? 0) &+ UInt64(field.value.last ?? 0) &+ UInt64(field.name.count)
    }

    public mutating func endRecord(_ record: RecordEnd) {
        records += 1
    }

    public mutating func skipRecord(reason: String, line: Int) {
        skipped += 1
    }
}

extension String {
    /// Equal ignoring case (ASCII and beyond).
    fileprivate func caseInsensitiveCompare(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
