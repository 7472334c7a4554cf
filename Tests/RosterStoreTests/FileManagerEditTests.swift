import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// `roster update FILE ID manager=…` in each writable format: the new
/// reference written where the chart reads it (`FileManagerReferences`),
/// in the record's own shape; every other record's bytes kept; a manager
/// nobody is, the person, or someone under them refused with the
/// message a table gives, nothing written.
@Suite("A file's manager set")
struct FileManagerEditTests {
    /// `text` with `id`'s manager set to `reference`.
    static func setting(_ id: String, to reference: String, in text: String, _ format: InputFormat) throws -> String {
        try RecordFileTests.applying(.setManager(id: id, reference: reference), to: text, format)
    }

    /// Each person's manager reference as the chart reads it, by `_id`.
    static func references(_ text: String, _ format: InputFormat) throws -> [String: String] {
        let bytes = Array(text.utf8)
        let store = try PeopleLoader(format: format).load(bytes: bytes, sourceName: "people").store
        return bytes.withUnsafeBufferPointer { buffer in
            guard let references = FileManagerReferences(store: store, fileBytes: buffer, format: format) else { return [:] }
            var found: [String: String] = [:]
            for person in 0..<store.count {
                if let reference = references.managerReference(of: person) { found[store.text(.id, of: person)] = reference }
            }
            return found
        }
    }

    static let json = """
    [
      {"_id": "a", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.org"},
      {"_id": "b",  "name": {"first": "Bob", "last": "Smith"}, "email": "bob@x.org", "manager": "a", "x": [1, 2]},
      {"_id": "c", "name": {"first": "Cy", "last": "Young"}, "email": "cy@x.org", "manager": "bob@x.org"},
      {"_id": "d", "name": {"first": "Dee", "last": "Ray"}, "email": "dee@x.org"}
    ]

    """

    static let jsonLines = """
    {"_id": "a", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.org"}
    {"_id": "b","name":{"first":"Bob","last":"Smith"},"email":"bob@x.org","manager":"a"}
    {"_id": "c", "name": {"first": "Cy", "last": "Young"}, "email": "cy@x.org", "manager": "bob@x.org"}
    {"_id": "d", "name": {"first": "Dee", "last": "Ray"}, "email": "dee@x.org"}

    """

    static let csv = "_id,first,last,email,manager,notes\r\na,Ada,Lovelace,ada@x.org,,\"x, y\"\r\nb,Bob,Smith,bob@x.org,a,\r\n"
        + "c,Cy,Young,cy@x.org,bob@x.org,\r\nd,Dee,Ray,dee@x.org,,\r\n"

    /// The same people as cards, CRLF lines; Bob's card has a friend too.
    static let vCard = [("a", "Ada", "Lovelace", [String]()), ("b", "Bob", "Smith", ["manager:a", "friend:c", "friend:a"]),
                        ("c", "Cy", "Young", ["manager:mailto:bob@x.org"]), ("d", "Dee", "Ray", [])].map { id, first, last, related in
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(id)\r\nFN:\(first) \(last)\r\nN:\(last);\(first);;;\r\nEMAIL:\(first.lowercased())@x.org\r\n"
            + related.map { "RELATED;TYPE=\($0)\r\n" }.joined() + "END:VCARD\r\n"
    }.joined()

    /// Ada at the top, Bob under her, Cy under Bob, Dee alone: each entry
    /// as `slapcat` writes one.
    static let ldif = [("a", "Ada", "Lovelace", nil), ("b", "Bob", "Smith", "uid=a,dc=x"), ("c", "Cy", "Young", "uid=b,dc=x"),
                       ("d", "Dee", "Ray", nil)].map { id, first, last, manager in
        "dn: uid=\(id),dc=x\ncn: \(first) \(last)\ngivenName: \(first)\nsn: \(last)\nmail: \(first.lowercased())@x.org\n"
            + (manager.map { "manager: \($0)\n" } ?? "")
    }.joined(separator: "\n")

    static let formats: [(String, InputFormat, id: @Sendable (String) -> String)] = [
        (json, .json, { $0 }), (jsonLines, .jsonLines, { $0 }), (csv, .csv, { $0 }), (vCard, .vCard, { $0 }), (ldif, .ldif, { "uid=\($0),dc=x" }),
    ]

    @Test("a manager given, changed and taken away reads back as the chart reads it; the other records keep their bytes",
          arguments: 0..<5)
    func setChangedAndCleared(_ format: Int) throws {
        let (text, format, id) = Self.formats[format]
        let given = try Self.setting(id("a"), to: "dee@x.org", in: text, format)
        let expected = format == .ldif ? id("d") : "dee@x.org"  // LDIF's manager is the manager's DN
        #expect(try Self.references(given, format)[id("a")] == expected, "\(format)")
        let changed = try Self.setting(id("b"), to: " \(id("d")) ", in: text, format)
        #expect(try Self.references(changed, format)[id("b")] == id("d"), "\(format)")
        let cleared = try Self.setting(id("b"), to: "", in: text, format)
        #expect(try Self.references(cleared, format)[id("b")] == nil, "\(format)")
        #expect(try Self.references(cleared, format)[id("c")] != nil, "\(format)")
        // Each edit touched one record: the file less that record is the same.
        for (edited, record) in [(given, "a"), (changed, "b"), (cleared, "b")] {
            #expect(Self.without(record, edited, format) == Self.without(record, text, format), "\(format) \(record)")
        }
    }

    /// The text less the lines of the record of `id` (one line each in
    /// JSON, JSON Lines and CSV; a card or entry from its id line to its end).
    static func without(_ id: String, _ text: String, _ format: InputFormat) -> [Substring] {
        var lines: [Substring] = []
        var inRecord = false
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            switch format {
            case .vCard:
                if line.hasPrefix("UID:\(id)") { inRecord = true }
                if line.hasPrefix("END:VCARD") { inRecord = false }
            case .ldif:
                if line.hasPrefix("dn: uid=\(id),") { inRecord = true }
                if line.isEmpty { inRecord = false }
            default:
                inRecord = line.contains("\"_id\": \"\(id)\"") || line.hasPrefix("\(id),")
            }
            if !inRecord { lines.append(line) }
        }
        return lines
    }

    @Test("JSON: a new manager follows the record's last member in its spacing; none takes the member out")
    func jsonShape() throws {
        #expect(try Self.setting("a", to: "d", in: Self.json, .json).contains(
            #"{"_id": "a", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.org", "manager": "d"},"#))
        #expect(try Self.setting("b", to: "", in: Self.json, .json).contains(
            #"{"_id": "b",  "name": {"first": "Bob", "last": "Smith"}, "email": "bob@x.org", "x": [1, 2]},"#))
        #expect(try Self.setting("b", to: "d", in: Self.jsonLines, .jsonLines).contains(
            #"{"_id": "b","name":{"first":"Bob","last":"Smith"},"email":"bob@x.org","manager":"d"}"#))
    }

    @Test("vCard: the manager's RELATED is rewritten or taken out; other RELATEDs stay, one of the same value too; a card without one gets RELATED;TYPE=manager")
    func vCardShape() throws {
        let changed = try Self.setting("b", to: "d", in: Self.vCard, .vCard)
        #expect(changed.contains("RELATED;TYPE=manager:d\r\nRELATED;TYPE=friend:c\r\nRELATED;TYPE=friend:a\r\n"))
        let cleared = try Self.setting("b", to: "", in: Self.vCard, .vCard)
        #expect(cleared.contains("EMAIL:bob@x.org\r\nRELATED;TYPE=friend:c\r\nRELATED;TYPE=friend:a\r\nEND:VCARD"), "a friend of the same value stays")
        #expect(try Self.setting("a", to: "d", in: Self.vCard, .vCard).contains("EMAIL:ada@x.org\r\nRELATED;TYPE=manager:d\r\nEND:VCARD"))
    }

    @Test("CSV: the manager cell is written alone; a file without a manager column is refused, not given one in every row")
    func csvShape() throws {
        #expect(try Self.setting("a", to: "Dee Ray", in: Self.csv, .csv).contains("a,Ada,Lovelace,ada@x.org,Dee Ray,\"x, y\"\r\n"))
        // A reference a spreadsheet would run is written guarded, and reads back without the guard.
        let formula = "_id,first,last,manager\n=1+2,Eve,Hall,\nb,Bob,Smith,\n"
        let guarded = try Self.setting("b", to: "=1+2", in: formula, .csv)
        #expect(guarded.hasSuffix("b,Bob,Smith,'=1+2\n"))
        #expect(try Self.references(guarded, .csv)["b"] == "=1+2")
        let noColumn = "_id,first,last\na,Ada,Lovelace\nb,Bob,Smith\n"
        #expect(throws: EditFailure(.failed, "people has no manager column; add one to its header to give people managers; nothing written")) {
            try Self.setting("a", to: "b", in: noColumn, .csv)
        }
    }

    @Test("a loop, the person, a manager nobody is or a name two people have: refused as a table refuses them", arguments: 0..<5)
    func refusals(_ format: Int) throws {
        let (text, format, id) = Self.formats[format]
        let refusals = [
            (id("a"), id("c"), "Ada Lovelace cannot report to Cy Young: Cy Young is under Ada Lovelace (Cy Young › Bob Smith › Ada Lovelace)"),
            (id("a"), "bob@x.org", "Ada Lovelace cannot report to Bob Smith: Bob Smith reports to Ada Lovelace"),
            (id("b"), "bob@x.org", "Bob Smith cannot report to themselves"),
            (id("b"), "zed\u{1B}[2J", "Bob Smith cannot report to \"zed␛[2J\": no one here has that id, DN, email or name"),
        ]
        for (person, reference, message) in refusals {
            #expect(throws: EditFailure(.invalid, "people: \(message); nothing changed"), "\(format)") {
                try Self.setting(person, to: reference, in: text, format)
            }
        }
    }

    @Test("a name two people have is ambiguous; a manager set as the record has it already changes nothing")
    func ambiguousAndUnchanged() throws {
        let twins = Self.json.replacingOccurrences(of: "\"Cy\", \"last\": \"Young\"", with: "\"Bob\", \"last\": \"Smith\"")
        #expect(throws: EditFailure(.invalid, "people: Ada Lovelace cannot report to \"Bob Smith\": 2 people have that name; "
                                    + "give an id or an email; nothing changed")) {
            try Self.setting("a", to: "Bob Smith", in: twins, .json)
        }
        let setting = try Array(Self.json.utf8).withUnsafeBufferPointer { buffer in
            try RecordFile(bytes: buffer, format: .json, sourceName: "people").settingManager(of: "b", to: "a", in: buffer, sourceName: "people")
        }
        #expect(setting.0 == RecordFile.ManagerSetting(name: "Bob Smith", before: "a", after: "a") && setting.1 == nil)
    }
}
