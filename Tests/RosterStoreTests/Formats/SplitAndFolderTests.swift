import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// Two readers over the halves of a file, and a folder of card files.
@Suite("vCard and LDIF halves, card folders")
struct SplitAndFolderTests {
    /// Reads `bytes` in two halves split at `boundary`, as the loader would on two cores.
    static func halves<Reader: FieldChunkReader>(_ first: Reader, _ second: Reader, bytes: [UInt8], boundary: Int)
        -> (first: Reader, second: Reader) {
        var first = first, second = second
        _ = try? FieldFileReading.run(&first, input: BytesInput(bytes: bytes), from: 0, sourceName: "x", chunkSize: 64, recordLimit: 1 << 20)
        _ = try? FieldFileReading.run(&second, input: BytesInput(bytes: bytes), from: boundary, sourceName: "x", chunkSize: 64,
                                      recordLimit: 1 << 20)
        return (first, second)
    }

    @Test("a vCard file splits at a BEGIN:VCARD near its middle; the two halves read what one reader reads")
    func vCardHalves() throws {
        let text = (0..<40).map { "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Person \($0)\r\nNOTE:x\r\n y\r\nEND:VCARD\r\n" }.joined()
        let bytes = Array(text.utf8)
        let boundary = try #require(bytes.withUnsafeBufferPointer {
            VCardReader<ArraySink>.findBoundary(in: UnsafeBufferPointer(rebasing: $0[(bytes.count / 2)...]), startingAt: bytes.count / 2)
        })
        let (first, second) = Self.halves(VCardReader(sink: ArraySink(), boundary: boundary), VCardReader(sink: ArraySink()), bytes: bytes,
                                          boundary: boundary)
        #expect(first.reachedBoundary)
        let whole = try FieldReading.vCards(text)
        #expect(first.sink.records + second.sink.records == whole.records.map { record in
            var record = record
            if record.byteRange.lowerBound >= boundary {
                record.line -= first.line - 1
                for index in record.fields.indices { record.fields[index].line -= first.line - 1 }
            }
            return record
        })
    }

    @Test("an LDIF file splits at a dn: after a blank line; the two halves read what one reader reads")
    func ldifHalves() throws {
        let text = "version: 1\n\n" + (0..<30).map { "dn: uid=\($0),dc=x\ncn: P \($0)\n desc\n\n" }.joined()
        let bytes = Array(text.utf8)
        let boundary = try #require(bytes.withUnsafeBufferPointer {
            LDIFReader<ArraySink>.findBoundary(in: UnsafeBufferPointer(rebasing: $0[(bytes.count / 2)...]), startingAt: bytes.count / 2)
        })
        let (first, second) = Self.halves(LDIFReader(sink: ArraySink(), boundary: boundary), LDIFReader(sink: ArraySink(), startsMidFile: true),
                                          bytes: bytes, boundary: boundary)
        #expect(first.reachedBoundary)
        let whole = try FieldReading.ldif(text)
        #expect((first.sink.records + second.sink.records).map { $0.text(of: "cn") } == whole.records.map { $0.text(of: "cn") })
        #expect(first.recordCount + second.recordCount == 30)
    }

    @Test("a folder as khard keeps it: its .vcf files in name order; links, folders, other files and empty files said or passed over")
    func khardFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cards-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        try write("b0a1.vcf", "BEGIN:VCARD\nVERSION:3.0\nUID:b0a1\nFN:Bea\nEND:VCARD\n")
        try write("a9f3.VCF", "BEGIN:VCARD\nVERSION:4.0\nUID:a9f3\nFN:Abe\nEND:VCARD\n")
        try write("c.vcf", "")
        try write("d.vcf", "not a card\n")
        try write("notes.txt", "BEGIN:VCARD\nFN:Not read\nEND:VCARD\n")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub.vcf"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.vcf").path, withDestinationPath: "/etc/passwd")
        let sink = try VCardFolderReading.read(folder: folder.path, sourceName: "cards", into: ArraySink())
        #expect(sink.records.map { $0.text(of: "FN") } == ["Abe", "Bea"])
        #expect(sink.records.map { $0.file.map { URL(fileURLWithPath: $0).lastPathComponent } } == ["a9f3.VCF", "b0a1.vcf"])
        #expect(sink.records.map(\.byteRange.lowerBound) == [0, 0])
        #expect(sink.skippedRecords.map { URL(fileURLWithPath: $0.file ?? "").lastPathComponent } == ["c.vcf", "d.vcf"])
        #expect(sink.skippedRecords[0].reason.contains("the file is empty"))
        #expect(sink.skippedRecords[1].reason == "no card in it (a card starts with BEGIN:VCARD)")
    }

    /// readdir's entries are as long as their names, packed in a buffer:
    /// one near the buffer's end has fewer bytes after it than the 256 of
    /// `d_name`'s declared type. Names of every length, thousands of them,
    /// put some entry there; copying the field read past the buffer
    /// (AddressSanitizer's heap-buffer-overflow in `make sanitize`).
    @Test("a folder of thousands of card files of every name length: each named once, in order, nothing read past an entry")
    func manyNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("many-cards-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var expected: [String] = []
        for index in 0..<3_000 {
            let name = String(format: "%04d", index) + String(repeating: "x", count: index % 200) + ".vcf"
            try #require(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil))
            expected.append(name)
        }
        #expect(try VCardFolderReading.cardFiles(in: folder.path, sourceName: "cards") == expected.sorted())
    }
}
