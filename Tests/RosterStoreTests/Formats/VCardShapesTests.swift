import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// Cards as Apple, Google, Outlook and khard write them.
@Suite("vCard shapes")
struct VCardShapesTests {
    @Test("Apple's grouped properties carry their group's label; related names labelled manager; URL's escaped colon")
    func apple() throws {
        let card = try #require(try FieldReading.vCards(VCardSamples.apple).records.first)
        let emails = card.fields.named("EMAIL")
        #expect(emails.map(\.group) == ["item1", "item2"])
        #expect(emails.map(\.groupLabel) == ["_$!<Work>!$_", "Old school"])
        #expect(emails[0].hasType("pref") && emails[0].hasType("INTERNET"))
        let manager = try #require(card.fields.named("X-ABRELATEDNAMES").first)
        #expect(manager.text == "Tim Cook" && manager.groupLabel == "_$!<Manager>!$_")
        let label = Array(manager.groupLabel.utf8)
        let name = label.withUnsafeBufferPointer { String(decoding: FieldBytes.appleLabelName($0), as: UTF8.self) }
        #expect(name == "Manager")
        #expect(card.text(of: "URL") == "http://www.apple.example")
        #expect(card.fields.named("URL").first?.kind == .uri)
        #expect(card.fields.named("ORG").first?.components == [["Apple Inc."], [""]])
        #expect(card.kind == .individual)
    }

    @Test("a company card (KIND:org, Apple's X-ABShowAs:COMPANY) is reported as one")
    func companyCards() throws {
        let text = "BEGIN:VCARD\nVERSION:4.0\nKIND:org\nFN:ACME\nORG:ACME\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:3.0\nFN:Apple\nORG:Apple;\nX-ABShowAs:COMPANY\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:4.0\nKIND:group\nFN:Team\nMEMBER:urn:uuid:1\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:4.0\nKIND:individual\nFN:Ann\nEND:VCARD\n"
        let kinds = try FieldReading.vCards(text).records.map(\.kind)
        #expect(kinds == [.organization, .organization, .group, .individual])
    }

    @Test("Outlook's 2.1: bare parameters, quoted-printable with soft breaks, ISO-8859-1 made UTF-8")
    func outlook() throws {
        let card = try #require(try FieldReading.vCards(VCardSamples.outlook).records.first)
        #expect(card.fields.named("N").first?.components == [["Müller"], ["Jürgen"]])
        #expect(card.text(of: "FN") == "Jürgen Müller")
        #expect(card.fields.named("ORG").first?.components == [["Grün GmbH"], ["Verkauf"]])
        let phones = card.fields.named("TEL")
        #expect(phones[0].hasType("WORK") && phones[0].hasType("VOICE") && phones[1].hasType("CELL"))
        #expect(card.fields.named("EMAIL").first.map { $0.hasType("PREF") } == true)
        #expect(card.text(of: "NOTE") == "Erste Zeile\r\nZweite Zeile, sehr lang und mit Umlaut äöü am Ende")
        // No CHARSET, and not UTF-8: read as Windows-1252.
        #expect(card.fields.named("ADR").first?.components[2] == ["Hauptstraße 1"])
        #expect(card.text(of: "VERSION") == "2.1")
    }

    @Test("raw Latin-1 and Windows-1252 bytes without quoted-printable are made UTF-8")
    func rawCharsets() throws {
        let bytes = Array("BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=ISO-8859-1:Ren".utf8) + [0xE9] + Array("\nNOTE:".utf8) + [0x93, 0x61, 0x94, 0x80]
            + Array("\nEND:VCARD\n".utf8)
        let card = try #require(try FieldReading.vCards(bytes).records.first)
        #expect(card.text(of: "FN") == "René")
        #expect(card.text(of: "NOTE") == "\u{201C}a\u{201D}€")
    }

    @Test("Google's 3.0 export: escaped commas, item groups with custom labels, several phones")
    func google() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Grace Hopper
            N:Hopper;Grace;;;
            EMAIL;TYPE=INTERNET;TYPE=WORK:grace@navy.example
            EMAIL;TYPE=INTERNET;TYPE=HOME:grace@home.example
            TEL;TYPE=CELL:+1 555 0100
            TEL;TYPE=WORK:+1 555 0101
            item1.ORG:US Navy
            item1.TITLE:Rear Admiral
            item2.TEL:+1 555 0102
            item2.X-ABLabel:Pager
            ADR;TYPE=HOME:;;1 Navy Way\\, Apt 3;Arlington;VA;22201;US
            NOTE:Invented the compiler\\, among other things
            CATEGORIES:myContacts,Starred
            END:VCARD

            """
        let card = try #require(try FieldReading.vCards(text).records.first)
        #expect(card.fields.named("TEL").map(\.groupLabel) == ["", "", "Pager"])
        #expect(card.fields.named("TITLE").first?.group == "item1")
        #expect(card.fields.named("ADR").first?.components[2] == ["1 Navy Way, Apt 3"])
        #expect(card.text(of: "NOTE") == "Invented the compiler, among other things")
        #expect(card.fields.named("CATEGORIES").first?.components == [["myContacts", "Starred"]])
    }

    @Test("a base64 photo is left in the file: its byte range, never its bytes; a data: URI too")
    func photos() throws {
        let photo = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let base64 = Data(photo).base64EncodedString()
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(rest.prefix(74))
            rest = rest.dropFirst(74)
        }
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Pic\r\nPHOTO;ENCODING=b;TYPE=JPEG:" + lines.joined(separator: "\r\n ") + "\r\n"
            + "LOGO:data:image/png;base64,iVBORw0KGgo=\r\nEND:VCARD\r\n"
        let bytes = Array(text.utf8)
        let card = try #require(try FieldReading.vCards(bytes, chunkSize: 256).records.first)
        let field = try #require(card.fields.named("PHOTO").first)
        guard case .external(let external) = field.kind else {
            Issue.record("PHOTO read as \(field.kind)")
            return
        }
        #expect(field.text == "")
        #expect(external.encoding == .base64)
        #expect(external.decoded(from: bytes[external.fileRange]) == photo, "the photo's bytes, from its place in the file")
        guard case .external(let logo) = card.fields.named("LOGO").first?.kind else {
            Issue.record("LOGO not left in the file")
            return
        }
        #expect(logo.encoding == .dataURI)
        #expect(logo.decoded(from: bytes[logo.fileRange]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(card.text(of: "FN") == "Pic")
    }

    @Test("the 2.1 way of writing base64: bare BASE64, indented lines, a blank line after")
    func twoOneBase64() throws {
        let text = "BEGIN:VCARD\nVERSION:2.1\nN:Doe;Jo\nPHOTO;JPEG;ENCODING=BASE64:\n /9j/4AAQSkZJRgABAQEASABIAAD/\n 2wBDAP\n\nTEL;HOME:1\nEND:VCARD\n"
        let card = try #require(try FieldReading.vCards(text).records.first)
        guard case .external(let photo)? = card.fields.named("PHOTO").first?.kind else {
            Issue.record("PHOTO not left in the file")
            return
        }
        #expect(photo.decoded(from: Array(text.utf8)[photo.fileRange])?.prefix(3) == [0xFF, 0xD8, 0xFF])
        #expect(card.text(of: "TEL") == "1")
    }
}
