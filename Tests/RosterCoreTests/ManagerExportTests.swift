import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// A person's manager survives every export: written as each loader reads
/// it (a CSV `manager` column, a JSON `"manager"` member, a card's
/// `RELATED;TYPE=manager` with the people's `UID`s), it reads back to the
/// same reference and the same org chart.
@Suite("Managers in exports")
struct ManagerExportTests {
    /// Managers named every way a file names them: by `_id`, email (and a
    /// `mailto:` URI), full name, a URI id, a DN id with an escaped comma;
    /// one naming nobody, one hostile (a formula, RFC 6350's special
    /// characters, a line break), one empty, one none.
    static let org = #"""
        [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.org", "company": "ANALYTICAL"},
         {"_id": "g2", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@x.org", "company": "NAVY", "manager": "a1"},
         {"_id": "t3", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@x.org", "manager": "grace@x.org"},
         {"_id": "k4", "name": {"first": "Katherine", "last": "Johnson"}, "manager": "Grace Hopper"},
         {"_id": "urn:uuid:5", "name": {"first": "Edsger", "last": "Dijkstra"}, "manager": "mailto:ADA@x.org"},
         {"_id": "cn=Lee\\, Ann,dc=x", "name": {"first": "Ann", "last": "Lee"}, "manager": "urn:uuid:5"},
         {"_id": "d7", "name": {"first": "Dan", "last": "Lee"}, "manager": "cn=Lee\\, Ann,dc=x"},
         {"_id": "h8", "name": {"first": "Hostile", "last": "Cell"}, "manager": "=HYPERLINK(\"http://evil\");a,b\\c\nd"},
         {"_id": "n9", "name": {"first": "Nell", "last": "Wall"}, "manager": "Nobody Here"},
         {"_id": "e10", "name": {"first": "Empty", "last": "Manager"}, "manager": ""}]
        """#

    static let original = try! Fixtures.directory(json: org, name: "org.json")
    static let references = Array(org.utf8).withUnsafeBufferPointer {
        FileManagerReferences(store: original.store, fileBytes: $0, format: .json)!
    }

    /// Everyone in the list's order, each with their manager, as `--export` and `e` write them.
    static func exported(_ format: ExportFormat, options: ExportOptions = ExportOptions()) async -> [UInt8] {
        var output = OutputBuffer(descriptor: -1)
        let repository = original.repository
        let unread = await DirectoryExporter(format: format, options: options)
            .write(repository.arrange(sort: .byLastName, byCompany: true, company: nil), of: repository, managers: references, to: &output)
        #expect(unread == 0)
        return output.bytes
    }

    /// Per `_id`: the manager reference the file gives, and who the chart
    /// says the manager is (their `_id`, or why they are at the top).
    static func managers(of store: PeopleStore, in bytes: [UInt8], _ format: InputFormat) throws -> [String: (String?, String)] {
        let references = try #require(bytes.withUnsafeBufferPointer { FileManagerReferences(store: store, fileBytes: $0, format: format) })
        guard case .loaded(let chart) = FileOrgChart.chart(of: store, references: references, sourceName: "org", orderKeys: nil) else {
            Issue.record("no chart")
            return [:]
        }
        var managers: [String: (String?, String)] = [:]
        for person in 0..<store.count {
            let manager = chart.tree.managers[person]
            let said = manager >= 0 ? store.text(.id, of: Int(manager)) : "top: \(chart.tree.rootReason(of: person))"
            managers[store.text(.id, of: person)] = (references.managerReference(of: person), said)
        }
        return managers
    }

    @Test("each format reads back to the same managers and the same chart", arguments: [
        (ExportFormat.csv, InputFormat.csv), (.json, .json), (.vcard, .vCard),
    ])
    func roundTrip(format: ExportFormat, input: InputFormat) async throws {
        let bytes = await Self.exported(format)
        let again = try PeopleLoader(format: input).load(bytes: bytes, sourceName: "out")
        #expect(again.skipped.isEmpty)
        #expect(again.store.count == Self.original.store.count)
        let before = try Self.managers(of: Self.original.store, in: Array(Self.org.utf8), .json)
        let after = try Self.managers(of: again.store, in: bytes, input)
        #expect(Set(after.keys) == Set(before.keys), "every _id read back")
        for (id, (reference, manager)) in before {
            // CSV and vCard hold no empty reference apart from none: either means no manager.
            let expected = format == .json ? reference : reference.flatMap { $0.isEmpty ? nil : $0 }
            #expect(after[id]?.0 == expected, "\(id)'s reference")
            #expect(after[id]?.1 == manager, "\(id)'s manager in the chart")
        }
        // The chart is a real one: found by id, email, mailto:, name, URI and DN; one not here.
        #expect(before["d7"]?.1 == "cn=Lee\\, Ann,dc=x" && before["cn=Lee\\, Ann,dc=x"]?.1 == "urn:uuid:5")
        #expect(before["urn:uuid:5"]?.1 == "a1" && before["k4"]?.1 == "g2" && before["t3"]?.1 == "g2")
        #expect(before["n9"]?.1 == "top: missingManager")
    }

    /// Entries as `slapcat` writes them: Bob's manager is Ada's DN as
    /// written, Cy's is Bob's spelled in other case and spacing.
    static let ldif = "dn: uid=a,dc=x\ncn: Ada Lovelace\nsn: Lovelace\n\ndn: uid=b,dc=x\ncn: Bob Smith\nsn: Smith\nmanager: uid=a,dc=x\n\n"
        + "dn: uid=c,dc=x\ncn: Cy Young\nsn: Young\nmanager: UID=b, DC=x\n"

    @Test("an LDIF's managers, a DN however spelled, keep their chart in every export (an _id that is a DN is one)", arguments: [
        (ExportFormat.csv, InputFormat.csv), (.json, .json), (.vcard, .vCard),
    ])
    func ldifRoundTrip(format: ExportFormat, input: InputFormat) async throws {
        let original = try PeopleLoader(format: .ldif).load(bytes: Array(Self.ldif.utf8), sourceName: "org.ldif")
        let references = try #require(Array(Self.ldif.utf8).withUnsafeBufferPointer {
            FileManagerReferences(store: original.store, fileBytes: $0, format: .ldif)
        })
        var output = OutputBuffer(descriptor: -1)
        let repository = original.repository
        await DirectoryExporter(format: format).write(repository.arrange(sort: .byLastName, byCompany: true, company: nil), of: repository,
                                                      managers: references, to: &output)
        let again = try PeopleLoader(format: input).load(bytes: output.bytes, sourceName: "out")
        let before = try Self.managers(of: original.store, in: Array(Self.ldif.utf8), .ldif)
        #expect(before["uid=c,dc=x"]?.1 == "uid=b,dc=x" && before["uid=b,dc=x"]?.1 == "uid=a,dc=x")
        let after = try Self.managers(of: again.store, in: output.bytes, input)
        #expect(after.mapValues(\.1) == before.mapValues(\.1))
        #expect(after.mapValues(\.0) == before.mapValues(\.0))
    }

    @Test("CSV: a manager column last, only with managers; a formula in it guarded as any text cell, exact when verbatim")
    func csvColumn() async throws {
        let lines = String(decoding: await Self.exported(.csv), as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines[0] == DirectoryExporter.csvHeader.joined(separator: ",") + ",manager")
        let hostile = try #require(lines.first { $0.hasPrefix("Hostile,") })
        #expect(hostile.hasSuffix(#","'=HYPERLINK(""http://evil"");a,b\c"# + "\nd\""))
        let verbatim = String(decoding: await Self.exported(.csv, options: ExportOptions(neutralisesFormulas: false)), as: UTF8.self)
        #expect(verbatim.contains(#","=HYPERLINK(""http://evil"");a,b\c"# + "\nd\"\r\n"))
        let people = Self.original.repository.everyoneAtOnce(in: Self.original.everyone)
        let plain = String(decoding: DirectoryExporter(format: .csv).export(people), as: UTF8.self)
        #expect(plain.hasPrefix(DirectoryExporter.csvHeader.joined(separator: ",") + "\r\n"), "no managers given: no column")
        #expect(!plain.contains("manager"))
    }

    @Test("JSON: a \"manager\" member last where the record had one (an empty one too), none where it had none")
    func jsonMember() throws {
        let people = [Person(id: "a", firstName: "Ann", lastName: "Lee"), Person(id: "b", firstName: "Bob", lastName: "Day"),
                      Person(id: "c", firstName: "Cy", lastName: "Ray")]
        let json = String(decoding: DirectoryExporter(format: .json).export(people, managers: ["x\"y", nil, ""]), as: UTF8.self)
        let records = json.components(separatedBy: "\n },\n ")
        #expect(records.count == 3)
        #expect(records[0].hasSuffix("\n  \"manager\": \"x\\\"y\""))
        #expect(!records[1].contains("manager"))
        #expect(records[2].hasSuffix("\n  \"manager\": \"\"\n }\n]\n"))
    }

    @Test("vCard: the person's _id as UID and the manager as RELATED;TYPE=manager, a URI as it is, anything else as escaped text")
    func vCardLines() {
        let people = [Person(id: "urn:uuid:1", firstName: "Ann", lastName: "Lee"), Person(id: "b,2", firstName: "Bob", lastName: "Day"),
                      Person(firstName: "Cy", lastName: "Ray"), Person(id: "d", firstName: "Di", lastName: "Fox")]
        let managers: [String?] = ["mailto:boss@x.org", "Lee;\\Ann,\r\nSr", nil, ""]
        let cards = String(decoding: DirectoryExporter(format: .vcard).export(people, managers: managers), as: UTF8.self)
            .components(separatedBy: "END:VCARD\r\n")
        #expect(cards[0].contains("\r\nUID:urn:uuid:1\r\n") && cards[0].hasSuffix("\r\nRELATED;TYPE=manager:mailto:boss@x.org\r\n"))
        #expect(cards[1].contains("\r\nUID;VALUE=text:b\\,2\r\n"))
        #expect(cards[1].hasSuffix("\r\nRELATED;TYPE=manager;VALUE=text:Lee\\;\\\\Ann\\,\\nSr\r\n"))
        #expect(!cards[2].contains("UID") && !cards[2].contains("RELATED"), "no _id, no manager: neither line")
        #expect(!cards[3].contains("RELATED"), "an empty reference is none")
    }

    @Test("to a terminal, a manager's control characters are shown, never sent", arguments: ExportFormat.allCases)
    func terminalSafe(format: ExportFormat) {
        let person = Person(id: "a", firstName: "Ann", lastName: "Lee")
        let shown = String(decoding: DirectoryExporter(format: format, options: ExportOptions(showsControlCharacters: true))
            .export([person], managers: ["Boss\u{1B}]0;pwned\u{07}"]), as: UTF8.self)
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(shown.contains("pwned"))
    }
}
