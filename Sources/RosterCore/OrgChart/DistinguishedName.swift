/// LDAP distinguished names (RFC 4514) in one normal form, so that two
/// spellings of one entry compare equal: `CN=Ada Lovelace, OU=People,DC=Example,DC=com`
/// and `cn=ada lovelace,ou=people,dc=example,dc=com` are the same DN.
///
/// Attribute types are lowercased (an `oid.` prefix dropped); spaces around
/// `=`, `,`, `+` and at either end of a value go; escapes (`\,`, `\2C`) and
/// quoted values (RFC 1779's `"…"`) are read; values are compared as
/// `caseIgnoreMatch` does: case folded, runs of spaces as one. The
/// attributes of a multi-valued RDN (`cn=a+uid=b`) are put in one order.
/// The normal form escapes `,` `+` `=` `\` `"` `;` `<` `>` in values, so no
/// value can pass for a separator.
enum DistinguishedName {
    /// One `type=value` pair, normalised and already escaped.
    private typealias Attribute = [UInt8]

    /// Appends the normal form of `text` to `output`; false (nothing
    /// appended) when `text` is not a DN, such as a name or an email.
    static func normalise(_ text: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Bool {
        var parser = Parser(bytes: text)
        guard let names = parser.relativeNames() else { return false }
        for (index, attributes) in names.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            for (position, attribute) in attributes.sorted(by: { $0.lexicographicallyPrecedes($1) }).enumerated() {
                if position > 0 { output.append(UInt8(ascii: "+")) }
                output.append(contentsOf: attribute)
            }
        }
        return true
    }

    /// Reads a DN left to right; nil at the first thing RFC 4514 does not allow.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        private var atEnd: Bool { index >= bytes.count }
        private var next: UInt8 { bytes[index] }

        /// Every RDN's attributes, in the order written.
        mutating func relativeNames() -> [[Attribute]]? {
            skipSpaces()
            guard !atEnd else { return nil }
            var names: [[Attribute]] = []
            var current: [Attribute] = []
            while true {
                guard let type = attributeType() else { return nil }
                skipSpaces()
                guard !atEnd, next == UInt8(ascii: "=") else { return nil }
                index += 1
                skipSpaces()
                guard let value = attributeValue() else { return nil }
                current.append(type + [UInt8(ascii: "=")] + Self.escaped(Self.matchingForm(value)))
                skipSpaces()
                if atEnd {
                    names.append(current)
                    return names
                }
                let separator = next
                index += 1
                skipSpaces()
                switch separator {
                case UInt8(ascii: "+"): continue
                case UInt8(ascii: ","), UInt8(ascii: ";"):
                    names.append(current)
                    current = []
                default: return nil
                }
            }
        }

        /// A descriptor (`cn`, `ou`, `dc`) or a numeric OID (`2.5.4.3`), lowercased.
        private mutating func attributeType() -> [UInt8]? {
            var type: [UInt8] = []
            while !atEnd, Self.isTypeByte(next) {
                type.append(TextFolding.lowercasedASCII(next))
                index += 1
            }
            if type.starts(with: Array("oid.".utf8)) { type.removeFirst(4) }
            guard let first = type.first, Self.isTypeByte(first), first != UInt8(ascii: "-"), first != UInt8(ascii: ".") else {
                return nil
            }
            return type
        }

        private static func isTypeByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                return true
            default: return false
            }
        }

        /// The value's bytes with escapes and quotes undone; nil for a bad escape
        /// or an unclosed quote.
        private mutating func attributeValue() -> [UInt8]? {
            var value: [UInt8] = []
            let quoted = !atEnd && next == UInt8(ascii: "\"")
            if quoted { index += 1 }
            while !atEnd {
                let byte = next
                if quoted, byte == UInt8(ascii: "\"") {
                    index += 1
                    return value
                }
                if !quoted, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ";") { break }
                index += 1
                guard byte == UInt8(ascii: "\\") else {
                    value.append(byte)
                    continue
                }
                guard let unescaped = escape() else { return nil }
                value.append(unescaped)
            }
            return quoted ? nil : value
        }

        /// The byte after a backslash: two hex digits, or one special character.
        private mutating func escape() -> UInt8? {
            guard !atEnd else { return nil }
            if index + 1 < bytes.count, let high = Self.hexValue(bytes[index]), let low = Self.hexValue(bytes[index + 1]) {
                index += 2
                return high << 4 | low
            }
            let byte = next
            index += 1
            return byte
        }

        private static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }

        private mutating func skipSpaces() {
            while !atEnd, next == UInt8(ascii: " ") { index += 1 }
        }

        /// A value as `caseIgnoreMatch` compares it: case folded, spaces
        /// trimmed and each run of them one space.
        private static func matchingForm(_ value: [UInt8]) -> [UInt8] {
            let folded = value.allSatisfy { $0 < 0x80 }
                ? value.map(TextFolding.lowercasedASCII)
                : Array(String(decoding: value, as: UTF8.self).lowercased().utf8)
            var result: [UInt8] = []
            result.reserveCapacity(folded.count)
            for byte in folded {
                if byte == UInt8(ascii: " ") && (result.isEmpty || result.last == UInt8(ascii: " ")) { continue }
                result.append(byte)
            }
            if result.last == UInt8(ascii: " ") { result.removeLast() }
            return result
        }

        private static func escaped(_ value: [UInt8]) -> [UInt8] {
            var result: [UInt8] = []
            result.reserveCapacity(value.count)
            for byte in value {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "+"), UInt8(ascii: "="), UInt8(ascii: "\\"), UInt8(ascii: "\""),
                     UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: ">"):
                    result.append(UInt8(ascii: "\\"))
                default: break
                }
                result.append(byte)
            }
            return result
        }
    }
}
