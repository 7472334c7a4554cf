#if !ROSTER_FUZZ
import RosterCore
#endif

/// Handing a scanned entry to the sink: its `dn` first, then each
/// attribute line as one field. A change record is skipped, except a
/// plain `changetype: add`, which is an entry like any other.
extension LDIFEntryReader {
    /// The entry scanned from `entry` (comments before its `dn` included),
    /// read into `sink`: it starts at its first line that is no comment.
    func emit<Sink: FieldRecordSink>(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, entry: Range<Int>, line: Int, into sink: inout Sink) {
        unfolded.removeAll()
        let line = lines.first?.line ?? line
        let entry = (lines.first?.start ?? entry.lowerBound)..<entry.upperBound
        guard let first = lines.first, let dn = attribute(first, in: bytes),
              FieldBytes.equalsIgnoringCase(header(of: dn, in: bytes).name, "dn") else {
            let start = lines.first.map { UnsafeBufferPointer(rebasing: bytes[$0.start..<$0.firstEnd]) } ?? FieldBytes.none
            sink.skipRecord(reason: "an entry starts with dn:, not \(FieldBytes.quoted(start)); skipped", line: line)
            return
        }
        guard let bodyStart = attributesStart(bytes, line: line, sink: &sink) else { return }
        sink.beginRecord(fileOffset: base + entry.lowerBound, line: line)
        var property = 0
        var classes = ObjectClasses()
        for index in sequence(first: 0, next: { $0 == 0 ? bodyStart : $0 + 1 }).prefix(while: { $0 < lines.count }) {
            let logical = lines[index]
            guard let attribute = attribute(logical, in: bytes) else {
                sink.skipLine(reason: "\(FieldBytes.quoted(UnsafeBufferPointer(rebasing: bytes[logical.start..<logical.firstEnd]))) "
                              + "is no attribute (name: value); passed over", line: logical.line)
                continue
            }
            if attribute.form == .url {
                let (name, _) = header(of: attribute, in: bytes)
                sink.skipLine(reason: "\(FieldBytes.quoted(name)) names a URL (:<), which is not fetched; passed over", line: logical.line)
                continue
            }
            let (name, options) = header(of: attribute, in: bytes)
            let (value, kind) = self.value(of: attribute, binary: Self.isBinary(name, options: options), in: bytes, base: base)
            if FieldBytes.equalsIgnoringCase(name, "objectClass") { classes.note(value) }
            sink.field(SourceField(group: FieldBytes.none, name: name, parameters: options, groupLabel: FieldBytes.none,
                                   value: value, kind: kind, property: property, component: 0, item: 0, line: logical.line))
            property += 1
        }
        sink.endRecord(RecordEnd(kind: classes.kind, byteRange: (base + entry.lowerBound)..<(base + entry.upperBound), fieldCount: property))
    }

    /// Where the attributes start after the `dn` (past `control:` lines and
    /// a `changetype: add`); nil, said to the sink, for a change record.
    private func attributesStart<Sink: FieldRecordSink>(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, sink: inout Sink) -> Int? {
        var index = 1
        while index < lines.count, let attribute = attribute(lines[index], in: bytes) {
            let name = header(of: attribute, in: bytes).name
            if FieldBytes.equalsIgnoringCase(name, "control") {
                index += 1
                continue
            }
            guard FieldBytes.equalsIgnoringCase(name, "changetype") else { break }
            let change = FieldBytes.trimmed(value(of: attribute, binary: false, in: bytes, base: 0).text)
            guard FieldBytes.equalsIgnoringCase(change, "add") else {
                sink.skipRecord(reason: "a change record (changetype: \(String(decoding: change.prefix(24), as: UTF8.self))), "
                                + "not an entry; skipped", line: line)
                return nil
            }
            return index + 1
        }
        return index
    }
}

/// What an entry's `objectClass` values say it is.
struct ObjectClasses {
    private var person = false
    private var organization = false
    private var group = false
    private var location = false
    private var any = false

    mutating func note(_ value: UnsafeBufferPointer<UInt8>) {
        any = true
        let names: [(StaticString, WritableKeyPath<ObjectClasses, Bool>)] = [
            ("person", \.person), ("organizationalPerson", \.person), ("inetOrgPerson", \.person), ("user", \.person),
            ("posixAccount", \.person), ("organization", \.organization), ("organizationalUnit", \.organization),
            ("groupOfNames", \.group), ("groupOfUniqueNames", \.group), ("posixGroup", \.group), ("group", \.group),
            ("locality", \.location), ("country", \.location),
        ]
        for (name, flag) in names where FieldBytes.equalsIgnoringCase(FieldBytes.trimmed(value), name) { self[keyPath: flag] = true }
    }

    /// A person where any class says so; else what the classes say; an
    /// entry with none is taken for a person.
    var kind: RecordKind {
        if person || !any { return .individual }
        if organization { return .organization }
        if group { return .group }
        if location { return .location }
        return .other
    }
}
