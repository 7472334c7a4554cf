import Foundation
import Testing
import TestTraits

/// People's own contact lists in the real binary: a vCard file, a folder of
/// them as khard keeps it, an LDIF export, and the CSV exports of the
/// contact programs, opened as a JSON or CSV file is.
@Suite("End to end: contact lists", .serialized, .blockingWork)
struct ContactFormatsEndToEndTests {
    let binary = TmuxSession.shellQuoted(rosterBinary)

    static let ann = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann-1\r\nN:Bell;Ann;;;\r\nFN:Ann Bell\r\nORG:Acme Corp;Sales\r\n"
        + "EMAIL;TYPE=home:ann@home.test\r\nEMAIL;TYPE=work,pref:ann@acme.test\r\nTEL;TYPE=cell:+1 555 0101\r\n"
        + "ADR;TYPE=work:;;1 Main St;Springfield;IL;62701;USA\r\nEND:VCARD\r\n"
    static let cy = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Cy Dale\r\nORG:Globex\r\nEMAIL:cy@globex.test\r\nEND:VCARD\r\n"
    static let dee = "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Eve;Dee\r\nORG:Acme Corp\r\nTEL;WORK:555 0102\r\nEND:VCARD\r\n"
    static let nameless = "BEGIN:VCARD\r\nVERSION:4.0\r\nNOTE:no name here\r\nEND:VCARD\r\n"

    /// A folder of its own holding `files`; removed by the caller.
    static func folder(_ files: [String: String]) throws -> String {
        let folder = NSTemporaryDirectory() + "roster-e2e-contacts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/cards", withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        return folder
    }

    @Test("a .vcf file: people grouped by ORG, sorted by N, searched; the detail screen; a card without a name skipped with its line")
    func vCardFile() throws {
        let folder = try Self.folder(["contacts.vcf": Self.cy + Self.nameless + Self.ann + Self.dee])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state contacts.vcf")
        #expect(session.waitFor(text: "1/3"))
        let lines = session.lines()
        #expect(lines[0].contains("contacts.vcf") && lines[0].contains("3 people · 2 companies · 1 skipped"))
        #expect(lines[2].hasPrefix("Acme Corp (2)") && lines[3].contains("Ann Bell") && lines[3].contains("ann@acme.test"))
        #expect(lines[4].contains("Dee Eve") && lines[5].hasPrefix("Globex (1)") && lines[6].contains("Cy Dale"), "\(session.screen())")
        // No card has an age, an activity or a balance: no column of blanks, the phone in their room.
        #expect(lines[1].contains("Phone") && !lines[1].contains("Age") && !lines[1].contains("Balance"), "\(lines[1])")
        session.send("!")
        #expect(session.waitFor(text: "record 2 (line 7): no name (needs FN or N)"))
        session.send("Escape")
        #expect(session.waitFor(text: "1/3"))
        session.send("Enter")
        #expect(session.waitFor(text: "Roster — Ann Bell"))
        #expect(session.waitFor(text: "ann-1"))  // the last line of the screen drawn
        let detail = session.screen()
        #expect(detail.contains("1 Main St, Springfield, IL, 62701") && detail.contains("+1 555 0101") && detail.contains("ann-1"))
        #expect(!detail.contains("Balance") && !detail.contains("Eye color") && !detail.contains("GUID"), "no line of — for what no card has")
        session.send("Escape")
        #expect(session.waitFor(text: "1/3"))
        session.send("/")
        session.type("globex")
        session.send("Enter")
        #expect(session.waitFor("the search found Cy alone") { $0.contains("Cy Dale") && !$0.contains("Ann Bell") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a folder of .vcf files (khard, vdirsyncer) is one list; a bad card is skipped naming its file; 60x15 too")
    func cardFolder() throws {
        let folder = try Self.folder(["cards/ann.vcf": Self.ann, "cards/cy.vcf": Self.cy, "cards/zed.vcf": Self.nameless,
                                      "cards/notes.txt": "not a card"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state cards/", rows: 15, columns: 60)
        #expect(session.waitFor(text: "1/2"))
        let lines = session.lines()
        #expect(lines[0].contains("cards/") && lines[0].contains("2 people"))
        #expect(lines[2].hasPrefix("Acme Corp (1)") && lines[4].hasPrefix("Globex (1)"), "\(session.screen())")
        session.send("!")
        #expect(session.waitFor(text: "zed.vcf: no name (needs FN or N)"))
        session.send("Escape")
        session.send("E")
        #expect(session.waitFor(text: "a folder of vCards is read-only"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("an LDIF export (slapcat's shape): entries grouped by o, named by givenName and sn, cn split; no one but people listed")
    func ldifFile() throws {
        let ldif = """
            dn: dc=example,dc=com
            objectClass: dcObject
            objectClass: organization
            o: Example
            dc: example

            dn: ou=people,dc=example,dc=com
            objectClass: organizationalUnit
            ou: people

            dn: uid=ada,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            cn: Ada King
            givenName: Ada
            sn: Lovelace
            mail: ada@engines.test
            o: Engines
            l: London

            dn: uid=bob,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            cn:: Qm9iIE3DvGxsZXI=
            sn: Müller
            o: Engines

            """
        let folder = try Self.folder(["export.ldif": ldif])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state export.ldif")
        #expect(session.waitFor(text: "1/2"))
        let lines = session.lines()
        #expect(lines[0].contains("2 people · 1 company") && !lines[0].contains("skipped"), "\(session.screen())")
        #expect(lines[2].hasPrefix("Engines (2)") && lines[3].contains("Ada Lovelace") && lines[4].contains("Bob Müller"))
        session.send("Enter")
        #expect(session.waitFor(text: "uid=ada,ou=people,dc=example,dc=com"))
        #expect(session.waitFor(text: ", London"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a Google Contacts CSV: grouped by Organization 1 - Name, E-mail 1 - Value shown, searched by it; a LinkedIn export's notes passed over")
    func googleAndLinkedIn() throws {
        let google = "Name,Given Name,Family Name,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,"
            + "Organization 1 - Type,Organization 1 - Name,Organization 1 - Title\r\n"
            + "Ada Lovelace,Ada,Lovelace,* Work,ada@engines.test,Mobile,+44 20 7946 0000,,Analytical Engines,Countess\r\n"
            + "Grace Hopper,Grace,Hopper,* Work,grace@navy.test,,,,US Navy,Rear Admiral\r\n"
            + "Alan Turing,Alan,Turing,Home,alan@home.test,,,,Analytical Engines,\r\n"
        let linkedIn = "Notes:\n\"When exporting your connection data, some email addresses may be missing.\"\n\n"
            + "First Name,Last Name,URL,Email Address,Company,Position,Connected On\n"
            + "Ada,Lovelace,https://www.linkedin.com/in/ada,ada@engines.test,Analytical Engines,Countess,07 Dec 2026\n"
        let folder = try Self.folder(["google.csv": google, "Connections.csv": linkedIn])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state google.csv")
        #expect(session.waitFor(text: "1/3"))
        let lines = session.lines()
        #expect(lines[0].contains("3 people · 2 companies"), "\(session.screen())")
        #expect(lines[2].hasPrefix("Analytical Engines (2)") && lines[3].contains("Ada Lovelace") && lines[3].contains("ada@engines.test"))
        #expect(lines[4].contains("Alan Turing") && lines[5].hasPrefix("US Navy (1)") && lines[6].contains("grace@navy.test"))
        session.send("/")
        session.type("navy")
        session.send("Enter")
        #expect(session.waitFor("the search found Grace alone") { $0.contains("Grace Hopper") && !$0.contains("Ada Lovelace") })
        // No _id column: the edit keys say so at once, in one line, before any form is filled in vain.
        for key in ["E", "a", "D"] {
            session.send(key)
            #expect(session.waitFor(text: "read-only: google.csv has no _id column to find people again"), "\(key): \(session.screen())")
            #expect(!session.screen().contains("Save"), "\(key) opened a form")
            session.send("Escape")
        }
        session.send("q")
        #expect(session.exitStatus() == 0)
        let listed = try runRoster(["--list", folder + "/Connections.csv"])
        #expect(listed.status == 0 && listed.error == "")
        #expect(listed.output == "Analytical Engines (1 person)\n  Ada Lovelace\tada@engines.test\t\n")
    }

    @Test("vCards and LDIF on standard input are told from their first line; a folder's skipped card is named on standard error")
    func standardInputAndList() throws {
        let cards = try runRoster(["--list", "-"], input: Self.cy + Self.nameless + Self.ann)
        #expect(cards.status == 0)
        #expect(cards.output == "Acme Corp (1 person)\n  Ann Bell\tann@acme.test\t\nGlobex (1 person)\n  Cy Dale\tcy@globex.test\t\n")
        #expect(cards.error == "roster: stdin: 1 of 3 records skipped\nroster: stdin: record 2 (line 7): no name (needs FN or N)\n")
        let ldif = try runRoster(["--list", "-"], input: "# extended LDIF\n#\n\ndn: uid=x,dc=example\ncn: Xavier Young\nmail: x@y.test\n")
        #expect(ldif.status == 0 && ldif.output == "No company (1 person)\n  Xavier Young\tx@y.test\t\n")
        let folder = try Self.folder(["cards/ann.vcf": Self.ann, "cards/zed.vcf": Self.nameless])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listed = try runRoster(["--list", "--strict", folder + "/cards"])
        #expect(listed.status == 1)
        #expect(listed.output == "Acme Corp (1 person)\n  Ann Bell\tann@acme.test\t\n")
        #expect(listed.error.hasSuffix("record 2 (line 1): zed.vcf: no name (needs FN or N)\n"))
    }

    @Test("roster update of a vCard file rewrites the one line, atomically: the other bytes and the file's permissions kept; a conflict-free re-read shows it")
    func updateInPlace() throws {
        let folder = try Self.folder(["contacts.vcf": Self.cy + Self.ann + Self.dee])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/contacts.vcf"
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let updated = try runRoster(["update", path, "ann-1", "phone=+1 555 0199", "company=Initech"])
        #expect(updated.status == 0, "\(updated.error)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == (Self.cy + Self.ann + Self.dee).replacingOccurrences(of: "ORG:Acme Corp;Sales", with: "ORG:Initech;Sales")
            .replacingOccurrences(of: "TEL;TYPE=cell:+1 555 0101", with: "TEL;TYPE=cell:+1 555 0199"))
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        let listed = try runRoster(["--list", path])
        #expect(listed.output.contains("Initech (1 person)\n  Ann Bell"))
        let refused = try runRoster(["update", path, "ann-1", "fruit=kiwi"])
        #expect(refused.status != 0 && refused.error.contains("a vCard record has no field for favorite fruit; nothing written"))
    }
}
