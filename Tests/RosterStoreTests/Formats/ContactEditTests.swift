import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// A person of a vCard or LDIF file edited as a record: the line the value
/// was read from is written again, every other byte stays.
@Suite("Editing people in vCard and LDIF files")
struct ContactEditTests {
    static func updated(_ text: String, _ format: InputFormat, id: String, _ assignments: String...) throws -> String {
        try RecordFileTests.applying(.update(id: id, changes: assignments.map(RecordFileTests.change)), to: text, format)
    }

    static let cards = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cy-1\r\nFN:Cy Dale\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann-1\r\nN:Bell;Ann;Q;;\r\nFN:Ann Bell\r\nORG:Acme;Sales\r\n"
        + "EMAIL;TYPE=home:ann@home.test\r\nitem1.EMAIL;TYPE=work,pref:ann@acme.test\r\nitem1.X-ABLabel:Work\r\n"
        + "TEL;TYPE=cell:555 0101\r\nNOTE:keep me\\, please\r\nEND:VCARD\r\n"

    @Test("a card's preferred email, company and name change in their own lines; its other lines and the other card stay")
    func vCardUpdate() throws {
        let edited = try Self.updated(Self.cards, .vCard, id: "ann-1", "company=Globex", "first=Anne")
        #expect(edited == Self.cards.replacingOccurrences(of: "N:Bell;Ann;Q;;\r\nFN:Ann Bell\r\nORG:Acme;Sales",
                                                          with: "N:Bell;Anne;Q;;\r\nFN:Anne Bell\r\nORG:Globex;Sales"))
        let first = try Self.updated(Self.cards, .vCard, id: "ann-1", "phone=555 0199")
        #expect(first == Self.cards.replacingOccurrences(of: "TEL;TYPE=cell:555 0101", with: "TEL;TYPE=cell:555 0199"))
        let preferred = try Self.updated(Self.cards, .vCard, id: "ann-1", "email=ann@globex.test")
        let loaded = try PeopleLoader().load(bytes: Array(preferred.utf8), sourceName: "c.vcf")
        #expect(loaded.store[1].email == "ann@globex.test")
        #expect(preferred.contains("EMAIL;TYPE=home:ann@home.test\r\n") && !preferred.contains("ann@acme.test"))
        #expect(preferred.contains("NOTE:keep me\\, please\r\n") && preferred.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cy-1\r\nFN:Cy Dale"))
    }

    @Test("a field a card has no place for, an add and a delete are refused in one line; so is a card without its UID")
    func vCardRefusals() {
        #expect(throws: EditFailure(.failed, "people: a vCard record has no field for favorite fruit; nothing written")) {
            try Self.updated(Self.cards, .vCard, id: "ann-1", "fruit=kiwi")
        }
        #expect(throws: RecordFile.onlyUpdates(.vCard, sourceName: "people")) {
            try RecordFileTests.applying(.delete(ids: ["ann-1"]), to: Self.cards, .vCard)
        }
        #expect(throws: RecordFile.onlyUpdates(.vCard, sourceName: "people")) {
            try RecordFileTests.applying(.add(id: "new", changes: [RecordFileTests.change("last=New")]), to: Self.cards, .vCard)
        }
        #expect(throws: EditFailure.self) { try Self.updated(Self.cards, .vCard, id: "nobody", "first=X") }
    }

    @Test("an LDIF entry: mail's shown value replaced (the others kept), givenName and sn set, l for the city; the dn refused")
    func ldifUpdate() throws {
        let entries = "dn: uid=ada,ou=people,dc=example\ncn: Ada King\nsn: Lovelace\nmail: ada@one.test\nmail: ada@two.test\n"
            + "l: London\ndescription: keep\n\ndn: uid=bob,ou=people,dc=example\ncn: Bob\nsn: Stone\n"
        let edited = try Self.updated(entries, .ldif, id: "uid=ada,ou=people,dc=example", "email=ada@new.test", "address=, Paris")
        #expect(edited == entries.replacingOccurrences(of: "mail: ada@one.test", with: "mail: ada@new.test")
            .replacingOccurrences(of: "l: London", with: "l: Paris"))
        let named = try Self.updated(entries, .ldif, id: "uid=ada,ou=people,dc=example", "first=Augusta")
        let ada = try PeopleLoader().load(bytes: Array(named.utf8), sourceName: "x.ldif").store[0]
        #expect(ada.firstName == "Augusta" && ada.lastName == "Lovelace")
        #expect(named == entries.replacingOccurrences(of: "description: keep\n", with: "description: keep\ngivenName: Augusta\n")
            .replacingOccurrences(of: "cn: Ada King", with: "cn: Augusta Lovelace"))
    }

    static let twoLineStreets = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u1\r\nN:Jobs;Steve;;;\r\nFN:Steve Jobs\r\n"
        + "item1.ADR;type=HOME:;;1 Infinite Loop\\nBuilding 3;Cupertino;CA;95014;USA\r\nitem1.X-ABADR:us\r\nEND:VCARD\r\n"
        + "BEGIN:VCARD\r\nVERSION:2.1\r\nUID:u2\r\nN:Hood;Robin\r\n"
        + "ADR;WORK;ENCODING=QUOTED-PRINTABLE:;;The Mansion=0D=0ASherwood Drive;Nottingham;;NG1;UK\r\nEND:VCARD\r\n"

    @Test("a street of two lines shows them joined by one space, and its ADR is rewritten in place (group, type, country kept)")
    func twoLineStreet() throws {
        let shown = try PeopleLoader().load(bytes: Array(Self.twoLineStreets.utf8), sourceName: "t.vcf").store
        #expect(shown[0].address == "1 Infinite Loop Building 3, Cupertino, CA, 95014")
        #expect(shown[1].address == "The Mansion Sherwood Drive, Nottingham, , NG1")
        let apple = try Self.updated(Self.twoLineStreets, .vCard, id: "u1", "address=2 New St, Town, ST, 12345")
        #expect(apple == Self.twoLineStreets.replacingOccurrences(of: ":;;1 Infinite Loop\\nBuilding 3;Cupertino;CA;95014;USA",
                                                                   with: ":;;2 New St;Town;ST;12345;USA"))
        let old = try Self.updated(Self.twoLineStreets, .vCard, id: "u2", "address=2 New St, Town, ST, 12345")
        #expect(old == Self.twoLineStreets.replacingOccurrences(
            of: "ADR;WORK;ENCODING=QUOTED-PRINTABLE:;;The Mansion=0D=0ASherwood Drive;Nottingham;;NG1;UK",
            with: "ADR;WORK:;;2 New St;Town;ST;12345;UK"))
        // Only the city changed: the street keeps its two lines.
        let moved = try Self.updated(Self.twoLineStreets, .vCard, id: "u1", "address=1 Infinite Loop Building 3, Palo Alto, CA, 95014")
        #expect(moved == Self.twoLineStreets.replacingOccurrences(of: ";Cupertino;", with: ";Palo Alto;"))
    }

    /// What editing `text` (`file`) with `change` throws when the person shown read `was` where the file now says `now`.
    static func refusal(_ text: String, _ format: InputFormat, file: String, now: String, was: String,
                        _ change: String) throws -> EditFailure? {
        let shown = try PeopleLoader().load(bytes: Array(text.replacingOccurrences(of: now, with: was).utf8), sourceName: file).store[0]
        let changes = [try RecordFileTests.change(change)]
        do throws(EditFailure) {
            _ = try ContactRecordText.edited(Array(text.utf8), format: format, changes: changes, current: shown, sourceName: file)
            return nil
        } catch { return error }
    }

    @Test("a value whose property is not found again in the card is refused in one line, never added a second time")
    func lostPropertyRefused() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u1\r\nFN:Ann Bell\r\nADR:;;1 Old St;Oldtown;;;\r\nEND:VCARD\r\n"
        #expect(try Self.refusal(card, .vCard, file: "t.vcf", now: "Old St", was: "Gone St", "address=2 New St, Town")
            == EditFailure(.failed, "t.vcf: no ADR of the card reads as the value shown; nothing written"))
        #expect(throws: EditFailure.self) { try VCardCardText.edited(Array(card.utf8), [.rewrite(name: "ADR", line: 4, components: [["x"]])]) }
        let entry = "dn: uid=a,dc=example\ncn: Ann Bell\nmail: ann@one.test\n"
        #expect(try Self.refusal(entry, .ldif, file: "t.ldif", now: "one.test", was: "gone.test", "email=ann@new.test")
            == EditFailure(.failed, "t.ldif: no mail of the entry reads as the value shown; nothing written"))
    }

    @Test("an LDIF rename writes cn and a displayName that was the old full name too (base64 where RFC 2849 wants it); the dn's cn stays")
    func ldifRename() throws {
        let entry = "dn: uid=ada,ou=people,dc=example\ncn: Ada Lovelace\ncn: Countess\ngivenName: Ada\nsn: Lovelace\n"
            + "displayName: Ada Lovelace\nmail: ada@one.test\n"
        let renamed = try Self.updated(entry, .ldif, id: "uid=ada,ou=people,dc=example", "first=Zoë")
        #expect(renamed == entry.replacingOccurrences(of: "cn: Ada Lovelace", with: "cn:: Wm/DqyBMb3ZlbGFjZQ==")
            .replacingOccurrences(of: "givenName: Ada", with: "givenName:: Wm/Dqw==")
            .replacingOccurrences(of: "displayName: Ada Lovelace", with: "displayName:: Wm/DqyBMb3ZlbGFjZQ=="))
        // Another displayName is the user's own choice and stays; the value the dn names the entry by stays, after the new one.
        let named = "dn: cn=Ada Lovelace,ou=people,dc=example\ncn: Ada Lovelace\nsn: Lovelace\ngivenName: Ada\ndisplayName: Ada L.\n"
        let married = try Self.updated(named, .ldif, id: "cn=Ada Lovelace,ou=people,dc=example", "last=King")
        #expect(married == named.replacingOccurrences(of: "cn: Ada Lovelace\nsn: Lovelace", with: "cn: Ada King\ncn: Ada Lovelace\nsn: King"))
    }
}
