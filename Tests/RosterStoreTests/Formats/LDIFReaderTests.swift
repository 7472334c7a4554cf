import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

@Suite("LDIF reader")
struct LDIFReaderTests {
    static let slapcat = """
        version: 1

        # an organisation
        dn: dc=example,dc=com
        objectClass: top
        objectClass: dcObject
        objectClass: organization
        o: Example
        dc: example

        dn: uid=ann,ou=people,dc=example,dc=com
        objectClass: inetOrgPerson
        cn: Ann Lee
        cn;lang-fr: Anne Lee
        sn: Lee
        givenName: Ann
        mail: ann@example.com
        mail: ann.lee@example.com
        title: Director of
          Lasers
        manager: uid=boss,ou=people,dc=example,dc=com
        description:: w4VzdHLDtm0gaXMgYSBuYW1l
        jpegPhoto:: /9j/4AAQSkZJRgABAQEASABIAAD/
        # a comment
         continued comment
        telephoneNumber: +1 555 0100

        dn:: dWlkPWrDuHJuLG91PXBlb3BsZSxkYz1leGFtcGxlLGRjPWNvbQ==
        objectClass: person
        cn: J\u{F8}rn
        sn: Hansen

        """

    @Test("slapcat's shape: version, comments, continuations, several values, options, base64 text and dn, a photo left in the file")
    func slapcat() throws {
        let sink = try FieldReading.ldif(Self.slapcat)
        #expect(sink.skippedRecords.isEmpty && sink.skippedLines.isEmpty)
        #expect(sink.records.map(\.kind) == [.organization, .individual, .individual])
        #expect(sink.records.map(\.line) == [4, 11, 28])
        let ann = sink.records[1]
        #expect(ann.text(of: "dn") == "uid=ann,ou=people,dc=example,dc=com")
        #expect(ann.fields.named("mail").map(\.text) == ["ann@example.com", "ann.lee@example.com"])
        #expect(ann.fields.named("cn").map(\.parameters) == [[], [FieldParameter(name: "", value: "lang-fr")]])
        #expect(ann.text(of: "title") == "Director of Lasers")
        #expect(ann.text(of: "description") == "Åström is a name")
        #expect(ann.text(of: "telephoneNumber") == "+1 555 0100")
        guard case .external(let photo)? = ann.fields.named("jpegPhoto").first?.kind else {
            Issue.record("jpegPhoto not left in the file")
            return
        }
        #expect(photo.decoded(from: Array(Self.slapcat.utf8)[photo.fileRange])?.prefix(2) == [0xFF, 0xD8])
        #expect(sink.records[2].text(of: "dn") == "uid=jørn,ou=people,dc=example,dc=com")
        #expect(sink.records[2].text(of: "cn") == "Jørn")
    }

    @Test("every way of cutting the input into chunks reads the same entries")
    func chunks() throws {
        let whole = try FieldReading.ldif(Self.slapcat)
        for size in [1, 2, 5, 13, 64] {
            #expect(try FieldReading.ldif(Self.slapcat, chunkSize: size).records == whole.records, "chunks of \(size)")
        }
    }

    @Test("change records are skipped with their reason, a plain add is read; a URL value is not fetched")
    func changes() throws {
        let text = """
            dn: uid=a,dc=x
            changetype: modify
            replace: mail
            mail: new@x
            -

            dn: uid=b,dc=x
            control: 1.2.840.113556.1.4.805 true
            changetype: add
            objectClass: person
            cn: B
            jpegPhoto:< file:///etc/passwd

            dn: uid=c,dc=x
            changetype: delete

            cn: no dn here
            """
        let sink = try FieldReading.ldif(text)
        #expect(sink.records.map { $0.text(of: "dn") } == ["uid=b,dc=x"])
        #expect(sink.records[0].fields.map(\.name) == ["dn", "objectClass", "cn"])
        #expect(sink.skippedRecords == [
            FieldSkip(file: nil, line: 1, reason: "a change record (changetype: modify), not an entry; skipped"),
            FieldSkip(file: nil, line: 14, reason: "a change record (changetype: delete), not an entry; skipped"),
            FieldSkip(file: nil, line: 17, reason: "an entry starts with dn:, not 'cn: no dn here'; skipped"),
        ])
        #expect(sink.skippedLines == [FieldSkip(file: nil, line: 12, reason: "'jpegPhoto' names a URL (:<), which is not fetched; passed over")])
    }

    @Test("a line longer than the record limit skips its entry, naming the line; the next entry is read")
    func longLine() throws {
        let text = "dn: a=1\ncn: A\n\ndn: a=2\ndescription: " + String(repeating: "z", count: 9000) + "\ncn: B\n\ndn: a=3\ncn: C\n"
        let sink = try FieldReading.ldif(text, chunkSize: 300, recordLimit: 4096)
        #expect(sink.records.map { $0.text(of: "cn") } == ["A", "C"])
        #expect(sink.records[1].line == 8)
        #expect(sink.skippedRecords == [FieldSkip(file: nil, line: 4, reason: "line 5 is longer than 4096 bytes, the most one record may hold; the entry is skipped")])
    }

    @Test("CRLF line ends, a byte order mark, and binary garbage never crash it")
    func oddBytes() throws {
        let sink = try FieldReading.ldif(Array("\u{FEFF}dn: a=1\r\ncn: A\r\n \r\n B\r\n\r\n".utf8) + [0, 0xFF, 0x0A, 0x0A] + Array("dn: a=2\ncn: C\n".utf8))
        #expect(sink.records.map { $0.text(of: "cn") } == ["AB", "C"], "a continuation line's one space is taken off, even when it is all the line holds")
        #expect(sink.skippedRecords.count == 1)
    }
}
