#if !ROSTER_FUZZ
import RosterCore
#endif

/// Where a reader of a source's own fields (vCard, LDIF) hands what it
/// reads: records of named fields, one value at a time, as views into the
/// reader's buffers.
///
/// The reader copies nothing it does not have to: a value that needed no
/// decoding is a view of the input itself, so a sink that wants a value
/// past the call copies it (into its arena). A call's views are valid only
/// during that call. Every value handed over is valid UTF-8 (a charset or
/// quoted-printable decoded, bytes that are not UTF-8 read as Windows-1252),
/// except an `.external` value, which is not handed over at all: only its
/// place in the file.
///
/// A record is `beginRecord`, its fields in the order of the file,
/// `endRecord`. A record the reader cannot read whole (a card without its
/// END, one longer than the record limit, an LDIF change record) is one
/// `skipRecord` instead, with no `beginRecord`: good records are never lost
/// for a bad one. A line inside a record that is no field is one
/// `skipLine`, and the record is kept.
public protocol FieldRecordSink {
    /// The next file of a folder (`VCardFolderReader`): offsets and lines
    /// after this count in that file. Never called for a single file.
    mutating func beginFile(path: String)
    mutating func beginRecord(fileOffset: Int, line: Int)
    /// One value of one field of the current record.
    mutating func field(_ field: SourceField)
    mutating func endRecord(_ record: RecordEnd)
    /// A record passed over, with the line it starts on and why.
    mutating func skipRecord(reason: String, line: Int)
    /// A line passed over (inside a record, which is kept; or outside any).
    mutating func skipLine(reason: String, line: Int)
    /// Set when the sink will take no more (ten thousand distinct field
    /// names, say): the reader stops at the end of the record, and the
    /// load fails with this one line, at that record's line.
    var refusal: String? { get }
}

extension FieldRecordSink {
    public mutating func beginFile(path: String) {}
    public mutating func skipLine(reason: String, line: Int) {}
    public var refusal: String? { nil }
}

/// One value of one field, as the reader found it. All views are valid
/// only during the `field` call that hands them over.
///
/// A vCard property gives one `SourceField` per value: `N:Public;John;;;`
/// gives five (components 0 to 4, the empty ones too, so that a sink can
/// tell the parts apart); `CATEGORIES:a,b` two items of component 0;
/// `ADR` seven components, each possibly several items; `ORG` a name and
/// its units as components. Any other property gives one value, with its
/// commas and semicolons as text. An LDIF attribute line gives one value.
public struct SourceField {
    /// The vCard group (`item1` of `item1.EMAIL`), or empty.
    public var group: UnsafeBufferPointer<UInt8>
    /// The property or attribute name, as the file spells it (`EMAIL`,
    /// `email`, `givenName`): compare without case.
    public var name: UnsafeBufferPointer<UInt8>
    /// `TYPE=work,pref;PREF=1`, 2.1's bare `WORK;VOICE`, LDIF's options.
    public var parameters: FieldParameters
    /// The decoded `X-ABLabel` of the field's group (Apple's `_$!<Work>!$_`
    /// or a label of the user's own), or empty.
    public var groupLabel: UnsafeBufferPointer<UInt8>
    /// The value, decoded (escapes, quoted-printable, charset); empty for
    /// an `.external` one.
    public var value: UnsafeBufferPointer<UInt8>
    public var kind: FieldValueKind
    /// Which field of the record this value belongs to, from 0 in file
    /// order: the values of one property share it.
    public var property: Int
    /// A structured value's component (N: 0 family, 1 given, 2 additional,
    /// 3 prefix, 4 suffix; ADR: 0 post office box, 1 extended, 2 street,
    /// 3 locality, 4 region, 5 postal code, 6 country; ORG: 0 name, 1… units).
    public var component: Int
    /// The value's place in its component's list (`CATEGORIES:a,b`: 0, 1).
    public var item: Int
    /// The line the field starts on.
    public var line: Int
}

/// What kind of value a field holds, as far as the format says.
public enum FieldValueKind: Equatable, Sendable {
    case text
    /// A URI (`VALUE=uri`, or a property whose values are URIs: `URL`,
    /// `RELATED`, `PHOTO` by reference, `IMPP`…), as written.
    case uri
    /// A date or time (`BDAY`, `ANNIVERSARY`, `REV`) as written:
    /// `1985-04-15`, `19850415`, `--0415`, `1985-04-15T10:00:00Z`.
    case date
    /// A value left in the file (a photo, a key, a certificate): never
    /// read into memory for the list.
    case external(ExternalValue)
}

/// A value left where it is in the file: its bytes there, how they are
/// written, and how to decode them when someone asks (`decoded(from:)`).
public struct ExternalValue: Equatable, Sendable {
    /// How the bytes in the file are written.
    public enum Encoding: Equatable, Sendable {
        /// Base64 with line folds (vCard `ENCODING=b`/`BASE64`, LDIF `::`).
        case base64
        /// A `data:` URI (`data:image/jpeg;base64,…`), folded.
        case dataURI
    }

    /// The value's bytes in the file (folds included): offsets from the
    /// start of the file (of the folder's file it is in).
    public var fileRange: Range<Int>
    public var encoding: Encoding

    public init(fileRange: Range<Int>, encoding: Encoding) {
        self.fileRange = fileRange
        self.encoding = encoding
    }

    /// The value itself, from the bytes of `fileRange` as read from the
    /// file; nil when they are not base64.
    public func decoded(from stored: some Collection<UInt8>) -> [UInt8]? {
        var text = Array(stored)
        if encoding == .dataURI {
            guard let comma = text.firstIndex(of: UInt8(ascii: ",")) else { return nil }
            let header = String(decoding: text[..<comma], as: UTF8.self).lowercased()
            text.removeSubrange(...comma)
            guard header.hasSuffix(";base64") else {
                return text.filter { $0 != 0x0D && $0 != 0x0A && $0 != 0x20 && $0 != 0x09 }
            }
        }
        return text.withUnsafeBufferPointer { Base64Text.decoded($0) }
    }
}

/// A record read whole, as `endRecord` reports it.
public struct RecordEnd: Equatable, Sendable {
    public var kind: RecordKind
    /// The record's bytes in the file, from its first line to the end of
    /// its last (an edit rewrites exactly these).
    public var byteRange: Range<Int>
    /// How many fields (properties, attribute lines) it had.
    public var fieldCount: Int

    public init(kind: RecordKind, byteRange: Range<Int>, fieldCount: Int) {
        self.kind = kind
        self.byteRange = byteRange
        self.fieldCount = fieldCount
    }
}

/// What a record is about, where the format says (vCard `KIND`, Apple's
/// `X-ABShowAs:COMPANY`, LDIF's `objectClass`).
public enum RecordKind: Equatable, Sendable {
    /// A person (the default when the record does not say).
    case individual
    /// A company or other organisation, not a person.
    case organization
    /// A group of people (a contact list).
    case group
    case location
    /// Something else (an LDIF entry that is no person, group or organisation).
    case other
}
