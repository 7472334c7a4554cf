import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

@Suite("vCard reader")
struct VCardReaderTests {
    static let fourZero = """
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1\r
        FN:Ann Q. Public\r
        N:Public;Ann;Quinlan,Q.;Dr.;\r
        ORG:ACME Inc.;Research;Lasers\r
        TITLE:Director\\, Lasers\r
        EMAIL;TYPE=work;PREF=1:ann@acme.example\r
        EMAIL;TYPE=home:ann@home.example\r
        TEL;VALUE=uri;TYPE="voice,cell":tel:+1-555-555-0100\r
        ADR;TYPE=work:;Suite 5;12 Main St.;Springfield;IL;62701;USA\r
        CATEGORIES:friends,work\\, mostly\r
        BDAY:--0415\r
        ANNIVERSARY:19960415\r
        NOTE:Line one\\nLine two\\; with \\\\ backslash\r
        RELATED;TYPE=manager:urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af\r
        RELATED;TYPE=friend;VALUE=text:Bob Smith\r
        X-CUSTOM;X-PARAM="a:b;c":value\r
        END:VCARD\r

        """

    @Test("a 4.0 card: structured values split into components and items, escapes taken off, kinds and parameters kept")
    func fourZeroCard() throws {
        let sink = try FieldReading.vCards(Self.fourZero)
        #expect(sink.skippedRecords.isEmpty && sink.skippedLines.isEmpty)
        let card = try #require(sink.records.first)
        #expect(sink.records.count == 1)
        #expect(card.kind == .individual)
        #expect(card.line == 1)
        #expect(card.byteRange == 0..<Self.fourZero.utf8.count)
        #expect(card.text(of: "VERSION") == "4.0")
        let name = try #require(card.fields.named("N").first)
        #expect(name.components == [["Public"], ["Ann"], ["Quinlan", "Q."], ["Dr."], [""]])
        #expect(card.fields.named("ORG").first?.components == [["ACME Inc."], ["Research"], ["Lasers"]])
        #expect(card.text(of: "TITLE") == "Director, Lasers")
        let emails = card.fields.named("EMAIL")
        #expect(emails.map(\.text) == ["ann@acme.example", "ann@home.example"])
        #expect(emails[0].hasType("work") && !emails[1].hasType("work"))
        #expect(emails[0].parameters.contains(FieldParameter(name: "PREF", value: "1")))
        let phone = try #require(card.fields.named("TEL").first)
        // RFC 6350's quoted list of types (its own example: `TYPE="voice,home"`) is each type.
        #expect(phone.kind == .uri && phone.hasType("cell") && phone.hasType("voice"))
        #expect(phone.parameters == [FieldParameter(name: "VALUE", value: "uri"), FieldParameter(name: "TYPE", value: "voice"),
                                     FieldParameter(name: "TYPE", value: "cell")])
        #expect(card.fields.named("ADR").first?.components == [[""], ["Suite 5"], ["12 Main St."], ["Springfield"], ["IL"], ["62701"], ["USA"]])
        #expect(card.fields.named("CATEGORIES").first?.components == [["friends", "work, mostly"]])
        #expect(card.fields.named("BDAY").first.map { ($0.text, $0.kind) }! == ("--0415", .date))
        #expect(card.fields.named("ANNIVERSARY").first?.kind == .date)
        #expect(card.text(of: "NOTE") == "Line one\nLine two; with \\ backslash")
        let related = card.fields.named("RELATED")
        #expect(related.map(\.kind) == [.uri, .text])
        #expect(related[0].hasType("manager"))
        #expect(card.fields.named("X-CUSTOM").first?.parameters == [FieldParameter(name: "X-PARAM", value: "a:b;c")])
        #expect(card.fields.count == 17)
    }

    @Test("every way of cutting the input into chunks reads the same cards")
    func chunkBoundaries() throws {
        let text = Self.fourZero + VCardSamples.apple + VCardSamples.outlook
        let whole = try FieldReading.vCards(text)
        #expect(whole.records.count == 3)
        for chunkSize in [1, 2, 3, 7, 16, 61, 100, 255] {
            let cut = try FieldReading.vCards(text, chunkSize: chunkSize)
            #expect(cut.records == whole.records, "chunks of \(chunkSize)")
            #expect(cut.skippedLines == whole.skippedLines)
        }
    }

    @Test("lines folded with CRLF or LF and a space or tab, even inside a UTF-8 sequence, read as one")
    func folding() throws {
        let bytes: [UInt8] = Array("BEGIN:VCARD\nVERSION:3.0\nFN:Zo".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xAB] + Array(" Ærø\n\tsund\nNO\r\n TE:a\\\n ,b\nEND:VCARD\n".utf8)
        let card = try #require(try FieldReading.vCards(bytes).records.first)
        #expect(card.text(of: "FN") == "Zoë Ærøsund")
        #expect(card.text(of: "NOTE") == "a,b")
    }
}
