import Foundation

/// The formats `--export` and `e` write.
public enum ExportFormat: String, CaseIterable, Sendable {
    case csv, json, vcard

    /// How messages name it: "CSV", "JSON", "vCard".
    public var label: String {
        switch self {
        case .csv: return "CSV"
        case .json: return "JSON"
        case .vcard: return "vCard"
        }
    }

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

/// Choices about how an export treats text from the data.
public struct ExportOptions: Sendable, Equatable {
    /// CSV: a text cell that a spreadsheet would run as a formula (it starts
    /// with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading
    /// `'`, as OWASP advises. Numeric columns are never touched.
    public var neutralisesFormulas: Bool
    /// The output is a terminal: control characters in the data are made
    /// visible (as on screen) rather than obeyed. Into a pipe or a file the
    /// data is written exactly.
    public var showsControlCharacters: Bool

    public init(neutralisesFormulas: Bool = true, showsControlCharacters: Bool = false) {
        self.neutralisesFormulas = neutralisesFormulas
        self.showsControlCharacters = showsControlCharacters
    }
}

/// Writes people, in a list's order, as CSV (RFC 4180), JSON in the input's
/// own shape (only the fields each record had; it reads back to the same
/// people), or vCard 4.0 (RFC 6350).
///
/// Given its source's managers (`ManagerReferenceLookup`), each person's
/// manager goes with them as the loaders read it back: a CSV `manager`
/// column, a JSON `"manager"` member, a card's `RELATED;TYPE=manager`.
public struct DirectoryExporter: Sendable {
    public let format: ExportFormat
    public let options: ExportOptions

    public init(format: ExportFormat, options: ExportOptions = ExportOptions()) {
        self.format = format
        self.options = options
    }

    /// `people` in the format, as bytes; `managers`, when given, holds each
    /// one's manager reference in the same order (nil: none).
    public func export<People: Sequence>(_ people: People, managers: [String?]? = nil) -> [UInt8] where People.Element == Person {
        var output = OutputBuffer(descriptor: -1)
        write(people, managers: managers, to: &output)
        return output.bytes
    }

    /// Everyone in `arrangement`'s order to `descriptor`, a window of people
    /// and a block of output at a time (`--export`); false if writing failed.
    public func write(_ arrangement: PeopleArrangement, of repository: any PeopleRepository,
                      managers: (any ManagerReferenceLookup)? = nil, to descriptor: Int32) async -> Bool {
        var output = OutputBuffer(descriptor: descriptor)
        let unread = await write(arrangement, of: repository, managers: managers, to: &output)
        return output.flush() && unread == 0
    }

    /// Everyone in `arrangement`'s order, appended to `output` a window of
    /// people at a time (`--export` and the app's `e` both come here), each
    /// with their manager when `managers` is given; how many could not be
    /// read (0: the export is whole).
    @discardableResult
    public func write(_ arrangement: PeopleArrangement, of repository: any PeopleRepository,
                      managers: (any ManagerReferenceLookup)? = nil, to output: inout OutputBuffer) async -> Int {
        var written = 0
        begin(&output, withManagers: managers != nil)
        let pass: WholeRead
        if let managers {
            pass = await repository.readAllIdentified(in: arrangement) { people in
                for (id, person) in people {
                    append(person, manager: .column(managers.managerReference(of: id)), number: written, to: &output)
                    written += 1
                }
                return true
            }
        } else {
            pass = await repository.readAll(in: arrangement) { people in
                for person in people {
                    append(person, manager: .noColumn, number: written, to: &output)
                    written += 1
                }
                return true
            }
        }
        end(written: written, to: &output)
        return pass.unread
    }

    /// `people` in the format, appended to `output` one person at a time;
    /// `managers`, when given, holds each one's manager reference in order.
    public func write<People: Sequence>(_ people: People, managers: [String?]? = nil, to output: inout OutputBuffer)
    where People.Element == Person {
        var written = 0
        begin(&output, withManagers: managers != nil)
        for person in people {
            let manager = managers.map { ManagerCell.column(written < $0.count ? $0[written] : nil) } ?? .noColumn
            append(person, manager: manager, number: written, to: &output)
            written += 1
        }
        end(written: written, to: &output)
    }

    /// A person's manager as one export writes it: CSV has a column for it
    /// in every row (empty for none) or none at all.
    enum ManagerCell: Equatable {
        case noColumn
        case column(String?)

        var reference: String? {
            if case .column(let reference) = self { return reference }
            return nil
        }
    }

    /// What comes before the first person: CSV's header, JSON's bracket.
    private func begin(_ output: inout OutputBuffer, withManagers: Bool) {
        switch format {
        case .csv: output.append((withManagers ? Self.csvHeaderWithManager : Self.csvHeader).joined(separator: ",") + "\r\n")
        case .json: output.append("[")
        case .vcard: break
        }
    }

    /// Person `number` (from 0) of the export.
    private func append(_ person: Person, manager: ManagerCell, number: Int, to output: inout OutputBuffer) {
        switch format {
        case .csv: output.append(csvLine(person, manager: manager))
        case .json: output.append((number == 0 ? "" : ",\n ") + jsonRecord(person, manager: manager.reference))
        case .vcard: output.append(vCard(person, manager: manager.reference))
        }
    }

    /// What comes after the last of `written` people.
    private func end(written: Int, to output: inout OutputBuffer) {
        if format == .json { output.append(written == 0 ? "]\n" : "\n]\n") }
    }

    /// A value from the data as this export may write it.
    func shown(_ text: String) -> String {
        options.showsControlCharacters ? DisplayText.sanitized(text) : text
    }

    // MARK: CSV

    /// `balance` is a plain number (empty when the text is not an amount);
    /// `balance_text` is the balance exactly as the input wrote it.
    public static let csvHeader = CSVColumn.order.map(\.header)
    /// With the source's managers: a last column the CSV loader reads a
    /// person's manager from (`manager`, as a file's own column is named).
    public static let csvHeaderWithManager = csvHeader + [ManagerField.name]

    func csvLine(_ person: Person, manager: ManagerCell = .noColumn) -> String {
        var fields = CSVColumn.order.map { column -> String in
            switch column {
            case .text(let field): return Self.csvField(csvText(shown(person.text(field))))
            case .balanceAmount: return person.balance.cents.map(Self.plainAmount) ?? ""
            case .age: return person.age.map(String.init) ?? ""
            case .active: return person.isActive.map { $0 ? "true" : "false" } ?? ""
            case .index: return person.index.map(String.init) ?? ""
            }
        }
        // A text cell like any other: hostile data, guarded from spreadsheets.
        if case .column(let reference) = manager { fields.append(Self.csvField(csvText(shown(reference ?? "")))) }
        return fields.joined(separator: ",") + "\r\n"
    }

    /// A text cell, with a leading `'` when a spreadsheet would run it
    /// (`SpreadsheetCell.guarded`: a phone number or an amount is left
    /// alone), unless the export is verbatim.
    func csvText(_ text: String) -> String {
        options.neutralisesFormulas ? SpreadsheetCell.guarded(text) : text
    }

    /// Quoted when it holds a comma, a quote or a line break; quotes doubled.
    public static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
        else { return text }
        // Byte by byte, not by Character: a quote followed by a combining
        // mark is one Character that `replacingOccurrences` does not see as a
        // quote, and the field would end there (found by the writers' fuzzer).
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        quoted.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { quoted.append(byte) }
            quoted.append(byte)
        }
        quoted.append(UInt8(ascii: "\""))
        return String(decoding: quoted, as: UTF8.self)
    }

    /// 210715 cents as "2107.15": a plain number, no currency or grouping.
    public static func plainAmount(_ cents: Int64) -> String {
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return (cents < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    // MARK: JSON

    /// One person as one line of JSON Lines (the record `jsonRecord`
    /// writes, without its layout: every line break in it is layout, since
    /// strings escape theirs), ending in a newline.
    public func jsonLine(_ person: Person) -> String {
        String(String.UnicodeScalarView(jsonRecord(person).unicodeScalars.filter { $0 != "\n" })) + "\n"
    }

    /// Each value of `RecordValue.jsonOrder` with its indented key, made
    /// once rather than per person.
    static let jsonKeys = RecordValue.jsonOrder.map { ($0, "  \"\($0.jsonKey)\": ") }

    /// Only the fields the record had, with their values and types; the
    /// manager reference, when the record had one, last (as a string: a
    /// JSON number there reads back the same).
    func jsonRecord(_ person: Person, manager: String? = nil) -> String {
        var lines: [String] = []
        for (value, key) in Self.jsonKeys {
            switch value {
            case .text(.balance) where person.presentTextFields & TextField.balanceIsNumberBit != 0 && Self.isJSONNumber(person.balance.text):
                lines.append(key + person.balance.text)
            case .text(let field):
                if person.has(field) { lines.append(key + jsonString(person.text(field))) }
            case .index:
                if let index = person.index { lines.append(key + String(index)) }
            case .isActive:
                if let active = person.isActive { lines.append(key + String(active)) }
            case .age:
                if let age = person.age { lines.append(key + String(age)) }
            case .name:
                let parts = [TextField.firstName, .lastName].filter(person.has)
                    .map { "   \"\($0.jsonKey)\": \(jsonString(person.text($0)))" }
                if !parts.isEmpty { lines.append(key + "{\n" + parts.joined(separator: ",\n") + "\n  }") }
            }
        }
        if let manager { lines.append("  \"\(ManagerField.name)\": " + jsonString(manager)) }
        return "{\n" + lines.joined(separator: ",\n") + "\n }"
    }

    /// A balance kept from a JSON number is written back as one, but only
    /// if it still reads as JSON (the loader kept it verbatim, so it does).
    static func isJSONNumber(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2B || $0 == 0x2E || $0 | 0x20 == 0x65 }
    }

    /// A JSON string. C0, DEL and C1 controls are always escaped (a terminal
    /// may obey C1 too); on a terminal so are invisible format characters
    /// (bidi overrides could reorder what is shown). Escapes keep the value.
    func jsonString(_ text: String) -> String {
        Self.jsonString(text, escapingFormatCharacters: options.showsControlCharacters)
    }

    public static func jsonString(_ text: String, escapingFormatCharacters: Bool = false) -> String {
        // Most text needs no escape: one pass over its bytes says so, and
        // skips building it again a character at a time (a million people).
        if !needsEscaping(text.utf8, formatCharactersToo: escapingFormatCharacters) { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || (escapingFormatCharacters && scalar.properties.generalCategory == .format):
                result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Whether `jsonString` would escape anything: a quote, a backslash, C0,
    /// DEL, C1 (0xC2 0x80–0x9F in UTF-8), or, when asked, any non-ASCII
    /// (where format characters hide; the careful path sorts them out).
    private static func needsEscaping(_ bytes: String.UTF8View, formatCharactersToo: Bool) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return true }
            if byte >= 0x80, formatCharactersToo { return true }
            if previous == 0xC2, byte >= 0x80, byte <= 0x9F { return true }
            previous = byte
        }
        return false
    }
}
