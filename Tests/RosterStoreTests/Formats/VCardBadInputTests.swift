import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore
import TestSupport

/// Hostile and broken vCard files: never a crash, good cards never lost,
/// every skip with its line and reason, memory bounded.
@Suite("vCard bad input")
struct VCardBadInputTests {
    static let good = "BEGIN:VCARD\nVERSION:4.0\nFN:Good\nEND:VCARD\n"

    @Test("a card without END is skipped at its line; the next card is read")
    func missingEnd() throws {
        let sink = try FieldReading.vCards("BEGIN:VCARD\nVERSION:4.0\nFN:Broken\n" + Self.good + "BEGIN:VCARD\nFN:Cut off\n")
        #expect(sink.records.map { $0.text(of: "FN") } == ["Good"])
        #expect(sink.records.first?.line == 4)
        #expect(sink.skippedRecords == [
            FieldSkip(file: nil, line: 1, reason: "no END:VCARD before the next card's BEGIN:VCARD on line 4"),
            FieldSkip(file: nil, line: 8, reason: "the file ends before this card's END:VCARD"),
        ])
    }

    @Test("text, binary garbage and NUL bytes between and inside cards: passed over with their lines")
    func garbage() throws {
        var bytes = Array("junk before\nmore junk\n".utf8) + Array(Self.good.utf8)
        bytes += [0x00, 0xFF, 0xFE, 0x0A, 0x00, 0x00, 0x0A]
        bytes += Array("BEGIN:VCARD\nFN:Nul\u{0}here\n\u{1}\u{2}:x\nno colon at all\nEMAIL;TYPE=\"unclosed:a@b\nEND:VCARD\n".utf8)
        let sink = try FieldReading.vCards(bytes)
        #expect(sink.records.map { $0.text(of: "FN") } == ["Good", "Nul\u{0}here"])
        #expect(sink.records[1].fields.named("EMAIL").first?.text == "a@b")
        #expect(sink.skippedLines.map(\.line) == [1, 7, 11, 12])
        #expect(sink.skippedLines[0].reason.hasPrefix("text outside a card"))
        #expect(sink.skippedLines[2].reason.contains("no property name"))
        #expect(sink.skippedLines[3].reason.hasPrefix("no ':' in 'no colon at all'"))
    }

    @Test("random bytes never crash the reader, whatever the chunks")
    func randomBytes() throws {
        var random = SeededRandom(seed: 37)
        let alphabet = Array("BEGIN:VCARD\nEND:VCARD\r\n ;:,\\=\"".utf8) + [0, 0xC3, 0xA9, 0xFF]
        for _ in 0..<300 {
            let bytes = (0..<Int(random.next() % 400)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            for chunk in [1, 5, 64] {
                _ = try? FieldReading.vCards(bytes, chunkSize: chunk, recordLimit: 128)
            }
        }
    }

    @Test("a line longer than the record limit is skipped naming it, streamed past; the cards after it are read")
    func longLine() throws {
        let long = "BEGIN:VCARD\nFN:Long\nNOTE:" + String(repeating: "x", count: 10_000) + "\nEND:VCARD\n"
        let sink = try FieldReading.vCards(Self.good + long + Self.good, chunkSize: 256, recordLimit: 4096)
        #expect(sink.records.count == 2)
        #expect(sink.records[1].line == 9)
        #expect(sink.skippedRecords == [FieldSkip(file: nil, line: 5, reason: "line 7 is longer than 4096 bytes, the most one record may hold; the card is skipped")])
    }

    @Test("a line over 64 MiB in a file is skipped with its line number; the card after it is read")
    func sixtyFourMiB() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(getpid()).vcf").path
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.write(Data((Self.good + "BEGIN:VCARD\nVERSION:4.0\nNOTE:").utf8))
        let block = Data(repeating: UInt8(ascii: "y"), count: 1 << 20)
        for _ in 0..<65 { handle.write(block) }
        handle.write(Data(("\nEND:VCARD\n" + Self.good).utf8))
        try handle.close()
        let sink = try FieldFileReading.vCards(path: path, sourceName: "long.vcf", into: ArraySink())
        #expect(sink.records.count == 2)
        #expect(sink.records[1].line == 9)
        #expect(sink.skippedRecords == [FieldSkip(file: nil, line: 5, reason: "line 7 is longer than 64 MiB, the most one record may hold; the card is skipped")])
    }

    @Test("ten thousand distinct X- properties are read in one pass without a table of names")
    func manyDistinctProperties() throws {
        let properties = (0..<10_000).map { "X-FIELD-\($0):value \($0)\n" }.joined()
        let text = "BEGIN:VCARD\nVERSION:4.0\nFN:Wide\n" + properties + "END:VCARD\n"
        var reader = VCardReader(sink: FieldCountingSink())
        try FieldFileReading.read(&reader, bytes: Array(text.utf8), sourceName: "wide.vcf", format: .vCard, chunkSize: 4096)
        #expect(reader.sink.records == 1)
        #expect(reader.sink.values == 10_002)
    }

    @Test("a sink that refuses stops the read with its one line, at the record's place")
    func refusal() throws {
        struct Refusing: FieldRecordSink {
            var names = Set<String>()
            var refusal: String?
            mutating func beginRecord(fileOffset: Int, line: Int) {}
            mutating func field(_ field: SourceField) {
                names.insert(String(decoding: field.name, as: UTF8.self))
                if names.count > 100 { refusal = "more than 100 distinct fields; Roster reads at most 100" }
            }
            mutating func endRecord(_ record: RecordEnd) {}
            mutating func skipRecord(reason: String, line: Int) {}
        }
        let properties = (0..<1000).map { "X-F\($0):v\n" }.joined()
        var reader = VCardReader(sink: Refusing())
        let text = Self.good + "BEGIN:VCARD\n" + properties + "END:VCARD\n" + Self.good
        #expect(throws: LoadError.invalid(file: "wide.vcf", line: 1007, column: nil, message: "more than 100 distinct fields; Roster reads at most 100")) {
            try FieldFileReading.read(&reader, bytes: Array(text.utf8), sourceName: "wide.vcf", format: .vCard)
        }
    }

    @Test("a file with no card in it is one line naming the file")
    func noCards() throws {
        #expect(throws: LoadError.invalid(file: "test.vcf", line: nil, column: nil,
                                          message: "nothing in it reads as vCards (a card starts with BEGIN:VCARD)")) {
            try FieldReading.vCards("first,last\nAnn,Lee\n")
        }
        #expect(throws: LoadError.invalid(file: "test.vcf", line: nil, column: nil, message: "the file is empty; expected vCards (a card starts with BEGIN:VCARD)")) {
            try FieldReading.vCards("")
        }
    }
}
