#if !ROSTER_FUZZ
import RosterCore
#endif

/// A vCard file's cards or an LDIF file's entries as records of a
/// `RecordFile` (by `UID`, by `dn`), and a person's changes as the
/// in-place writers' edits (`VCardCardText`, `LDIFRecordText`): the field
/// a value was read from (`PersonFieldRoles`) is the one written, every
/// other line of the card or entry stays byte for byte.
public enum ContactRecordText {
    /// The records of `bytes`, each with its id (`UID`, `dn`; none without).
    static func layout(_ bytes: UnsafeBufferPointer<UInt8>, format: InputFormat, sourceName: String) throws(EditFailure) -> RecordLayout {
        let records = try fieldRecords(Array(bytes), format: format, sourceName: sourceName)
        let spans = records.map { record in
            let id = record.text(of: format == .ldif ? "dn" : "UID")
            return RecordFile.RecordSpan(span: record.byteRange, id: id?.isEmpty == false ? id : nil, line: record.line)
        }
        return RecordLayout(records: spans, start: spans.first?.span.lowerBound ?? bytes.count,
                            end: spans.last?.span.upperBound ?? bytes.count, columns: nil)
    }

    /// The fields a card or an entry holds (the form offers only these).
    public static let keptFields: [TextField] = [.firstName, .lastName, .company, .email, .phone, .address]

    static func fieldRecords(_ bytes: [UInt8], format: InputFormat, sourceName: String) throws(EditFailure) -> [FieldRecord] {
        do throws(LoadError) {
            if format == .ldif {
                var reader = LDIFReader(sink: ArraySink())
                try FieldFileReading.read(&reader, bytes: bytes, sourceName: sourceName, format: .ldif)
                return reader.sink.records
            }
            var reader = VCardReader(sink: ArraySink())
            try FieldFileReading.read(&reader, bytes: bytes, sourceName: sourceName, format: .vCard)
            return reader.sink.records
        } catch {
            throw EditFailure(.unreadable, "\(error.message); nothing written")
        }
    }

    /// The record `text` (one card or entry) with `changes` made to
    /// `current`, the person it reads as now.
    static func edited(_ text: [UInt8], format: InputFormat, changes: [FieldChange], current: Person,
                       sourceName: String) throws(EditFailure) -> [UInt8] {
        guard let record = try fieldRecords(text, format: format, sourceName: sourceName).first else {
            throw EditFailure(.unreadable, "\(sourceName): the record is no longer readable; nothing written")
        }
        var changed = current
        var fields: [TextField] = []
        for change in changes {
            guard case .text(let field) = change.field, keptFields.contains(field) else {
                throw EditFailure(.failed, "\(sourceName): a \(format.displayName) record has no field for \(change.field.label.lowercased()); nothing written")
            }
            changed.setText(field, { if case .text(let value) = change.value { value } else { "" } }())
            if !fields.contains(field) { fields.append(field) }
        }
        if format == .ldif {
            return try LDIFRecordText.edited(text, ContactLDIFEdits(record: record, current: current, changed: changed, sourceName: sourceName)
                .edits(fields))
        }
        return try VCardCardText.edited(text, ContactVCardEdits(record: record, current: current, changed: changed, sourceName: sourceName)
            .edits(fields))
    }
}

/// A person's changed fields as edits of the card they were read from.
struct ContactVCardEdits {
    let record: FieldRecord
    let current: Person
    let changed: Person
    let sourceName: String

    func edits(_ fields: [TextField]) throws(EditFailure) -> [VCardEdit] {
        var edits: [VCardEdit] = []
        if fields.contains(.firstName) || fields.contains(.lastName) {
            edits.append(.name(family: changed.lastName, given: changed.firstName, formatted: changed.fullName))
        }
        if fields.contains(.company) {
            let units = record.fields(named: "ORG").first.map { Array($0.components.dropFirst()) } ?? []
            edits += changed.company.isEmpty ? record.fields(named: "ORG").map { .remove(name: "ORG", value: $0.text) }
                                             : [.set(name: "ORG", components: [[changed.company]] + units)]
        }
        if fields.contains(.email) { edits += try replacing("EMAIL", shown: current.email, with: changed.email) { _ in [[changed.email]] } }
        if fields.contains(.phone) { edits += try replacing("TEL", shown: current.phone, with: changed.phone) { _ in [[changed.phone]] } }
        if fields.contains(.address) {
            edits += try replacing("ADR", shown: current.address, with: changed.address) { field in
                let old = field?.components ?? []
                var parts = (0..<7).map { $0 < old.count ? old[$0] : [""] }
                for part in 0..<4 where AddressPart.text(part, of: changed.address) != AddressPart.text(part, of: current.address) {
                    // A part left as it was keeps its own lines and items (a street's two lines).
                    parts[part + 2] = [AddressPart.text(part, of: changed.address)]
                }
                return parts
            }
        }
        return edits
    }

    /// The property that gave the shown value: the one whose value reads as
    /// it (made one line as the reader makes it; `tel:` aside; an address
    /// by the parts the reader joins).
    private func shownField(_ name: String, _ shown: String) -> RecordField? {
        record.fields(named: name).first { field in
            if name == "ADR" {
                let parts = (2...5).map { $0 < field.components.count ? Array(PersonFieldValues.shownText(field.components[$0]).utf8) : [] }
                return String(decoding: PersonFieldValues.address(street: parts[0], city: parts[1], region: parts[2], postalCode: parts[3]),
                              as: UTF8.self) == shown
            }
            let text = PersonFieldValues.shownText([field.text])
            return text == shown || (text.lowercased().hasPrefix("tel:") && String(text.dropFirst(4)) == shown)
        }
    }

    /// The shown property rewritten where it stands (its group, parameters
    /// and other parts kept), removed for an empty value; added when the
    /// person showed none. A shown value whose property is not found again
    /// is refused: a second property would leave the old value shown.
    private func replacing(_ name: String, shown: String, with new: String,
                           _ components: (RecordField?) -> [[String]]) throws(EditFailure) -> [VCardEdit] {
        guard let field = shownField(name, shown) else {
            guard shown.isEmpty else {
                throw EditFailure(.failed, "\(sourceName): no \(name) of the card reads as the value shown; nothing written")
            }
            return new.isEmpty ? [] : [.add(name: name, parameters: [], components: components(nil))]
        }
        if new.isEmpty { return [.remove(name: name, value: field.text)] }
        return [.rewrite(name: name, line: field.line, components: components(field))]
    }
}

/// A person's changed fields as edits of the LDIF entry they were read from.
struct ContactLDIFEdits {
    let record: FieldRecord
    let current: Person
    let changed: Person
    let sourceName: String

    func edits(_ fields: [TextField]) throws(EditFailure) -> [LDIFEdit] {
        var edits: [LDIFEdit] = []
        // Only the half that changed: a name read from `cn` must not rewrite `sn`.
        if fields.contains(.firstName) { edits.append(.set(attribute: "givenName", values: Self.values(changed.firstName))) }
        if fields.contains(.lastName) { edits.append(.set(attribute: "sn", values: Self.values(changed.lastName))) }
        if fields.contains(.firstName) || fields.contains(.lastName) {
            // The name the entry reads as after the edit: the half not edited is its own attribute's, when it has one.
            let given = fields.contains(.firstName) ? changed.firstName : record.text(of: "givenName") ?? changed.firstName
            let family = fields.contains(.lastName) ? changed.lastName : record.text(of: "sn") ?? changed.lastName
            let fullName = [given, family].filter { !$0.isEmpty }.joined(separator: " ")
            // Other LDAP tools show cn (and displayName): the old full name there would outlive the rename.
            if !fullName.isEmpty, fullName != current.fullName {
                edits += [renamed("cn", to: fullName, orFirst: true), renamed("displayName", to: fullName, orFirst: false)].compactMap { $0 }
            }
        }
        if fields.contains(.company) { edits.append(.set(attribute: "o", values: Self.values(changed.company))) }
        if fields.contains(.email) { edits.append(try replacing(["mail"], shown: current.email, with: changed.email)) }
        if fields.contains(.phone) {
            edits.append(try replacing(["telephoneNumber", "mobile", "homePhone"], shown: current.phone, with: changed.phone))
        }
        if fields.contains(.address) {
            for (part, attribute) in ["street", "l", "st", "postalCode"].enumerated()
            where AddressPart.text(part, of: changed.address) != AddressPart.text(part, of: current.address) {
                edits.append(.set(attribute: attribute, values: Self.values(AddressPart.text(part, of: changed.address))))
            }
        }
        return edits
    }

    private static func values(_ text: String) -> [String] { text.isEmpty ? [] : [text] }

    /// `attribute`'s value that was the old full name made the new one (or,
    /// `orFirst`, its first value), its other values kept; the value the
    /// dn names the entry by stays, after the new one (LDAP requires it).
    private func renamed(_ attribute: String, to fullName: String, orFirst: Bool) -> LDIFEdit? {
        var values = record.fields(named: attribute).map(\.text)
        guard let index = values.firstIndex(where: { PersonFieldValues.shownText([$0]) == current.fullName })
            ?? (orFirst && !values.isEmpty ? 0 : nil) else { return nil }
        if namesEntry(attribute, values[index]) {
            values.insert(fullName, at: index)
        } else {
            values[index] = fullName
        }
        return .set(attribute: attribute, values: values)
    }

    /// Whether the dn's first part (`cn=Ada King+uid=7,ou=people`) is `attribute=value`.
    private func namesEntry(_ attribute: String, _ value: String) -> Bool {
        var parts: [String] = []
        var part = "", escaped = false
        for character in record.text(of: "dn") ?? "" {
            if escaped {
                part.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                break
            } else if character == "+" {
                parts.append(part)
                part = ""
            } else {
                part.append(character)
            }
        }
        parts.append(part)
        return parts.contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == attribute.lowercased() + "=" + value.lowercased() }
    }

    /// The attribute that gave the shown value, its value replaced and its
    /// other values kept; the first attribute named when none did (the
    /// person showed none). A shown value not found again is refused.
    private func replacing(_ attributes: [String], shown: String, with new: String) throws(EditFailure) -> LDIFEdit {
        for attribute in attributes {
            let values = record.fields(named: attribute).map(\.text)
            guard let index = values.firstIndex(where: { PersonFieldValues.shownText([$0]) == shown }) else { continue }
            var replaced = values
            if new.isEmpty { replaced.remove(at: index) } else { replaced[index] = new }
            return .set(attribute: attribute, values: replaced)
        }
        guard shown.isEmpty else {
            throw EditFailure(.failed, "\(sourceName): no \(attributes[0]) of the entry reads as the value shown; nothing written")
        }
        return .set(attribute: attributes[0], values: Self.values(new) + record.fields(named: attributes[0]).map(\.text))
    }
}
