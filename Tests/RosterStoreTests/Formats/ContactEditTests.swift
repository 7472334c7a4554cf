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
        #expect(throws: EditFailure(.failed, "people: a vCard record has no field for fruit; nothing written")) {
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
        #expect(named == entries.replacingOccurrences(of: "description: keep\n", with: "description: keep\ngivenName: Augusta\n"))
    }
}
