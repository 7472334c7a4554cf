import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// A record longer than the loader's limit never grows memory past it: it
/// is skipped with its line where the reader can find the next record,
/// and otherwise the load stops in one line naming the file and line. The
/// limit is small here (1 KiB, with 64-byte chunks) so the records are too.
@Suite("Records longer than the limit")
struct RecordLimitTests {
    static let loader = PeopleLoader(chunkSize: 64, recordLimit: 1024)
    static let long = String(repeating: "x", count: 5000)

    static func load(_ text: String, name: String) async throws -> LoadedDirectory {
        let path = NSTemporaryDirectory() + "roster-limit-\(UUID().uuidString)-" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await loader.load(path: path, sourceName: name)
    }

    static func loadError(_ text: String, name: String) async -> LoadError? {
        do {
            _ = try await load(text, name: name)
            return nil
        } catch let error as LoadError {
            return error
        } catch {
            return nil
        }
    }

    @Test("JSON Lines: the long line is skipped with its line number, the others load")
    func jsonLines() async throws {
        let text = #"{"name": "Ada Lovelace"}"# + "\n" + #"{"name": ""# + Self.long + "\"}\n" + #"{"name": "Grace Hopper"}"# + "\n"
        let loaded = try await Self.load(text, name: "p.jsonl")
        #expect(loaded.store.count == 2)
        #expect(loaded.skipped == [SkippedRecord(number: 2, line: 2, reason: "longer than 1024 bytes, the most one record may hold")])
    }

    @Test("CSV: a long record without quotes is skipped (any line end); one with a quote stops the load at its line")
    func csv() async throws {
        for end in ["\n", "\r\n", "\r"] {
            let text = "first_name,last_name" + end + "Ada,Lovelace" + end + "Long," + Self.long + end + "Grace,Hopper" + end
            let loaded = try await Self.load(text, name: "p.csv")
            #expect(loaded.store.count == 2, "\(end.debugDescription)")
            #expect(loaded.skipped == [SkippedRecord(number: 2, line: 3, reason: "longer than 1024 bytes, the most one record may hold")])
        }
        let quoted = "first_name,last_name\nAda,Lovelace\nLong,\"" + Self.long + "\"\nGrace,Hopper\n"
        #expect(await Self.loadError(quoted, name: "p.csv")?.message
            == "p.csv: line 3: the record starting on this line is longer than 1024 bytes, the most one record may hold; nothing was loaded")
    }

    @Test("a JSON list: the load stops in one line naming the file and line")
    func jsonList() async throws {
        let text = "[\n" + #"{"name": "Ada Lovelace"},"# + "\n" + #"{"name": ""# + Self.long + "\"}\n]\n"
        let message = await Self.loadError(text, name: "p.json")?.message
        #expect(message?.hasPrefix("p.json: line ") == true)
        #expect(message?.hasSuffix(": the record starting on this line is longer than 1024 bytes, the most one record may hold; nothing was loaded") == true)
    }

    @Test("the default limit is 64 MiB, said so")
    func defaultLimit() {
        #expect(PeopleLoader().recordLimit == 64 << 20)
        #expect(JSONLinesParser.tooLong(64 << 20) == "longer than 64 MiB, the most one record may hold")
    }
}
