import Foundation
import Testing

/// `roster update|add|delete` on files whose shape is less common: a name
/// given as one text, CSV with each kind of line end; and a person who
/// would be left without a name, refused with one message wherever it
/// comes from.
@Suite("End to end: names and line ends from the command line", .blockingWork)
struct EditCommandShapeTests {
    /// A folder of its own holding `name` with `text`.
    static func file(_ name: String, _ text: String) throws -> (folder: String, file: String) {
        let folder = NSTemporaryDirectory() + "roster-shape-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/" + name
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        return (folder, file)
    }

    static func text(_ path: String) -> String { EditCommandTests.text(path) }

    @Test("a name given as one text: either half set keeps the other (the issue's `first=Augusta` wrote {\"first\": \"Augusta\"})")
    func wholeName() throws {
        let (folder, file) = try Self.file("a.json", "[\n  {\"_id\": \"p1\", \"name\": \"Ada Lovelace\", \"company\": \"ACME\"}\n]\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try runRoster(["update", file, "p1", "first=Augusta"])
        #expect(first.status == 0, "\(first.error)")
        #expect(Self.text(file) == "[\n  {\"_id\": \"p1\", \"name\": \"Augusta Lovelace\", \"company\": \"ACME\"}\n]\n")
        #expect(try runRoster(["update", file, "p1", "last=van Gogh"]).status == 0)
        #expect(Self.text(file) == "[\n  {\"_id\": \"p1\", \"name\": {\"first\": \"Augusta\", \"last\": \"van Gogh\"}, \"company\": \"ACME\"}\n]\n",
                "a last name of two words would not read back from one text")
        #expect(try runRoster(["--list", file]).output == "ACME (1 person)\n  Augusta van Gogh\t\t\n")
        let (csvFolder, csv) = try Self.file("a.csv", "id,name\np1,Ada Lovelace\n")
        defer { try? FileManager.default.removeItem(atPath: csvFolder) }
        #expect(try runRoster(["update", csv, "p1", "last=Byron"]).status == 0)
        #expect(Self.text(csv) == "id,name\np1,Ada Byron\n")
    }

    @Test("nobody without a name: add with none, a name of spaces, both halves cleared, or the one half a record has: one message, nothing written")
    func namelessRefused() throws {
        let (folder, file) = try Self.file("people.json", "[\n  {\"_id\": \"p1\", \"name\": {\"first\": \"Ada\"}, \"company\": \"ACME\"}\n]\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Self.text(file)
        let cases: [([String], Int32, String)] = [
            (["add", file, "company=ACME"], 2, "roster: a first or last name is needed (try 'roster add --help')\n"),
            (["add", file, "first= ", "company=ACME"], 2, "roster: a first or last name is needed (try 'roster add --help')\n"),
            (["add", file, "last=\u{200B}"], 2, "roster: a first or last name is needed (try 'roster add --help')\n"),
            (["update", file, "p1", "first=", "last="], 2, "roster: a first or last name is needed (try 'roster update --help')\n"),
            (["update", file, "p1", "first="], 1, "roster: \(file): a first or last name is needed; nothing written\n"),
        ]
        for (arguments, status, message) in cases {
            let run = try runRoster(arguments)
            #expect(run.status == status, "\(arguments)")
            #expect(run.error == message, "\(arguments)")
        }
        #expect(Self.text(file) == before)
        #expect(try runRoster(["--list", file]).error.isEmpty, "nobody skipped")
    }

    @Test("CSV with lone CR line ends (as with LF and CRLF): update finds the record, add writes a row the next read takes, delete and the list agree",
          arguments: ["\n", "\r\n", "\r"])
    func csvLineEnds(_ end: String) throws {
        let rows = ["id,first_name,last_name,company", "a1,Ada,Lovelace,ACME", "b2,Bo,Diddley,ACME"]
        let (folder, file) = try Self.file("people.csv", rows.map { $0 + end }.joined())
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let update = try runRoster(["update", file, "b2", "first=Bob"])
        #expect(update.status == 0, "\(update.error)")
        let add = try runRoster(["add", file, "first=Cy", "last=Young", "company=ACME"])
        #expect(add.status == 0, "\(add.error)")
        let newID = add.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try runRoster(["delete", file, "a1"]).status == 0)
        #expect(Self.text(file) == ["id,first_name,last_name,company", "b2,Bob,Diddley,ACME", "\(newID),Cy,Young,ACME"].map { $0 + end }.joined())
        let list = try runRoster(["--list", "--strict", file])
        #expect(list.status == 0 && list.error.isEmpty, "\(list.error)")
        #expect(list.output == "ACME (2 people)\n  Bob Diddley\t\t\n  Cy Young\t\t\n")
    }
}
