import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// `--export csv` read back as CSV, and `--export json` read back as JSON,
/// list the same people as the original.
@Suite("Round trips")
struct RoundTripTests {
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/people.json")

    static let hostile = Fixtures.array([
        Fixtures.record(first: "Ann, \"Nan\"", last: "O'Neil", company: "A;B", email: "ann@x.test", balance: "-$1,234.50", index: 0,
                        extra: #""address": "1 Long Street,\nSpringfield", "phone": "+1 555", "age": 41, "isActive": true"#),
        Fixtures.record(first: "=HYPERLINK(\"http://evil\")", last: "'=quoted", company: "@SUM(A1)", email: "-2+3@x.test",
                        balance: "lots", index: 1, extra: #""phone": "\tTab", "address": "\rCR", "favoriteFruit": "''+x""#),
        Fixtures.record(first: "Zoë", last: "佐藤 🚀", company: "Ünïcode", email: nil, balance: nil, index: 2),
        Fixtures.record(first: nil, last: "Onlylast", company: nil, email: "", balance: "$0.00", index: 3),
        Fixtures.record(first: "Trailing ", last: " Spaces", company: "acme", email: "a,b@x.test", balance: "12", index: 4,
                        extra: #""isActive": false, "age": 0"#),
        #"{"name": "Whole Name", "balance": 12.5, "company": "ACME"}"#,
    ])

    /// What `roster --list` prints for `directory` into a pipe or file.
    static func listed(_ directory: LoadedDirectory) async throws -> String {
        let path = NSTemporaryDirectory() + "roster-list-\(UUID().uuidString).txt"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(descriptor >= 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(await PlainListWriter(isTerminal: false).write(directory.everyone, of: directory.repository, to: descriptor))
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static func exported(_ format: ExportFormat, _ directory: LoadedDirectory) -> [UInt8] {
        DirectoryExporter(format: format).export(directory.repository.everyoneAtOnce(in: directory.everyone))
    }

    static func originals() throws -> [(String, LoadedDirectory)] {
        let bundled = try Data(contentsOf: Self.bundled)
        return [("bundled", try PeopleLoader().load(bytes: Array(bundled), sourceName: "people.json")),
                ("hostile", try Fixtures.directory(json: Self.hostile))]
    }

    @Test("--export csv reads back as CSV to the same list, and again to the same CSV")
    func csv() async throws {
        for (label, original) in try Self.originals() {
            let csv = Self.exported(.csv, original)
            let again = try PeopleLoader().load(bytes: csv, sourceName: "out.csv")
            #expect(again.skipped.isEmpty, "\(label)")
            #expect(again.store.count == original.store.count, "\(label)")
            #expect(try await Self.listed(again) == Self.listed(original), "\(label)")
            #expect(Self.exported(.csv, again) == csv, "\(label)")
        }
    }

    @Test("--export json reads back as JSON to the same list")
    func json() async throws {
        for (label, original) in try Self.originals() {
            let again = try PeopleLoader().load(bytes: Self.exported(.json, original), sourceName: "out.json")
            #expect(again.skipped.isEmpty, "\(label)")
            #expect(try await Self.listed(again) == Self.listed(original), "\(label)")
        }
    }

    @Test("CSV read back keeps every text field exactly, formula starts and quotes included")
    func hostileFields() throws {
        let original = try Fixtures.directory(json: Self.hostile)
        let again = try PeopleLoader().load(bytes: Self.exported(.csv, original), sourceName: "out.csv")
        let grouped = GroupedPeople(store: original.store)
        for (position, person) in grouped.order.enumerated() {
            let before = original.store[Int(person)]
            let after = again.store[position]
            let texts: [KeyPath<Person, String>] = [\.id, \.guid, \.picture, \.eyeColor, \.firstName, \.lastName, \.company,
                                                     \.email, \.phone, \.address, \.favoriteFruit, \.balance.text]
            for text in texts {
                #expect(after[keyPath: text] == before[keyPath: text], "\(text) of \(before.fullName)")
            }
            #expect(after.age == before.age && after.isActive == before.isActive && after.index == before.index)
            #expect(after.balance.cents == before.balance.cents)
        }
    }

    @Test("JSON Lines made from the JSON lists the same people")
    func jsonLines() async throws {
        let bundled = try Data(contentsOf: Self.bundled)
        let original = try PeopleLoader().load(bytes: Array(bundled), sourceName: "people.json")
        let objects = try #require(try JSONSerialization.jsonObject(with: bundled) as? [Any])
        let lines = try objects.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let again = try PeopleLoader().load(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), sourceName: "people.jsonl")
        #expect(again.skipped.isEmpty)
        #expect(try await Self.listed(again) == Self.listed(original))
    }
}

/// The one streaming writer: blocks handed on as they fill, the same bytes as before.
@Suite("Streaming output")
struct OutputBufferTests {
    @Test("an export is handed on in blocks, and the blocks are the whole export", arguments: ExportFormat.allCases)
    func blocks(format: ExportFormat) throws {
        let directory = try Fixtures.directory(json: RoundTripTests.hostile)
        let whole = RoundTripTests.exported(format, directory)
        var blocks: [[UInt8]] = []
        var output = OutputBuffer(blockSize: 64) { block in
            blocks.append(Array(block))
            return true
        }
        DirectoryExporter(format: format).write(GroupedPeople(store: directory.store).order.lazy.map { directory.store[Int($0)] }, to: &output)
        let flushed = output.flush()
        #expect(flushed)
        #expect(blocks.count > 3)
        #expect(blocks.dropLast().allSatisfy { $0.count >= 64 })
        #expect(blocks.joined().elementsEqual(whole))
    }

    @Test("after a failed write nothing more is handed on, and flush says so")
    func failure() {
        var calls = 0
        var output = OutputBuffer(blockSize: 4) { _ in
            calls += 1
            return false
        }
        output.append("hello")
        output.append("world")
        let flushed = output.flush()
        #expect(!flushed)
        #expect(calls == 1)
    }

    @Test("writing to a descriptor writes the same bytes as the export builds")
    func descriptor() async throws {
        let directory = try Fixtures.directory(json: RoundTripTests.hostile)
        let path = NSTemporaryDirectory() + "roster-export-\(UUID().uuidString).json"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(await DirectoryExporter(format: .json).write(directory.everyone, of: directory.repository, to: descriptor))
        close(descriptor)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == RoundTripTests.exported(.json, directory))
    }
}

/// JSON strings: the quick path for text without escapes agrees with the careful one.
@Suite("JSON string escapes")
struct JSONStringTests {
    @Test("what needs an escape gets one; plain text passes as it is")
    func escapes() {
        #expect(DirectoryExporter.jsonString("Zoë 佐藤 🚀") == "\"Zoë 佐藤 🚀\"")
        #expect(DirectoryExporter.jsonString("a\"b\\c") == #""a\"b\\c""#)
        #expect(DirectoryExporter.jsonString("del\u{7F} c1\u{85}\u{9F} nbsp\u{A0}") == #""del\u007F c1\u0085\u009F nbsp"# + "\u{A0}\"")
        #expect(DirectoryExporter.jsonString("bidi\u{202E}x") == "\"bidi\u{202E}x\"")
        #expect(DirectoryExporter.jsonString("bidi\u{202E}x", escapingFormatCharacters: true) == #""bidi\u202Ex""#)
        #expect(DirectoryExporter.jsonString("tab\tnl\n") == #""tab\tnl\n""#)
    }
}
