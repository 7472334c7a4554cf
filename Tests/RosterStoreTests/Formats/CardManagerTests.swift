import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// A card's manager in every spelling RFC 6350 allows and Apple writes:
/// types as a list quoted or not, repeated, in any case; Apple's related
/// name labelled Manager. A `RELATED` of other types names no manager.
@Suite("A card's manager")
struct CardManagerTests {
    /// Ann (UID `urn:uuid:1`, ann@x.org) and Bob, whose card has `lines`.
    static func cards(_ lines: [String], version: String = "4.0") -> String {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:1\r\nFN:Ann Lee\r\nEMAIL:ann@x.org\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:\(version)\r\nUID:b\r\nFN:Bob Day\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n"
    }

    /// Bob's manager reference as the chart reads it, and whether the chart puts him under Ann.
    static func bobsManager(_ lines: [String], version: String = "4.0") throws -> (reference: String?, underAnn: Bool) {
        let text = cards(lines, version: version)
        let references = try FileManagerEditTests.references(text, .vCard)
        let bytes = Array(text.utf8)
        let store = try PeopleLoader(format: .vCard).load(bytes: bytes, sourceName: "cards").store
        let chart = bytes.withUnsafeBufferPointer { FileOrgChart.chart(of: store, fileBytes: $0, format: .vCard, sourceName: "cards", orderKeys: nil) }
        guard case .loaded(let loaded) = chart else { return (references["b"], false) }
        return (references["b"], loaded.tree.managers[1] == 0)
    }

    @Test("each spelling of a manager's RELATED is read, and Bob is under Ann", arguments: [
        (#"RELATED;TYPE="manager,work";VALUE=text:Ann Lee"#, "Ann Lee"),
        (#"RELATED;TYPE="work, Manager":mailto:ann@x.org"#, "mailto:ann@x.org"),
        ("RELATED;TYPE=work,manager:mailto:ann@x.org", "mailto:ann@x.org"),
        ("RELATED;type=MANAGER:urn:uuid:1", "urn:uuid:1"),
        ("RELATED;Type=Manager;VALUE=TEXT:ann@x.org", "ann@x.org"),
        ("RELATED;TYPE=work;TYPE=manager:urn:uuid:1", "urn:uuid:1"),
        (#"RELATED;VALUE=text;TYPE="co-worker";TYPE="manager":Ann Lee"#, "Ann Lee"),
        ("item1.RELATED;TYPE=manager:urn:uuid:1", "urn:uuid:1"),
    ])
    func spellings(line: String, reference: String) throws {
        let bob = try Self.bobsManager([line])
        #expect(bob.reference == reference)
        #expect(bob.underAnn)
    }

    @Test("Apple's related name labelled Manager (its wrapping, or a label the user typed), in 3.0 as Apple writes it")
    func apple() throws {
        for label in ["_$!<Manager>!$_", "manager", "_$!<MANAGER>!$_"] {
            let bob = try Self.bobsManager(["item1.X-ABRELATEDNAMES:Ann Lee", "item1.X-ABLabel:\(label)"], version: "3.0")
            #expect(bob.reference == "Ann Lee", "\(label)")
            #expect(bob.underAnn, "\(label)")
        }
        // Another label is another relation; an unlabelled related name is none.
        for lines in [["item1.X-ABRELATEDNAMES:Ann Lee", "item1.X-ABLabel:_$!<Assistant>!$_"], ["X-ABRELATEDNAMES:Ann Lee"]] {
            #expect(try Self.bobsManager(lines, version: "3.0").reference == nil)
        }
        // RFC 6350's RELATED comes first where a card has both.
        let both = try Self.bobsManager(["item2.X-ABRELATEDNAMES:Nobody", "item2.X-ABLabel:_$!<Manager>!$_", "RELATED;TYPE=manager:urn:uuid:1"])
        #expect(both.reference == "urn:uuid:1" && both.underAnn)
    }

    @Test("a RELATED whose types do not include manager names no manager", arguments: [
        "RELATED;TYPE=friend:urn:uuid:1", #"RELATED;TYPE="co-worker,work":urn:uuid:1"#, "RELATED:urn:uuid:1",
        "RELATED;TYPE=managers:urn:uuid:1", #"RELATED;LABEL="manager,work";TYPE=friend:urn:uuid:1"#,
    ])
    func notManagers(line: String) throws {
        let bob = try Self.bobsManager([line])
        #expect(bob.reference == nil)
        #expect(!bob.underAnn)
    }

    @Test("a quoted list of types splits; another parameter's quoted commas stay its text")
    func parameters() throws {
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nADR;TYPE=\"home,pref\";LABEL=\"1 Main St, Town\":;;1 Main St;Town;;;\r\nEND:VCARD\r\n"
        let adr = try #require(try FieldReading.vCards(card).records.first?.fields(named: "ADR").first)
        #expect(adr.parameters == [FieldParameter(name: "TYPE", value: "home"), FieldParameter(name: "TYPE", value: "pref"),
                                   FieldParameter(name: "LABEL", value: "1 Main St, Town")])
        #expect(adr.hasType("pref"))
    }

    @Test("setting Apple's manager rewrites its related name where it stands; none takes it and its label out")
    func appleEdited() throws {
        let text = Self.cards(["item1.X-ABRELATEDNAMES:Nobody", "item1.X-ABLabel:_$!<Manager>!$_", "EMAIL:bob@x.org"], version: "3.0")
        let changed = try FileManagerEditTests.setting("b", to: "Ann Lee", in: text, .vCard)
        #expect(changed.contains("item1.X-ABRELATEDNAMES:Ann Lee\r\nitem1.X-ABLabel:_$!<Manager>!$_\r\n"))
        #expect(!changed.contains("RELATED;"))
        #expect(try FileManagerEditTests.references(changed, .vCard)["b"] == "Ann Lee")
        let cleared = try FileManagerEditTests.setting("b", to: "", in: text, .vCard)
        #expect(cleared.contains("FN:Bob Day\r\nEMAIL:bob@x.org\r\nEND:VCARD"))
        #expect(try FileManagerEditTests.references(cleared, .vCard)["b"] == nil)
    }
}
