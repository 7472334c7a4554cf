import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// vCards and LDIF entries loaded as people: which field fills which of a
/// person's, what is skipped and why, and how the format is told.
@Suite("People from vCard and LDIF")
struct PeopleFromFieldsTests {
    static func load(_ text: String, name: String) throws -> LoadedDirectory {
        try PeopleLoader().load(bytes: Array(text.utf8), sourceName: name)
    }

    @Test("a vCard's N, ORG, preferred EMAIL and TEL, preferred ADR and UID fill a person's fields")
    func vCardMapping() throws {
        let text = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            UID:urn:uuid:ada-1\r
            FN:Countess Ada Lovelace\r
            N:Lovelace;Ada;Augusta;;\r
            ORG:Analytical Engines Ltd;Research\r
            EMAIL;TYPE=home:ada@home.test\r
            EMAIL;TYPE=work;PREF=1:ada@engines.test\r
            TEL;VALUE=uri;TYPE=cell:tel:+44-20-7946-0000\r
            ADR;TYPE=home:;;12 Home Row;Marylebone;London;NW1;UK\r
            ADR;TYPE=work;PREF=1:;;1 Engine St\\, Unit 2;Cambridge;Cambs;CB1;UK\r
            PHOTO;ENCODING=b;TYPE=JPEG:QUJD\r
            END:VCARD\r

            """
        let loaded = try Self.load(text, name: "c.vcf")
        #expect(loaded.skipped.isEmpty)
        let ada = loaded.store[0]
        #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace")
        #expect(ada.company == "Analytical Engines Ltd")
        #expect(ada.email == "ada@engines.test")
        #expect(ada.phone == "+44-20-7946-0000")
        #expect(ada.address == "1 Engine St, Unit 2, Cambridge, Cambs, CB1")
        #expect(AddressPart.text(1, of: ada.address) == "Cambridge")
        #expect(ada.id == "urn:uuid:ada-1")
        #expect(!ada.has(.favoriteFruit) && !ada.has(.balance))
    }

    @Test("without N the FN is split (its last word the last name); a 2.1 card's quoted-printable name and bare PREF are read")
    func vCardWholeNameAnd21() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Grace Brewster Hopper
            EMAIL:first@navy.test
            EMAIL:second@navy.test
            END:VCARD
            BEGIN:VCARD
            VERSION:2.1
            N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen
            TEL;WORK:111
            TEL;CELL;PREF:222
            ADR;WORK:;;;Berlin
            END:VCARD

            """
        let loaded = try Self.load(text, name: "c.vcf")
        #expect(loaded.store.count == 2)
        let grace = loaded.store[0], jurgen = loaded.store[1]
        #expect(grace.firstName == "Grace Brewster" && grace.lastName == "Hopper" && grace.email == "first@navy.test")
        #expect(jurgen.firstName == "Jürgen" && jurgen.lastName == "Müller" && jurgen.phone == "222")
        #expect(jurgen.address == ", Berlin" && AddressPart.text(1, of: jurgen.address) == "Berlin")
    }

    @Test("a card without a name and one without its END are skipped with their lines; a company card is no person; the rest are kept")
    func vCardSkipped() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            EMAIL:nobody@x.test
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:Lost End
            BEGIN:VCARD
            VERSION:4.0
            KIND:org
            FN:Acme Inc
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:Kept Person
            END:VCARD

            """
        let loaded = try Self.load(text, name: "c.vcf")
        #expect(loaded.store.count == 1)
        #expect(loaded.store[0].fullName == "Kept Person")
        #expect(loaded.skipped.map(\.line) == [1, 5])
        #expect(loaded.skipped[0].reason == "no name (needs FN or N)")
        #expect(loaded.skipped[1].reason.contains("END:VCARD"))
    }

    @Test("an LDIF entry: givenName and sn, else cn split; mail, telephoneNumber (else mobile), o, l, st, postalCode; dn the id")
    func ldifMapping() throws {
        let text = """
            version: 1

            dn: dc=example,dc=com
            objectClass: dcObject
            objectClass: organization
            o: Example

            dn: uid=ada,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            cn: Ada King
            givenName: Ada
            sn: Lovelace
            mail: ada@example.com
            mail: ada2@example.com
            mobile: 222
            telephoneNumber: 111
            o: Engines
            street: 1 Engine St
            l: London
            st: Greater London
            postalCode: NW1

            dn: uid=bob,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            cn:: Qm9iIE3DvGxsZXI=
            l: Paris

            dn: uid=rob,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            cn: Rob van Dijk
            sn: van Dijk

            dn: uid=nameless,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            mail: x@y.z

            """
        let loaded = try Self.load(text, name: "x.ldif")
        #expect(loaded.store.count == 3)
        let ada = loaded.store[0], bob = loaded.store[1], rob = loaded.store[2]
        #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace" && ada.email == "ada@example.com" && ada.phone == "111")
        #expect(ada.company == "Engines" && ada.address == "1 Engine St, London, Greater London, NW1")
        #expect(ada.id == "uid=ada,ou=people,dc=example,dc=com")
        #expect(bob.firstName == "Bob" && bob.lastName == "Müller" && AddressPart.text(1, of: bob.address) == "Paris")
        #expect(rob.firstName == "Rob" && rob.lastName == "van Dijk")
        #expect(loaded.skipped == [SkippedRecord(number: 5, line: 33, reason: "no name (needs cn, givenName or sn)")])
    }

    @Test("the format is told by extension, else by the first line: BEGIN:VCARD, dn:, version: 1, # comments before a dn:")
    func sniffing() throws {
        #expect(InputFormat(extensionOf: "Contacts.VCF") == .vCard)
        #expect(InputFormat(extensionOf: "x.vcard") == .vCard)
        #expect(InputFormat(extensionOf: "export.ldif") == .ldif)
        #expect(InputFormat(sniffing: Array("\u{FEFF}begin:vcard\r\nFN:x\r\n".utf8)) == .vCard)
        #expect(InputFormat(sniffing: Array("dn: cn=x\ncn: x\n".utf8)) == .ldif)
        #expect(InputFormat(sniffing: Array("version: 1\n\ndn: cn=x\n".utf8)) == .ldif)
        #expect(InputFormat(sniffing: Array("# extended LDIF\n#\n# LDAPv3\n\ndn: cn=x\n".utf8)) == .ldif)
        #expect(InputFormat(sniffing: Array("# just a comment\nfirst_name\n".utf8)) == .json)
        #expect(InputFormat(sniffing: Array("dnumber,first_name\n".utf8)) == .csv)
        #expect(InputFormat(option: "vcf") == .vCard && InputFormat(option: "LDIF") == .ldif)
        let loaded = try Self.load("BEGIN:VCARD\nVERSION:3.0\nFN:Sniffed Card\nEND:VCARD\n", name: "contacts")
        #expect(loaded.store[0].lastName == "Card")
    }

    @Test("a folder of .vcf files is one directory; a skipped card names its file; a folder with none is a directory, said so")
    func folder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("people-cards-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("BEGIN:VCARD\nVERSION:3.0\nN:Bell;Ann;;;\nORG:Acme\nEND:VCARD\n".utf8).write(to: folder.appendingPathComponent("a.vcf"))
        try Data("BEGIN:VCARD\nVERSION:3.0\nNOTE:no name\nEND:VCARD\n".utf8).write(to: folder.appendingPathComponent("b.vcf"))
        try Data("BEGIN:VCARD\nVERSION:4.0\nFN:Cy Dale\nEND:VCARD\n".utf8).write(to: folder.appendingPathComponent("c.vcf"))
        let loaded = try await PeopleLoader().load(path: folder.path, sourceName: "cards/")
        #expect(loaded.store.count == 2)
        #expect(loaded.store[0].company == "Acme" && loaded.store[1].lastName == "Dale")
        #expect(loaded.skipped == [SkippedRecord(number: 2, line: 1, reason: "b.vcf: no name (needs FN or N)")])
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        await #expect(throws: LoadError.isDirectory(file: "empty")) {
            try await PeopleLoader().load(path: empty.path, sourceName: "empty")
        }
    }

    @Test("a file of no cards at all is one line naming it and what was expected")
    func nothingRead() throws {
        #expect(throws: LoadError.invalid(file: "c.vcf", line: nil, column: nil,
                                          message: "nothing in it reads as vCards (a card starts with BEGIN:VCARD)")) {
            try Self.load("hello\n", name: "c.vcf")
        }
    }
}
