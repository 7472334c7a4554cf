import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// Editing a card or an LDIF entry in place: only what changes is written.
@Suite("vCard and LDIF in-place writers")
struct CardWritingTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The lines of `after` that are not in `before`, and the reverse.
    static func changedLines(_ before: String, _ after: String) -> (removed: [String], added: [String]) {
        // By bytes: "\r\n" is one Character, which a split at "\n" would not see.
        func lines(_ text: String) -> [String] { Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) } }
        let old = lines(before), new = lines(after)
        let diff = new.difference(from: old)
        return (diff.removals.map { if case .remove(_, let line, _) = $0 { line } else { "" } },
                diff.insertions.map { if case .insert(_, let line, _) = $0 { line } else { "" } })
    }

    static let folded = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nNOTE:A note that is long enough that its writer folded it at se\r\n venty-five octets.\r\nitem1.EMAIL;TYPE=work:ann@acme.example\r\nitem1.X-ABLabel:_$!<Work>!$_\r\nEMAIL;TYPE=home;PREF=1:ann@home.example\r\nTITLE:Engineer\r\n\r\nEND:VCARD\r\n"

    @Test("no edit gives the same bytes, for every card shape")
    func unchangedRoundTrip() throws {
        for card in [Self.folded, VCardSamples.apple, VCardSamples.outlook, VCardReaderTests.fourZero] {
            #expect(try VCardCardText.edited(Self.bytes(card), []) == Self.bytes(card))
        }
    }

    @Test("setting one property changes only its line; its group and parameters stay; the rest byte for byte")
    func setOne() throws {
        let edited = try Self.text(VCardCardText.edited(Self.bytes(Self.folded), [.set(name: "title", components: [["Director, R&D; Lasers"]])]))
        #expect(Self.changedLines(Self.folded, edited) == (["TITLE:Engineer\r"], ["TITLE:Director\\, R&D\\; Lasers\r"]))
        let reread = try #require(try FieldReading.vCards(edited).records.first)
        #expect(reread.text(of: "TITLE") == "Director, R&D; Lasers")
        let note = try Self.text(VCardCardText.edited(Self.bytes(Self.folded), [.set(name: "NOTE", components: [[String(repeating: "é", count: 60)]])]))
        let noteLines = Self.changedLines(Self.folded, note).added
        #expect(noteLines.count == 2 && noteLines.allSatisfy { $0.utf8.count <= 76 }, "folded at 75 octets (and a CR)")
        #expect(try FieldReading.vCards(note).records.first?.text(of: "NOTE") == String(repeating: "é", count: 60), "never inside a UTF-8 sequence")
    }

    @Test("the preferred EMAIL moves: only the two lines whose mark changes are written, in the version's way")
    func prefer() throws {
        let four = try Self.text(VCardCardText.edited(Self.bytes(Self.folded), [.prefer(name: "EMAIL", value: "ann@acme.example")]))
        #expect(Self.changedLines(Self.folded, four) == (["item1.EMAIL;TYPE=work:ann@acme.example\r", "EMAIL;TYPE=home;PREF=1:ann@home.example\r"],
                                                        ["item1.EMAIL;TYPE=work;PREF=1:ann@acme.example\r", "EMAIL;TYPE=home:ann@home.example\r"]))
        let apple = try Self.text(VCardCardText.edited(Self.bytes(VCardSamples.apple), [.prefer(name: "EMAIL", value: "jappleseed@me.example")]))
        #expect(Self.changedLines(VCardSamples.apple, apple).added == ["item1.EMAIL;type=INTERNET:johnny@apple.example\r",
                                                                      "item2.EMAIL;type=INTERNET;type=pref:jappleseed@me.example\r"])
        let outlook = try Self.text(VCardCardText.edited(Self.bytes(VCardSamples.outlook), [.prefer(name: "TEL", value: "+49 170 1234567")]))
        #expect(Self.changedLines(VCardSamples.outlook, outlook).added == ["TEL;CELL;PREF:+49 170 1234567\r"])
        #expect(try VCardCardText.edited(Self.bytes(Self.folded), [.prefer(name: "EMAIL", value: "ann@home.example")]) == Self.bytes(Self.folded),
                "already preferred: nothing written")
    }

    @Test("N and FN change together; adding and removing a value; a removed grouped value takes its label along")
    func nameAddRemove() throws {
        let named = try Self.text(VCardCardText.edited(Self.bytes(VCardReaderTests.fourZero), [.name(family: "Smith", given: "Jo", formatted: "Jo Smith")]))
        #expect(Self.changedLines(VCardReaderTests.fourZero, named) == (["FN:Ann Q. Public\r", "N:Public;Ann;Quinlan,Q.;Dr.;\r"],
                                                                       ["FN:Jo Smith\r", "N:Smith;Jo;Quinlan,Q.;Dr.;\r"]))
        let added = try Self.text(VCardCardText.edited(Self.bytes(Self.folded), [.add(name: "EMAIL", parameters: ["TYPE=other"], components: [["x@y.example"]])]))
        #expect(Self.changedLines(Self.folded, added) == ([], ["EMAIL;TYPE=other:x@y.example\r"]))
        #expect(added.range(of: "EMAIL;TYPE=home;PREF=1:ann@home.example\r\nEMAIL;TYPE=other") != nil, "after the last EMAIL")
        let removed = try Self.text(VCardCardText.edited(Self.bytes(Self.folded), [.remove(name: "EMAIL", value: "ann@acme.example")]))
        #expect(Self.changedLines(Self.folded, removed) == (["item1.EMAIL;TYPE=work:ann@acme.example\r", "item1.X-ABLabel:_$!<Work>!$_\r"], []))
    }

    @Test("a 2.1 card is written back in 2.1: quoted-printable in UTF-8 where the value needs it, soft breaks at 76")
    func twoOne() throws {
        let long = "Grüße aus Köln, " + String(repeating: "und noch mehr Text ", count: 5)
        let edited = try Self.text(VCardCardText.edited(Self.bytes(VCardSamples.outlook), [.set(name: "NOTE", components: [[long + "\nZweite Zeile"]])]))
        let (removed, added) = Self.changedLines(VCardSamples.outlook, edited)
        #expect(removed.count == 2)
        #expect(added.first?.hasPrefix("NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:Gr=C3=BC=C3=9Fe aus") == true)
        #expect(added.allSatisfy { $0.utf8.count <= 77 })
        let card = try #require(try FieldReading.vCards(edited).records.first)
        #expect(card.text(of: "NOTE") == long + "\r\nZweite Zeile")
        #expect(card.text(of: "VERSION") == "2.1")
        #expect(card.fields.named("N").first?.components == [["Müller"], ["Jürgen"]], "the other lines untouched")
    }

    @Test("an LDIF entry: no edit is the same bytes; a set rewrites that attribute's lines, base64 where RFC 2849 wants it, folded at 76")
    func ldif() throws {
        let entry = "dn: uid=ann,dc=x\ncn: Ann\ntitle: Engineer\n# kept\nmail: a@x\nmail: b@x\ndescription: long\n  folded value\n"
        #expect(try LDIFRecordText.edited(Self.bytes(entry), []) == Self.bytes(entry))
        let title = try Self.text(LDIFRecordText.edited(Self.bytes(entry), [.set(attribute: "title", values: ["Directrice générale"])]))
        #expect(Self.changedLines(entry, title) == (["title: Engineer"], ["title:: RGlyZWN0cmljZSBnw6luw6lyYWxl"]))
        let mail = try Self.text(LDIFRecordText.edited(Self.bytes(entry), [.set(attribute: "mail", values: [" lead@x"]), .add(attribute: "cn", value: "Annie")]))
        #expect(Self.changedLines(entry, mail) == (["mail: a@x", "mail: b@x"], ["cn: Annie", "mail:: IGxlYWRAeA=="]))
        let long = try Self.text(LDIFRecordText.edited(Self.bytes(entry), [.set(attribute: "description", values: [String(repeating: "word ", count: 40) + "end"])]))
        #expect(Self.changedLines(entry, long).added.allSatisfy { $0.utf8.count <= 76 })
        let reread = try #require(try FieldReading.ldif(long).records.first)
        #expect(reread.text(of: "description") == String(repeating: "word ", count: 40) + "end")
        #expect(throws: EditFailure.self) { try LDIFRecordText.edited(Self.bytes(entry), [.set(attribute: "dn", values: ["x"])]) }
    }
}
