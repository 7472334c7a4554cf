import Foundation
import Testing
@testable import RosterCore
@testable import RosterStore

/// A file's manager references read again a run of records at a time
/// (never the whole file at once), across the cores: the same as read
/// from the whole file's bytes, in every format that has them.
@Suite("Manager references read from the file by runs")
struct FileManagerReferencesTests {
    /// `count` people, each but the first under an earlier one; some
    /// records name none, some spell the key with an escape, and one has
    /// a `manager` inside another object (not theirs).
    static func json(_ count: Int, lines: Bool) -> String {
        let records = (0..<count).map { person -> String in
            var record = #"{"_id": "p\#(person)", "name": {"first": "F\#(person)", "last": "L\#(person)"}"#
            if person % 7 == 3 { record += #", "m\u0061nager": "p\#(person / 3)""# } else if person % 5 != 0 {
                record += #", "manager": "p\#(person / 2)""#
            }
            if person % 11 == 0 { record += #", "about": {"manager": "nobody"}"# }
            return record + "}"
        }
        return lines ? records.joined(separator: "\n") + "\n" : "[" + records.joined(separator: ",\n") + "]"
    }

    static func csv(_ count: Int) -> String {
        "id,first_name,last_name,manager\n" + (0..<count).map { "p\($0),F\($0),L\($0),\($0 % 5 == 0 ? "" : "p\($0 / 2)")" }
            .joined(separator: "\n") + "\n"
    }

    /// Each person's reference read both ways, from a file written with `text`.
    static func bothWays(_ text: String, _ format: InputFormat) throws -> (byRuns: [String?], whole: [String?]) {
        let bytes = Array(text.utf8)
        let store = try PeopleLoader(format: format).load(bytes: bytes, sourceName: "org").store
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roster-references-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let byRuns = try #require(try FileManagerReferences(store: store, file: descriptor, size: bytes.count, format: format))
        let whole = try #require(bytes.withUnsafeBufferPointer { FileManagerReferences(store: store, fileBytes: $0, format: format) })
        return ((0..<store.count).map(byRuns.managerReference(of:)), (0..<store.count).map(whole.managerReference(of:)))
    }

    @Test("JSON, JSON Lines and CSV over many runs: every person's reference as the whole file gives it", arguments: [
        (InputFormat.json, 0), (.jsonLines, 1), (.csv, 2),
    ])
    func sameAsWhole(format: InputFormat, shape: Int) throws {
        let text = shape == 2 ? Self.csv(20_000) : Self.json(20_000, lines: shape == 1)
        let (byRuns, whole) = try Self.bothWays(text, format)
        #expect(byRuns == whole)
        #expect(byRuns[0] == nil && byRuns[1] == "p0" && byRuns[5] == nil)
        if format != .csv {
            // An escaped key is the key; a manager inside another object is not the person's.
            #expect(byRuns[3] == "p1" && byRuns[11] == "p5" && byRuns[55] == nil)
        }
    }

    @Test("a file cut short since it was read says so, never a chart of what is left")
    func shortFile() throws {
        let bytes = Array(Self.json(5_000, lines: false).utf8)
        let store = try PeopleLoader(format: .json).load(bytes: bytes, sourceName: "org").store
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roster-references-\(UUID().uuidString)").path
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        // As fstat says now, and as the store was read.
        for size in [bytes.count / 2, bytes.count] {
            #expect(throws: FileUnreadable.self) {
                _ = try FileManagerReferences(store: store, file: descriptor, size: size, format: .json)
            }
        }
    }
}
