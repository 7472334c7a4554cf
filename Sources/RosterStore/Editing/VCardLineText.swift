#if !ROSTER_FUZZ
import RosterCore
#endif

/// The vCard version a card is written in, which decides how a line is
/// written: 2.1 with quoted-printable where a value needs more than ASCII
/// on one line, bare `PREF`; 3.0 `TYPE=pref`; 4.0 `PREF=1`.
public enum VCardVersion: Equatable, Sendable {
    case v21, v30, v40

    init(_ text: String?) {
        switch text?.trimmingCharacters(in: .whitespaces) {
        case "2.1": self = .v21
        case "3.0": self = .v30
        default: self = .v40
        }
    }
}

/// Writing one content line: parameters, the value escaped (or
/// quoted-printable in 2.1), folded at 75 octets never inside a UTF-8
/// sequence, ended with the card's own line end.
enum VCardLineText {
    /// `group.NAME;params:value` with `lineEnd` after each physical line.
    static func line(group: String, name: String, parameters: [String], components: [[String]], version: VCardVersion,
                     lineEnd: [UInt8]) -> [UInt8] {
        let shape = Array(name.utf8).withUnsafeBufferPointer { VCardPropertyTraits(name: $0).shape }
        var value = escaped(components, shape: shape, version: version)
        var parameters = parameters.filter { !isEncodingParameter($0) }
        let needsQuotedPrintable = version == .v21 && value.contains(where: { $0 >= 0x80 || $0 == 0x0A || $0 == 0x0D })
        if needsQuotedPrintable {
            parameters += ["ENCODING=QUOTED-PRINTABLE", "CHARSET=UTF-8"]
            value = quotedPrintable(value)
        }
        var header = Array(((group.isEmpty ? "" : group + ".") + name).utf8)
        for parameter in parameters { header += [UInt8(ascii: ";")] + Array(parameter.utf8) }
        let line = header + [UInt8(ascii: ":")] + value
        return needsQuotedPrintable ? softBroken(line, lineEnd: lineEnd) : folded(line, lineEnd: lineEnd)
    }

    /// `ENCODING=`, `CHARSET=` and 2.1's bare `QUOTED-PRINTABLE`: said
    /// anew for the value written, never kept from the old one.
    static func isEncodingParameter(_ parameter: String) -> Bool {
        let upper = parameter.uppercased()
        return upper.hasPrefix("ENCODING=") || upper.hasPrefix("CHARSET=") || upper == "QUOTED-PRINTABLE"
    }

    /// The value text: items joined by `,`, components by `;`, each
    /// escaped as the version wants (2.1 escapes only `;` and `\`).
    static func escaped(_ components: [[String]], shape: VCardPropertyTraits.Shape, version: VCardVersion) -> [UInt8] {
        var output: [UInt8] = []
        for (index, items) in components.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ";")) }
            for (itemIndex, item) in items.enumerated() {
                if itemIndex > 0 { output.append(UInt8(ascii: ",")) }
                for byte in normalizedLineBreaks(item) {
                    switch byte {
                    case 0x5C, UInt8(ascii: ";"):
                        output += [0x5C, byte]
                    case UInt8(ascii: ","):
                        if version != .v21, shape != .single || !isURIText(components) { output.append(0x5C) }
                        output.append(byte)
                    case 0x0A:
                        output += version == .v21 ? [0x0A] : [0x5C, UInt8(ascii: "n")]
                    default:
                        output.append(byte)
                    }
                }
            }
        }
        return output
    }

    /// CRLF and lone CRs made LF (one line break each).
    private static func normalizedLineBreaks(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte != 0x0D || index + 1 >= bytes.count || bytes[index + 1] != 0x0A {
            output.append(byte == 0x0D ? 0x0A : byte)
        }
        return output
    }

    /// A single value that is a URI keeps its commas as they are.
    private static func isURIText(_ components: [[String]]) -> Bool {
        guard components.count == 1, components[0].count == 1 else { return false }
        return Array(components[0][0].utf8).withUnsafeBufferPointer { VCardPropertyTraits.looksLikeURI($0) }
    }

    /// `line` cut into physical lines of at most 75 octets (the later
    /// ones starting with a space), never inside a UTF-8 sequence.
    static func folded(_ line: [UInt8], lineEnd: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(line.count + line.count / 70 * 3 + 2)
        var start = 0
        var limit = 75
        while line.count - start > limit {
            var cut = start + limit
            while cut > start + 1, line[cut] & 0xC0 == 0x80 { cut -= 1 }
            output += line[start..<cut] + lineEnd + [0x20]
            start = cut
            limit = 74
        }
        return output + line[start...] + lineEnd
    }

    /// Quoted-printable (RFC 2045) of UTF-8 text: printable ASCII but `=`
    /// as it is, the rest `=XX`, a line break `=0D=0A`.
    static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in bytes {
            if byte == 0x0A {
                output += Array("=0D=0A".utf8)
            } else if (byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "=")) || byte == 0x09 {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return output
    }

    /// A quoted-printable line cut with soft breaks (`=` at the end of a
    /// physical line of at most 76 octets), never inside an `=XX`.
    static func softBroken(_ line: [UInt8], lineEnd: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        while line.count - start > 76 {
            var cut = start + 75
            if line[cut - 1] == UInt8(ascii: "=") { cut -= 1 } else if line[cut - 2] == UInt8(ascii: "=") { cut -= 2 }
            output += line[start..<cut] + [UInt8(ascii: "=")] + lineEnd
            start = cut
        }
        return output + line[start...] + lineEnd
    }
}

/// A property's parameters as written, one segment each (`TYPE=work,pref`,
/// `PREF=1`, `WORK`), changed one at a time: untouched segments keep
/// their spelling.
struct VCardParameterList: Equatable {
    var segments: [String]

    init(raw: String) {
        var segments: [String] = []
        var current = ""
        var quoted = false
        for character in raw {
            if character == "\"" { quoted.toggle() }
            if character == ";", !quoted {
                segments.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !raw.isEmpty { segments.append(current) }
        self.segments = segments
    }

    /// Every mark of preference taken off: `PREF=n`, a bare `PREF`, `pref`
    /// in a `TYPE` list (the list goes when it was all it held).
    mutating func removePreference() {
        segments = segments.compactMap { segment in
            let parts = segment.split(separator: "=", maxSplits: 1).map(String.init)
            if parts[0].uppercased() == "PREF" { return nil }
            guard parts.count == 2, parts[0].uppercased() == "TYPE" else { return segment }
            let values = parts[1].split(separator: ",").filter { $0.lowercased() != "pref" }
            return values.isEmpty ? nil : parts[0] + "=" + values.joined(separator: ",")
        }
    }

    /// The mark of preference this version writes, spelled like the
    /// card's other `TYPE`s (Apple writes `type=`).
    mutating func addPreference(version: VCardVersion) {
        switch version {
        case .v21: segments.append("PREF")
        case .v30: segments.append((segments.contains { $0.hasPrefix("type=") } ? "type" : "TYPE") + "=pref")
        case .v40: segments.append("PREF=1")
        }
    }
}
