import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// JSON Lines: one person per line; a bad line never stops the load.
@Suite("Reading JSON Lines")
struct JSONLinesReaderTests {
    static func load(_ text: String, name: String = "t.jsonl") throws -> LoadedDirectory {
        try PeopleLoader().load(bytes: Array(text.utf8), sourceName: name)
    }

    @Test("one person per line, every JSON rule kept; blank lines, CRLF and a BOM pass")
    func basics() throws {
        let text = "\u{FEFF}" + Fixtures.record(first: "Ada", last: "Lovelace", index: 0) + "\r\n\n   \n"
            + #"{"name": "Grace Hopper", "balance": 12.5, "age": 85, "isActive": false}"# + "\n"
        let loaded = try Self.load(text)
        #expect(loaded.skipped.isEmpty)
        #expect(loaded.store.count == 2)
        #expect(loaded.store[0].fullName == "Ada Lovelace" && loaded.store[0].index == 0)
        #expect(loaded.store[1].lastName == "Hopper" && loaded.store[1].balance.cents == 1250 && loaded.store[1].age == 85)
    }

    @Test("a bad line is a skipped record with its line number and reason; the rest load")
    func badLines() throws {
        let text = [
            Fixtures.record(first: "A", index: 0),       // line 1
            "",                                           // line 2: blank, not a record
            #"{"name": "B C", "age": "abc"}"#,            // line 3: wrong type
            #"{"name": }"#,                               // line 4: not JSON
            "hello",                                      // line 5: not JSON at all
            #"{"name": "D E"} trailing"#,                 // line 6: text after the record
            #"{"name": "F G""#,                           // line 7: cut short
            "[1, 2]",                                     // line 8: not an object
            Fixtures.record(first: "H", index: 8),       // line 9
        ].joined(separator: "\n")
        let loaded = try Self.load(text)
        #expect(loaded.store.count == 2)
        #expect(loaded.store[1].firstName == "H")
        #expect(loaded.skipped == [
            SkippedRecord(number: 2, line: 3, reason: "'age' should be a number, found text"),
            SkippedRecord(number: 3, line: 4, reason: "not valid JSON at column 10: expected a value, found '}'"),
            SkippedRecord(number: 4, line: 5, reason: "not valid JSON at column 1: expected a value, found 'h'"),
            SkippedRecord(number: 5, line: 6, reason: "text after the record on its line"),
            SkippedRecord(number: 6, line: 7, reason: "not valid JSON at column 15: the line ends inside the record"),
            SkippedRecord(number: 7, line: 8, reason: "expected a person (an object), found an array"),
        ])
    }

    @Test("an empty .jsonl file is one clear line")
    func empty() {
        #expect(throws: LoadError.invalid(file: "t.jsonl", line: nil, column: nil, message: "the file is empty; expected JSON Lines, one person per line")) {
            try Self.load("")
        }
    }

    @Test("the same people and skipped records whatever the chunk size and split")
    func chunkAndSplitInvariance() async throws {
        let lines = (0..<400).map { index in
            index % 37 == 0 ? "{\"name\": broken \(index)}" : Fixtures.record(first: "P\(index)", last: "Ölberg", index: index)
        }
        let reference = try await loadedWhateverTheSplit(lines.joined(separator: "\n") + "\n", fileExtension: "ndjson")
        #expect(reference.skipped.count == 11)
        #expect(reference.skipped[1] == SkippedRecord(number: 38, line: 38, reason: "not valid JSON at column 10: expected a value, found 'b'"))
    }
}

/// Which reader reads what: the option, the extension, the first bytes.
@Suite("Input formats")
struct InputFormatTests {
    @Test("the extension names the format; other names leave it to the content")
    func extensions() {
        #expect(InputFormat(extensionOf: "a/people.JSON") == .json)
        #expect(InputFormat(extensionOf: "people.jsonl") == .jsonLines)
        #expect(InputFormat(extensionOf: "people.ndjson") == .jsonLines)
        #expect(InputFormat(extensionOf: "people.csv") == .csv)
        #expect(InputFormat(extensionOf: "people.txt") == nil)
        #expect(InputFormat(extensionOf: "stdin") == nil)
    }

    @Test("the first bytes: [ JSON, { JSON Lines (a first line that does not close its object: one JSON object), a header cell CSV, anything else JSON (whose errors explain)",
          arguments: [("[]", InputFormat.json), ("  \n{\"a\":1}", .jsonLines), ("{\"a\":{\"b\":\"}\\\"{\"}}\n{}", .jsonLines),
                      ("{\n  \"people\": [\n", .json), ("{\"people\": [\n{}]}", .json), ("{\"a\":\"x", .jsonLines), ("first_name,x", .csv), ("\u{FEFF}\"Name\"", .csv),
                      ("Ölberg", .csv), ("", .json), ("   ", .json), ("42", .json), ("\u{01}PNG", .json)])
    func sniffing(text: String, format: InputFormat) {
        #expect(InputFormat(sniffing: Array(text.utf8)) == format)
    }

    @Test("--format's words")
    func option() {
        #expect(InputFormat(option: "CSV") == .csv)
        #expect(InputFormat(option: "ndjson") == .jsonLines)
        #expect(InputFormat(option: "jsonl") == .jsonLines)
        #expect(InputFormat(option: "xml") == nil)
    }

    @Test("a chosen format wins over the extension and the content")
    func override() throws {
        let csv = Array("last_name\nLovelace\n".utf8)
        let loaded = try PeopleLoader(format: .csv).load(bytes: csv, sourceName: "odd.json")
        #expect(loaded.store[0].lastName == "Lovelace")
        #expect(throws: LoadError.self) { try PeopleLoader(format: .json).load(bytes: csv, sourceName: "odd.csv") }
    }

    @Test("a file without a known extension is read by its content", arguments: ["[{\"name\": \"Ada Lovelace\"}]", "{\"name\": \"Ada Lovelace\"}\n",
                                                                               "name\nAda Lovelace\n"])
    func contentOfFile(text: String) async throws {
        let path = NSTemporaryDirectory() + "roster-test-\(UUID().uuidString).data"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try await PeopleLoader().load(path: path, sourceName: "people.data")
        #expect(loaded.store.count == 1)
        #expect(loaded.store[0].lastName == "Lovelace")
    }

    @Test("a stream is read by its content, the bytes looked at still parsed", arguments: ["[{\"name\": \"Ada Lovelace\"}]", "{\"name\": \"Ada Lovelace\"}\n",
                                                                                          "\u{FEFF}name\r\nAda Lovelace\r\n"])
    func contentOfStream(text: String) throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = Array(text.utf8)
        #expect(write(ends[1], bytes, bytes.count) == bytes.count)
        close(ends[1])
        defer { close(ends[0]) }
        let loaded = try PeopleLoader(chunkSize: 5).stream(descriptor: ends[0], sourceName: "stdin")
        #expect(loaded.store.count == 1)
        #expect(loaded.store[0].fullName == "Ada Lovelace")
    }
}
