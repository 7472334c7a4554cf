import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// The CSV exports of contact programs, read with their own headers (as
/// each program documents and writes them), and edited in their own columns.
@Suite("Contact programs' CSV exports")
struct ContactCSVTests {
    static func load(_ text: String) throws -> LoadedDirectory {
        try PeopleLoader().load(bytes: Array(text.utf8), sourceName: "contacts.csv")
    }

    @Test("Google Contacts' older export: Given Name, Family Name, E-mail 1 - Value, Phone 1 - Value, Organization 1 - Name")
    func googleOlder() throws {
        let text = "Name,Given Name,Additional Name,Family Name,Nickname,E-mail 1 - Type,E-mail 1 - Value,E-mail 2 - Type,"
            + "E-mail 2 - Value,Phone 1 - Type,Phone 1 - Value,Address 1 - Type,Address 1 - Formatted,Address 1 - Street,"
            + "Address 1 - City,Address 1 - Region,Address 1 - Postal Code,Organization 1 - Type,Organization 1 - Name,"
            + "Organization 1 - Title\r\n"
            + "Ada Lovelace,Ada,,Lovelace,,* Work,ada@engines.test,Home,ada@home.test,Mobile,+44 20 7946 0000,Work,"
            + "\"1 Engine St\nLondon\",1 Engine St,London,Greater London,NW1,,Analytical Engines,Countess\r\n"
            + "Grace Hopper,,,,,,,Home,grace@home.test,,,,,,,,,,,\r\n"
        let loaded = try Self.load(text)
        #expect(loaded.skipped.isEmpty)
        let ada = loaded.store[0], grace = loaded.store[1]
        #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace" && ada.company == "Analytical Engines")
        #expect(ada.email == "ada@engines.test" && ada.phone == "+44 20 7946 0000")
        #expect(ada.address == "1 Engine St, London, Greater London, NW1")
        #expect(grace.firstName == "Grace" && grace.lastName == "Hopper" && grace.email == "grace@home.test" && grace.company == "")
    }

    @Test("Google Contacts' newer export: First Name, Last Name, E-mail 1 - Value, Organization Name")
    func googleNewer() throws {
        let text = "First Name,Middle Name,Last Name,Phonetic First Name,Organization Name,Organization Title,E-mail 1 - Label,"
            + "E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value\n"
            + "Ada,,Lovelace,,Analytical Engines,Countess,* Work,ada@engines.test,Mobile,555 0100\n"
        let ada = try Self.load(text).store[0]
        #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace" && ada.company == "Analytical Engines")
        #expect(ada.email == "ada@engines.test" && ada.phone == "555 0100")
    }

    @Test("Outlook: its byte order mark, every cell quoted, E-mail Address, Business Phone before Mobile Phone, Business City; Title is no job")
    func outlook() throws {
        let text = "\u{FEFF}\"Title\",\"First Name\",\"Middle Name\",\"Last Name\",\"Suffix\",\"Company\",\"Department\",\"Job Title\","
            + "\"Business Street\",\"Business City\",\"Business State\",\"Business Postal Code\",\"Business Phone\",\"Mobile Phone\","
            + "\"E-mail Address\",\"E-mail 2 Address\"\r\n"
            + "\"Dr.\",\"Grace\",\"\",\"Hopper\",\"\",\"US Navy\",\"Computing\",\"Rear Admiral\",\"1 Navy Way\",\"Arlington\",\"VA\","
            + "\"22202\",\"555 0101\",\"555 0102\",\"grace@navy.test\",\"grace@home.test\"\r\n"
            + "\"\",\"Cy\",\"\",\"Dale\",\"\",\"\",\"\",\"\",\"\",\"Springfield\",\"\",\"\",\"\",\"555 0199\",\"\",\"cy@home.test\"\r\n"
        let loaded = try Self.load(text)
        #expect(loaded.skipped.isEmpty)
        let grace = loaded.store[0], cy = loaded.store[1]
        #expect(grace.firstName == "Grace" && grace.lastName == "Hopper" && grace.company == "US Navy")
        #expect(grace.email == "grace@navy.test" && grace.phone == "555 0101")
        #expect(grace.address == "1 Navy Way, Arlington, VA, 22202")
        #expect(cy.phone == "555 0199" && cy.email == "cy@home.test" && AddressPart.text(1, of: cy.address) == "Springfield")
    }

    @Test("LinkedIn connections: the notes before the header are passed over, line numbers still the file's")
    func linkedIn() throws {
        let text = "Notes:\n"
            + "\"When exporting your connection data, you may notice that some of the email addresses are missing. "
            + "You will only see email addresses for connections who have allowed their connections to see or download their email address.\"\n"
            + "\n"
            + "First Name,Last Name,URL,Email Address,Company,Position,Connected On\n"
            + "Ada,Lovelace,https://www.linkedin.com/in/ada,,Analytical Engines,Countess,07 Dec 2026\n"
            + "Grace,Hopper,https://www.linkedin.com/in/grace,grace@navy.test,US Navy,Rear Admiral,01 Jan 2026\n"
            + ",,https://www.linkedin.com/in/nobody,,,,01 Jan 2026\n"
        let loaded = try Self.load(text)
        #expect(loaded.store.count == 2)
        #expect(loaded.store[0].company == "Analytical Engines" && loaded.store[1].email == "grace@navy.test")
        #expect(loaded.skipped == [SkippedRecord(number: 3, line: 7, reason: "no name (needs first_name or last_name)")])
    }

    @Test("Thunderbird and other tools: Display Name only when there is no first or last name; first, last, org, Primary Email")
    func otherTools() throws {
        let thunderbird = "First Name,Last Name,Display Name,Nickname,Primary Email,Secondary Email,Work Phone\n"
            + "Ada,Lovelace,Countess of Lovelace,,ada@x.test,,1\n"
            + ",,Grace Hopper,,grace@x.test,g2@x.test,2\n"
        let loaded = try Self.load(thunderbird)
        #expect(loaded.store[0].fullName == "Ada Lovelace" && loaded.store[1].fullName == "Grace Hopper")
        #expect(loaded.store[1].email == "grace@x.test" && loaded.store[1].phone == "2")
        let plain = try Self.load("first,last,org,email,title\nAda,Lovelace,Engines,ada@x.test,Countess\n").store[0]
        #expect(plain.firstName == "Ada" && plain.lastName == "Lovelace" && plain.company == "Engines")
    }

    @Test("a header naming no name in any known way is still one line naming what it read; a note alone is no header")
    func noNameColumn() {
        #expect(throws: LoadError.invalid(file: "contacts.csv", line: 1, column: 1,
                                          message: "the CSV header names no first_name, last_name or name column (it reads 'email,title')")) {
            try Self.load("email,title\na@x.test,boss\n")
        }
        #expect(PersonColumn.isPreamble(["Notes:"]) && !PersonColumn.isPreamble(["email"]) && !PersonColumn.isPreamble(["First Name"]))
    }

    @Test("an edit writes the column the value was read from first (E-mail 1 - Value), and no other; the notes before a header stay")
    func editInOwnColumns() throws {
        let google = "id,Given Name,Family Name,E-mail 1 - Value,E-mail 2 - Value\np1,Ada,Lovelace,ada@old.test,ada@home.test\n"
        let edited = try RecordFileTests.applying(.update(id: "p1", changes: [RecordFileTests.change("email=ada@new.test")]), to: google, .csv)
        #expect(edited == "id,Given Name,Family Name,E-mail 1 - Value,E-mail 2 - Value\np1,Ada,Lovelace,ada@new.test,ada@home.test\n")
        let noted = "Notes:\n\nid,First Name,Last Name,Company\np1,Ada,Lovelace,Engines\n"
        let renamed = try RecordFileTests.applying(.update(id: "p1", changes: [RecordFileTests.change("company=ACME")]), to: noted, .csv)
        #expect(renamed == "Notes:\n\nid,First Name,Last Name,Company\np1,Ada,Lovelace,ACME\n")
    }

    @Test("whether a CSV header names the _id column edits find people by: a contact program's export does not")
    func headerNamesID() {
        func names(_ text: String) -> Bool? { Array(text.utf8).withUnsafeBufferPointer { RecordFile.csvHeaderNamesID($0) } }
        #expect(names("Name,Given Name,Family Name,E-mail 1 - Value\r\nAda Lovelace,Ada,Lovelace,a@x\r\n") == false)
        #expect(names("Notes:\n\"Some emails may be missing.\"\n\nFirst Name,Last Name,Email Address\nAda,L,a@x\n") == false)
        #expect(names("_id,first_name,last_name\n1,Ada,L\n") == true)
        #expect(names("first_name,last_name,id\nAda,L,1\n") == true)
        #expect(names("\"first_name,last") == nil)
    }
}
