import Foundation

/// The formats `--export` and `e` write.
public enum ExportFormat: String, CaseIterable, Sendable {
    case csv, json, vcard

    /// The format a file name asks for (`people.vcf`), CSV by default.
    public init(fileName: String) {
        self = Self(knownExtensionOf: fileName) ?? .csv
    }

    /// The format a file name's extension names, or nil (`foo.txt`, `foo`).
    public init?(knownExtensionOf fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "csv": self = .csv
        case "json": self = .json
        case "vcf", "vcard": self = .vcard
        default: return nil
        }
    }
}

/// Writes people, in a list's order, as CSV (RFC 4180), JSON in the seed's
/// own shape (it reads back to the same people), or vCard 4.0 (RFC 6350).
public struct DirectoryExporter: Sendable {
    public let format: ExportFormat

    public init(format: ExportFormat) {
        self.format = format
    }

    /// Everyone in `grouped`'s order, as bytes.
    public func export(_ grouped: GroupedPeople, store: PeopleStore) -> [UInt8] {
        var output = ""
        switch format {
        case .csv:
            output += Self.csvHeader.joined(separator: ",") + "\r\n"
            for person in grouped.order { output += Self.csvLine(store[Int(person)]) }
        case .json:
            output += "["
            for (index, person) in grouped.order.enumerated() {
                output += (index == 0 ? "" : ",\n ") + Self.jsonRecord(store[Int(person)])
            }
            output += grouped.order.isEmpty ? "]\n" : "\n]\n"
        case .vcard:
            for person in grouped.order { output += Self.vCard(store[Int(person)]) }
        }
        return Array(output.utf8)
    }

    // MARK: CSV

    static let csvHeader = ["first_name", "last_name", "company", "email", "phone", "address", "balance", "age", "active",
                            "id", "index", "guid", "picture", "eye_color", "favorite_fruit"]

    static func csvLine(_ person: Person) -> String {
        let balance = person.balance.cents.map(plainAmount) ?? ""
        let fields = [person.firstName, person.lastName, person.company, person.email, person.phone, person.address, balance,
                      person.age.map(String.init) ?? "", person.isActive.map { $0 ? "true" : "false" } ?? "",
                      person.id, person.index.map(String.init) ?? "", person.guid, person.picture, person.eyeColor, person.favoriteFruit]
        return fields.map(csvField).joined(separator: ",") + "\r\n"
    }

    /// Quoted when it holds a comma, a quote or a line break; quotes doubled.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// 210715 cents as "2107.15": a plain number, no currency or grouping.
    static func plainAmount(_ cents: Int64) -> String {
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return (cents < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    // MARK: JSON

    static func jsonRecord(_ person: Person) -> String {
        var lines: [String] = []
        func text(_ key: String, _ value: String) { lines.append("  \"\(key)\": \(jsonString(value))") }
        text("_id", person.id)
        if let index = person.index { lines.append("  \"index\": \(index)") }
        text("guid", person.guid)
        if let active = person.isActive { lines.append("  \"isActive\": \(active)") }
        text("balance", person.balance.text)
        text("picture", person.picture)
        if let age = person.age { lines.append("  \"age\": \(age)") }
        text("eyeColor", person.eyeColor)
        lines.append("  \"name\": {\n   \"first\": \(jsonString(person.firstName)),\n   \"last\": \(jsonString(person.lastName))\n  }")
        text("company", person.company)
        text("email", person.email)
        text("phone", person.phone)
        text("address", person.address)
        text("favoriteFruit", person.favoriteFruit)
        return "{\n" + lines.joined(separator: ",\n") + "\n }"
    }

    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    // MARK: vCard

    static func vCard(_ person: Person) -> String {
        var lines = ["BEGIN:VCARD", "VERSION:4.0", "FN:" + vCardText(person.fullName),
                     "N:" + [person.lastName, person.firstName, "", "", ""].map(vCardText).joined(separator: ";")]
        if !person.company.isEmpty { lines.append("ORG:" + vCardText(person.company)) }
        if !person.email.isEmpty { lines.append("EMAIL:" + vCardText(person.email)) }
        if !person.phone.isEmpty { lines.append("TEL:" + vCardText(person.phone)) }
        if !person.address.isEmpty {
            // "303 Vermont Street, Concho, Arizona, 1707": street, locality, region, code.
            let parts = person.address.components(separatedBy: ", ")
            let components = parts.count == 4 ? ["", "", parts[0], parts[1], parts[2], parts[3], ""]
                                              : ["", "", person.address, "", "", "", ""]
            lines.append("ADR:" + components.map(vCardText).joined(separator: ";"))
        }
        lines.append("END:VCARD")
        return lines.map(folded).joined() 
    }

    /// RFC 6350 escaping of a text value: backslash, comma, semicolon, newline.
    static func vCardText(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ",": result += "\\,"
            case ";": result += "\\;"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
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
