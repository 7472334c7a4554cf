import Testing
@testable import RosterCore
@testable import RosterStore

/// A CSV file's records end as the file's own do (LF, CRLF or a lone CR,
/// as old Mac files): every edit finds its record, and writes its line
/// ends, so the next read takes every row.
@Suite("Editing CSV with each kind of line end")
struct CSVLineEndTests {
    /// A file of three people with `end` after every line; a quoted cell holds a line break.
    static func file(_ end: String) -> String {
        ["id,first_name,last_name,company,notes", "a1,Ada,Lovelace,ACME,\"two\nlines\"", "b2,Bo,Diddley,ACME,", "c3,Cy,Young,Zeta,"]
            .map { $0 + end }.joined()
    }

    static func change(_ assignment: String) throws -> FieldChange { try FieldCheck.change(from: assignment) }

    /// Everyone the loader reads from `text` (first names); it skips no one.
    static func loaded(_ text: String) throws -> [String] {
        let loaded = try PeopleLoader(format: .csv).load(bytes: Array(text.utf8), sourceName: "people")
        #expect(loaded.skipped.isEmpty, "\(loaded.skipped)")
        return (0..<loaded.store.count).map { loaded.store[$0].firstName }
    }

    @Test("update, add, delete and undo keep the file's line ends, and the file reads back whole", arguments: ["\n", "\r\n", "\r"])
    func lineEndsKept(_ end: String) throws {
        let text = Self.file(end)
        let updated = try RecordFileTests.applying(.update(id: "b2", changes: [Self.change("first=Bob")]), to: text, .csv)
        #expect(updated == text.replacingOccurrences(of: "b2,Bo,", with: "b2,Bob,"))
        let added = try RecordFileTests.applying(.add(id: "d4", changes: [Self.change("first=Di"), Self.change("company=New")]), to: text, .csv)
        #expect(added == text + "d4,Di,,New," + end)
        #expect(try Self.loaded(added) == ["Ada", "Bo", "Cy", "Di"])
        let (deleted, restored) = try RecordFileTests.deletedAndRestored(["b2"], in: text, .csv)
        #expect(deleted == text.replacingOccurrences(of: "b2,Bo,Diddley,ACME," + end, with: ""))
        #expect(restored == text)
        let (lastGone, lastBack) = try RecordFileTests.deletedAndRestored(["c3"], in: text, .csv)
        #expect(lastGone == text.replacingOccurrences(of: end + "c3,Cy,Young,Zeta,", with: ""))
        #expect(lastBack == text)
        #expect(try Self.loaded(updated) == ["Ada", "Bob", "Cy"])
    }

    @Test("a file of a header only, or one record without a last line end, gets a new row on a line of its own",
          arguments: ["\n", "\r\n", "\r"])
    func edges(_ end: String) throws {
        let header = "id,first_name" + end
        #expect(try RecordFileTests.applying(.add(id: "a1", changes: [Self.change("first=Ada")]), to: header, .csv) == header + "a1,Ada" + end)
        let unended = header + "a1,Ada"
        #expect(try RecordFileTests.applying(.add(id: "b2", changes: [Self.change("first=Bo")]), to: unended, .csv)
            == unended + end + "b2,Bo")
        let (_, restored) = try RecordFileTests.deletedAndRestored(["a1"], in: header + "a1,Ada" + end, .csv)
        #expect(restored == header + "a1,Ada" + end)
    }

    @Test("lone CRs: a record's line is found for a refusal's message too")
    func lines() throws {
        let text = "id,first_name\ra1,A\ra1,B\r"
        #expect(throws: EditFailure(.failed, "people: 2 records have _id a1 (lines 2, 3); nothing written")) {
            try RecordFileTests.applying(.update(id: "a1", changes: [Self.change("first=C")]), to: text, .csv)
        }
    }
}
