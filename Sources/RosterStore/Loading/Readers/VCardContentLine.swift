#if !ROSTER_FUZZ
import RosterCore
#endif

/// One property of a card, found: where its group, name, parameters and
/// value are (offsets in the input buffer, or in the card's unfolded
/// bytes where a fold had to come out), and how its value is written.
struct VCardContentLine {
    /// Whether the header (group, name, parameters) is in the unfolded bytes.
    var headerUnfolded: Bool
    var group: Range<Int>
    var name: Range<Int>
    var parameters: Range<Int>
    /// Whether the value is in the unfolded bytes.
    var valueUnfolded: Bool
    var value: Range<Int>
    /// The value as it stands in the input buffer, folds and all.
    var rawValue: Range<Int>
    var form: VCardValueForm
    var line: Int
    /// An `X-ABLabel` (a label for its group's other properties).
    var isLabel: Bool
}

/// How a value is written, as its parameters say.
struct VCardValueForm {
    enum Encoding { case plain, quotedPrintable, base64 }
    enum Declared { case none, text, uri, date }

    var encoding = Encoding.plain
    var charset = TextCharset.utf8
    /// What `VALUE=` declares.
    var declared = Declared.none

    init() {}

    /// From the parameters: `ENCODING=` (and 2.1's bare `QUOTED-PRINTABLE`,
    /// `BASE64`), `CHARSET=`, `VALUE=`.
    init(_ parameters: FieldParameters) {
        guard !parameters.isEmpty else { return }
        parameters.forEach { name, value in
            if name.isEmpty || FieldBytes.equalsIgnoringCase(name, "ENCODING") {
                if FieldBytes.equalsIgnoringCase(value, "QUOTED-PRINTABLE") {
                    encoding = .quotedPrintable
                } else if FieldBytes.equalsIgnoringCase(value, "BASE64") || (!name.isEmpty && FieldBytes.equalsIgnoringCase(value, "B")) {
                    encoding = .base64
                }
            } else if FieldBytes.equalsIgnoringCase(name, "CHARSET") {
                charset = TextCharset(name: value)
            } else if FieldBytes.equalsIgnoringCase(name, "VALUE") {
                declared = Self.declared(value)
                if FieldBytes.equalsIgnoringCase(value, "BINARY") { encoding = .base64 }
            }
        }
    }

    private static func declared(_ value: UnsafeBufferPointer<UInt8>) -> Declared {
        if FieldBytes.equalsIgnoringCase(value, "TEXT") { return .text }
        if FieldBytes.equalsIgnoringCase(value, "URI") || FieldBytes.equalsIgnoringCase(value, "URL") { return .uri }
        if FieldBytes.equalsIgnoringCase(value, "DATE") || FieldBytes.equalsIgnoringCase(value, "DATE-TIME")
            || FieldBytes.equalsIgnoringCase(value, "DATE-AND-OR-TIME") || FieldBytes.equalsIgnoringCase(value, "TIMESTAMP")
            || FieldBytes.equalsIgnoringCase(value, "TIME") {
            return .date
        }
        return .none
    }
}

/// What a property's name says about its value: how it splits, and what
/// kind it is when `VALUE=` does not say.
struct VCardPropertyTraits {
    enum Shape: Equatable {
        case single
        /// Items separated by commas (`CATEGORIES`, `NICKNAME`).
        case list
        /// Components separated by semicolons, each a list of items when `items`.
        case structured(items: Bool)
    }

    enum Default { case text, date, uriIfItLooksLikeOne }

    var shape = Shape.single
    var kind = Default.text

    /// The traits of the property `name` (any case).
    init(name: UnsafeBufferPointer<UInt8>) {
        guard let first = name.first else { return }
        switch (name.count, first | 0x20) {
        case (1, UInt8(ascii: "n")): shape = .structured(items: true)
        case (3, UInt8(ascii: "a")) where FieldBytes.equalsIgnoringCase(name, "ADR"): shape = .structured(items: true)
        case (3, UInt8(ascii: "o")) where FieldBytes.equalsIgnoringCase(name, "ORG"): shape = .structured(items: false)
        case (6, UInt8(ascii: "g")) where FieldBytes.equalsIgnoringCase(name, "GENDER"): shape = .structured(items: false)
        case (12, UInt8(ascii: "c")) where FieldBytes.equalsIgnoringCase(name, "CLIENTPIDMAP"): shape = .structured(items: false)
        case (8, UInt8(ascii: "n")) where FieldBytes.equalsIgnoringCase(name, "NICKNAME"): shape = .list
        case (10, UInt8(ascii: "c")) where FieldBytes.equalsIgnoringCase(name, "CATEGORIES"): shape = .list
        default: kind = Self.kind(of: name, first: first | 0x20)
        }
    }

    private static func kind(of name: UnsafeBufferPointer<UInt8>, first: UInt8) -> Default {
        switch first {
        case UInt8(ascii: "b") where FieldBytes.equalsIgnoringCase(name, "BDAY"): return .date
        case UInt8(ascii: "a") where FieldBytes.equalsIgnoringCase(name, "ANNIVERSARY"): return .date
        case UInt8(ascii: "d") where FieldBytes.equalsIgnoringCase(name, "DEATHDATE"): return .date
        case UInt8(ascii: "r") where FieldBytes.equalsIgnoringCase(name, "REV"): return .date
        case UInt8(ascii: "x") where FieldBytes.equalsIgnoringCase(name, "X-ANNIVERSARY"): return .date
        case UInt8(ascii: "u") where FieldBytes.equalsIgnoringCase(name, "URL"),
             UInt8(ascii: "r") where FieldBytes.equalsIgnoringCase(name, "RELATED"),
             UInt8(ascii: "i") where FieldBytes.equalsIgnoringCase(name, "IMPP"),
             UInt8(ascii: "p") where FieldBytes.equalsIgnoringCase(name, "PHOTO"),
             UInt8(ascii: "l") where FieldBytes.equalsIgnoringCase(name, "LOGO"),
             UInt8(ascii: "s") where FieldBytes.equalsIgnoringCase(name, "SOUND") || FieldBytes.equalsIgnoringCase(name, "SOURCE"),
             UInt8(ascii: "k") where FieldBytes.equalsIgnoringCase(name, "KEY"),
             UInt8(ascii: "m") where FieldBytes.equalsIgnoringCase(name, "MEMBER"),
             UInt8(ascii: "f") where FieldBytes.equalsIgnoringCase(name, "FBURL"),
             UInt8(ascii: "c") where FieldBytes.equalsIgnoringCase(name, "CALURI") || FieldBytes.equalsIgnoringCase(name, "CALADRURI"):
            return .uriIfItLooksLikeOne
        default:
            return .text
        }
    }

    /// The kind of a value of this property written in `form`.
    func kind(of value: UnsafeBufferPointer<UInt8>, form: VCardValueForm) -> FieldValueKind {
        switch form.declared {
        case .text: return .text
        case .uri: return .uri
        case .date: return .date
        case .none: break
        }
        switch kind {
        case .text: return .text
        case .date: return .date
        case .uriIfItLooksLikeOne: return Self.looksLikeURI(value) ? .uri : .text
        }
    }

    /// `scheme:…` (`urn:uuid:…`, `https://…`, `mailto:…`): a letter, then
    /// letters, digits, `+`, `-` or `.`, then a colon (Apple escapes it: `\:`).
    static func looksLikeURI(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, (first | 0x20) &- UInt8(ascii: "a") < 26 else { return false }
        for byte in value.dropFirst().prefix(32) {
            if byte == UInt8(ascii: ":") { return true }
            let fits = (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == 0x5C
            if !fits { return false }
        }
        return false
    }
}
