/// A search filter made from typed terms, never from pasted text: every
/// value is escaped (RFC 4515) when the filter is written out, so what a
/// user typed is only ever a value (`*)(uid=*` finds nobody).
///
/// Independent of Roster's query language for now: the source that maps
/// `PeopleQuery` (and the field registry's attribute names) onto it comes
/// with the LDAP repository.
public indirect enum LDAPFilter: Sendable, Equatable {
    case and([LDAPFilter])
    case or([LDAPFilter])
    case not(LDAPFilter)
    case equals(String, LDAPValue)
    /// The value anywhere in the attribute (`(cn=*value*)`).
    case contains(String, LDAPValue)
    case startsWith(String, LDAPValue)
    case endsWith(String, LDAPValue)
    /// The attribute has a value (`(mail=*)`).
    case present(String)
    case greaterOrEqual(String, LDAPValue)
    case lessOrEqual(String, LDAPValue)

    /// Everyone (`(objectClass=*)`).
    public static let everyone = LDAPFilter.present("objectClass")

    /// The RFC 4515 string, values escaped.
    public var text: String {
        switch self {
        case .and(let filters): "(&" + filters.map(\.text).joined() + ")"
        case .or(let filters): "(|" + filters.map(\.text).joined() + ")"
        case .not(let filter): "(!" + filter.text + ")"
        case .equals(let attribute, let value): "(\(attribute)=\(value.escaped))"
        case .contains(let attribute, let value):
            value.bytes.isEmpty ? Self.present(attribute).text : "(\(attribute)=*\(value.escaped)*)"
        case .startsWith(let attribute, let value):
            value.bytes.isEmpty ? Self.present(attribute).text : "(\(attribute)=\(value.escaped)*)"
        case .endsWith(let attribute, let value):
            value.bytes.isEmpty ? Self.present(attribute).text : "(\(attribute)=*\(value.escaped))"
        case .present(let attribute): "(\(attribute)=*)"
        case .greaterOrEqual(let attribute, let value): "(\(attribute)>=\(value.escaped))"
        case .lessOrEqual(let attribute, let value): "(\(attribute)<=\(value.escaped))"
        }
    }

    /// The filter as the protocol carries it (RFC 4511 `Filter`), for the
    /// Assertion control.
    var encoded: [UInt8] {
        var writer = BERWriter()
        write(to: &writer)
        return writer.bytes
    }

    private func write(to writer: inout BERWriter) {
        switch self {
        case .and(let filters): writer.constructed(BER.context(0, constructed: true)) { set in filters.forEach { $0.write(to: &set) } }
        case .or(let filters): writer.constructed(BER.context(1, constructed: true)) { set in filters.forEach { $0.write(to: &set) } }
        case .not(let filter): writer.constructed(BER.context(2, constructed: true)) { filter.write(to: &$0) }
        case .equals(let attribute, let value): Self.assertion(3, attribute, value, to: &writer)
        case .contains(let attribute, let value): Self.substrings(attribute, [(1, value)], to: &writer)
        case .startsWith(let attribute, let value): Self.substrings(attribute, [(0, value)], to: &writer)
        case .endsWith(let attribute, let value): Self.substrings(attribute, [(2, value)], to: &writer)
        case .present(let attribute): writer.string(attribute, tag: BER.context(7))
        case .greaterOrEqual(let attribute, let value): Self.assertion(5, attribute, value, to: &writer)
        case .lessOrEqual(let attribute, let value): Self.assertion(6, attribute, value, to: &writer)
        }
    }

    private static func assertion(_ choice: UInt8, _ attribute: String, _ value: LDAPValue, to writer: inout BERWriter) {
        writer.constructed(BER.context(choice, constructed: true)) { pair in
            pair.string(attribute)
            pair.octets(value.bytes)
        }
    }

    /// `initial` [0], `any` [1], `final` [2] parts; an empty value is a
    /// presence test, as in `text`.
    private static func substrings(_ attribute: String, _ parts: [(UInt8, LDAPValue)], to writer: inout BERWriter) {
        guard parts.allSatisfy({ !$0.1.bytes.isEmpty }) else {
            LDAPFilter.present(attribute).write(to: &writer)
            return
        }
        writer.constructed(BER.context(4, constructed: true)) { substrings in
            substrings.string(attribute)
            substrings.constructed { list in
                for (choice, value) in parts { list.octets(value.bytes, tag: BER.context(choice)) }
            }
        }
    }
}

/// One attribute value: bytes, usually UTF-8 text (binary-safe: a photo,
/// a certificate, an `objectGUID`).
public struct LDAPValue: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(stringLiteral text: String) { self.init(text) }

    /// The value as text, when it is UTF-8.
    public var text: String? { String(validating: bytes, as: UTF8.self) }

    public var description: String { text ?? "\(bytes.count) bytes" }

    /// The value as a filter carries it (RFC 4515): `*`, `(`, `)`, `\` and
    /// NUL as `\2a`, `\28`, `\29`, `\5c`, `\00`; a value that is not UTF-8
    /// has every byte past ASCII escaped too.
    var escaped: String {
        let isText = text != nil
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case 0x2A, 0x28, 0x29, 0x5C, 0x00: out += Self.hexEscape(byte)
            case 0x80... where !isText: out += Self.hexEscape(byte)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexEscape(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return [UInt8(ascii: "\\"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    }
}
