import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// Files written by the programs that make them (vobject, ldif) and
/// vobject's own test cards, read; and the fixtures made again.
@Suite("Format fixtures")
struct FormatFixtureTests {
    @Test("vobject's 3.0 and 4.0 cards: every property, escapes, a photo left in the file", arguments: ["vobject-3.0.vcf", "vobject-4.0.vcf"])
    func vobjectCards(_ name: String) throws {
        let bytes = try FieldReading.fixture(name)
        let sink = try FieldReading.vCards(bytes)
        #expect(sink.skippedRecords.isEmpty && sink.skippedLines.isEmpty)
        #expect(sink.records.count == 2)
        let asa = sink.records[0]
        #expect(asa.fields.named("N").first?.components == [["Öberg"], ["Åsa"], [""], [""], [""]])
        #expect(asa.fields.named("ORG").first?.components == [["Ångström AB"], ["Research"], ["Lasers"]])
        #expect(asa.text(of: "NOTE") == "First line\nsecond line; with a semicolon, and a comma\\ and a backslash")
        #expect(asa.fields.named("CATEGORIES").first?.components == [["colleagues", "lasers, mostly"]])
        #expect(asa.fields.named("EMAIL").map { $0.hasType("WORK") } == [true, false])
        #expect(asa.fields.named("ADR").first?.components[3] == ["Malmö"])
        guard case .external(let photo)? = asa.fields.named("PHOTO").first?.kind else {
            Issue.record("PHOTO not left in the file")
            return
        }
        #expect(photo.decoded(from: bytes[photo.fileRange]) == Array((0..<8).map { _ in (0...255).map(UInt8.init) }.joined()))
        #expect(sink.records[1].text(of: "NOTE") == "A long note " + String(repeating: "that goes on and on ", count: 8))
        #expect(sink.records[1].text(of: "FN") == "李 小龙")
        #expect(try VCardCardText.edited(bytes, []).count == bytes.count)
    }

    @Test("the ldif package's entries: base64 everywhere, folded at 76, a binary photo left in the file")
    func pythonLDIF() throws {
        let bytes = try FieldReading.fixture("python-ldif.ldif")
        let sink = try FieldReading.ldif(bytes)
        #expect(sink.skippedRecords.isEmpty && sink.skippedLines.isEmpty)
        #expect(sink.records.map(\.kind) == [.organization, .individual, .group])
        let asa = sink.records[1]
        #expect(asa.text(of: "cn") == "Åsa Öberg")
        #expect(asa.fields.named("mail").map(\.text) == ["asa@example.com", "asa.oberg@example.com"])
        #expect(asa.text(of: "manager") == "uid=boss,ou=people,dc=example,dc=com")
        #expect(asa.text(of: "description") == (String(repeating: "A very long description ", count: 6)).trimmingCharacters(in: .whitespaces))
        #expect(asa.text(of: "street") == " starts with a space")
        guard case .external(let photo)? = asa.fields.named("jpegPhoto").first?.kind else {
            Issue.record("jpegPhoto not left in the file")
            return
        }
        #expect(photo.decoded(from: bytes[photo.fileRange])?.count == 1024)
    }

    @Test("vobject's own test cards: a grouped BEGIN, lower-case names, quoted-printable without its parameter, a folded label")
    func vobjectTestFiles() throws {
        let simple = try #require(try FieldReading.vCards(try FieldReading.fixture("vobject-simple_3_0_test.vcf")).records.first)
        #expect(simple.fields.named("ORG").first?.components == [["University of Novosibirsk"], ["Department of Octopus Parthenogenesis"]])
        #expect(simple.fields.named("ADR").first?.components[2] == ["Haight Street 512;\nEscape, Test"])
        #expect(simple.fields.named("TEL").count == 3)
        let groups = try FieldReading.vCards(try FieldReading.fixture("vobject-vcard_with_groups.vcf"))
        let card = try #require(groups.records.first)
        #expect(card.text(of: "fn") == "Meister Berger")
        #expect(card.fields.named("tel").first?.group == "home")
        #expect(card.text(of: "label") == "Hufenshlagel 1234\n02828 Goerlitz\nDeutschland")
        #expect(card.text(of: "note") == "The Mayor of the great city of Goerlitz in the great country of Germany.\nNext line.")
        #expect(card.fields.named("email").first?.hasType("internet") == true)
    }

    @Test("the fixtures are what vobject and ldif write today (when .ci/python-tools could install them)")
    func reproducible() throws {
        let python = FieldReading.fixtures.appendingPathComponent("../../../../.build/pytools/bin/python").standardized.path
        guard FileManager.default.isExecutableFile(atPath: python) else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [FieldReading.fixtures.appendingPathComponent("make_fixtures.py").path, folder.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for name in ["vobject-3.0.vcf", "vobject-4.0.vcf", "python-ldif.ldif"] {
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == Data(FieldReading.fixture(name)), "\(name) made again")
        }
    }

    @Test("the fuzzer's kept inputs read and edit without a crash", arguments: ["qp-soft-break.vcf", "ldif-shapes.ldif"])
    func fuzzRegressions(_ name: String) throws {
        let folder = FieldReading.fixtures.appendingPathComponent("../../../Fuzz/fields-regressions").standardized
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(kept.contains(name))
        for file in kept { FieldReadersFuzzing.check(try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))) }
    }
}
