/// vCard 4.0 (RFC 6350): one card a person, escaped and folded.
extension DirectoryExporter {
    /// The card of `person`, with their `_id` as its `UID` (what the
    /// loader reads as the id, so that a manager named by it is found) and
    /// `manager` as `RELATED;TYPE=manager`, as the loader reads it.
    func vCard(_ person: Person, manager: String? = nil) -> String {
        func value(_ text: String) -> String { Self.vCardText(shown(text)) }
        var lines = ["BEGIN:VCARD", "VERSION:4.0", "FN:" + value(person.fullName),
                     "N:" + [person.lastName, person.firstName, "", "", ""].map(value).joined(separator: ";")]
        if !person.id.isEmpty { lines.append(Self.uriOrText("UID", shown(person.id))) }
        if !person.company.isEmpty { lines.append("ORG:" + value(person.company)) }
        if !person.email.isEmpty { lines.append("EMAIL:" + value(person.email)) }
        if !person.phone.isEmpty { lines.append("TEL:" + value(person.phone)) }
        if !person.address.isEmpty {
            // "303 Vermont Street, Concho, Arizona, 1707": street, locality, region, code.
            let parts = person.address.components(separatedBy: ", ")
            let components = parts.count == 4 ? ["", "", parts[0], parts[1], parts[2], parts[3], ""]
                                              : ["", "", person.address, "", "", "", ""]
            lines.append("ADR:" + components.map(value).joined(separator: ";"))
        }
        if let manager, !manager.isEmpty { lines.append(Self.uriOrText("RELATED;TYPE=\(ManagerField.name)", shown(manager))) }
        lines.append("END:VCARD")
        return lines.map(Self.folded).joined()
    }

    /// A property whose value is a URI unless reset to text (`UID`,
    /// `RELATED`): a plain URI as it is (`urn:uuid:…`, `mailto:…`), any
    /// other value (an `_id`, an email, a name, a DN) as `VALUE=text`,
    /// escaped, as RFC 6350 allows both; either reads back as written.
    static func uriOrText(_ property: String, _ text: String) -> String {
        isPlainURI(text) ? property + ":" + text : property + ";VALUE=text:" + vCardText(text)
    }

    /// `scheme:rest`: a letter, then letters, digits, `+`, `-` or `.`, a
    /// colon, then printable ASCII with nothing a text value escapes.
    static func isPlainURI(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon + 1 < bytes.count,
              (bytes[0] | 0x20) &- UInt8(ascii: "a") < 26 else { return false }
        let schemeFits = bytes[1..<colon].allSatisfy {
            ($0 | 0x20) &- UInt8(ascii: "a") < 26 || $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
        return schemeFits && bytes[(colon + 1)...].allSatisfy {
            $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: ";")
        }
    }

    /// RFC 6350 escaping of a text value: backslash, comma, semicolon, newline.
    /// Scalar by scalar: a comma followed by a combining mark is one
    /// Character, and would go unescaped.
    static func vCardText(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case ",": result.append(contentsOf: "\\,".unicodeScalars)
            case ";": result.append(contentsOf: "\\;".unicodeScalars)
            case "\r", "\n":
                if scalar == "\r", pending == "\n" { pending = scalars.next() }  // CRLF: one line break
                result.append(contentsOf: "\\n".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// A content line folded at 75 octets (CRLF and a space), never inside
    /// a UTF-8 sequence, and ended with CRLF.
    static func folded(_ line: String) -> String {
        var result = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let width = String(scalar).utf8.count
            if octets + width > 75 {
                result += "\r\n "
                octets = 1
            }
            result.unicodeScalars.append(scalar)
            octets += width
        }
        return result + "\r\n"
    }
}
