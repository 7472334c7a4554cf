import Foundation
import Testing
import RosterCore
import RosterStore
@testable import RosterApp

/// A save of one person's change to a file still exactly as the screens
/// read it writes that record alone, found where the load found it, and
/// copies every other byte; whenever that is not certain it returns nil
/// and the whole file is read as for any save.
@Suite("Saving one record in place")
struct InPlaceSaveTests {
    static let json = """
        [
          {"_id": "id1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.io", "age": 36},
          {"_id": "id2", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@x.io", "age": 41, "pet": {"_id": "id1"}}
        ]

        """
    static let jsonLines = """
        {"_id": "id1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.io", "age": 36}
          {"_id": "id2", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@x.io", "age": 41}\r
        {"_id": "id3", "name": {"first": "Grace", "last": "Hopper"}}
        """

    /// `text` in a new file last modified ten seconds ago (a reading of it
    /// vouches for its content), loaded; the file's path and what the load knows.
    static func loaded(_ text: String, extension ext: String) async throws -> (path: String, editing: FileEditing,
                                                                           repository: InMemoryPeopleRepository) {
        let path = NSTemporaryDirectory() + "roster-in-place-\(UUID().uuidString).\(ext)"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        age(path, by: 10)
        let reading = try #require(FileReading(path: path))
        let repository = InMemoryPeopleRepository(try await PeopleLoader().load(path: path, sourceName: path))
        return (path, FileEditing(path: path, format: nil).knowing(repository, read: reading), repository)
    }

    static func age(_ path: String, by seconds: Int) {
        var times = [timespec(tv_sec: time(nil) - seconds, tv_nsec: 0), timespec(tv_sec: time(nil) - seconds, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    /// The same change saved the ordinary way, to a copy: what the file must hold.
    static func savedTheWholeWay(_ text: String, extension ext: String, _ id: String, _ changes: [FieldChange]) throws -> String {
        let path = NSTemporaryDirectory() + "roster-whole-\(UUID().uuidString).\(ext)"
        defer { unlink(path) }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(FileSave.save(.update(id: id, changes: changes), to: path, format: nil, backup: false) == .saved)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static func inPlace(_ editing: FileEditing, _ id: String, _ changes: [FieldChange], base: Person? = nil,
                        progress: SaveProgress? = nil) throws -> FileSave.Outcome? {
        let known = try #require(editing.knownRecord(id))
        return FileSave.updateInPlace(id: id, changes: changes, known: known, path: editing.path, target: editing.path,
                                      format: nil, base: base, progress: progress, meanwhile: nil)
    }

    @Test("JSON and JSON Lines: the record is rewritten where the load found it, every other byte as the whole-file save leaves it",
          arguments: [("json", json), ("jsonl", jsonLines)])
    func sameBytes(ext: String, text: String) async throws {
        let (path, editing, _) = try await Self.loaded(text, extension: ext)
        defer { unlink(path) }
        let changes = [try FieldCheck.change(from: "email=alan@turing.org"), try FieldCheck.change(from: "age=42")]
        let progress = SaveProgress()
        #expect(progress.fraction == nil)
        #expect(try Self.inPlace(editing, "id2", changes, progress: progress) == .saved)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.savedTheWholeWay(text, extension: ext, "id2", changes))
        #expect(progress.fraction == 1, "every byte of the new file counted")
    }

    @Test("through the screens' saves: a loaded file's person saved in place, and read back as changed")
    func throughTheEditing() async throws {
        let (path, editing, repository) = try await Self.loaded(Self.json, extension: "json")
        defer { unlink(path) }
        let base = try await repository.person(try #require(await repository.personID(recordID: "id1")))
        try editing.update(recordID: "id1", changes: [try FieldCheck.change(from: "age=37")], base: base)
        let again = try await PeopleLoader().load(path: path, sourceName: path).store
        #expect(again.count == 2)
        #expect(again[0].age == 37)
        #expect(again[1].age == 41)
    }

    @Test("after a save in place, that record alone is read again: the directory a fresh load gives; a file changed since is read whole",
          arguments: [("json", json), ("jsonl", jsonLines)])
    func rereadsTheRecordAlone(ext: String, text: String) async throws {
        let (path, editing, repository) = try await Self.loaded(text, extension: ext)
        defer { unlink(path) }
        let base = try await repository.person(try #require(await repository.personID(recordID: "id2")))
        try editing.update(recordID: "id2", changes: [try FieldCheck.change(from: "last=Aaronson"), try FieldCheck.change(from: "age=42")],
                           base: base)
        let rewrite = try #require(editing.takeRewrite())
        #expect(editing.takeRewrite() == nil, "taken once")
        #expect(rewrite.directory === repository && rewrite.recordID == "id2")
        let reread = try #require(rewrite.reread(path: path)?.directory)
        let fresh = try await PeopleLoader().load(path: path, sourceName: path).store
        #expect(reread.store.count == fresh.count)
        for position in 0..<fresh.count {
            #expect(reread.store[position] == fresh[position])
            #expect(reread.store.fileOffset(of: position) == fresh.fileOffset(of: position))
        }
        #expect(reread.store.text(.lastName, of: 1) == "Aaronson")

        Self.age(path, by: 3)  // another program's touch: no longer the file the save wrote
        #expect(rewrite.reread(path: path) == nil)
    }

    @Test("a file changed since it was read, or modified within the second before the read, is read whole instead")
    func notVouchedFor() async throws {
        let (path, editing, _) = try await Self.loaded(Self.json, extension: "json")
        defer { unlink(path) }
        let changes = [try FieldCheck.change(from: "age=50")]
        Self.age(path, by: 5)  // touched: another modification time
        #expect(try Self.inPlace(editing, "id1", changes) == nil)

        try Self.json.write(toFile: path, atomically: false, encoding: .utf8)  // modified just now
        let fresh = try #require(FileReading(path: path))
        #expect(!fresh.vouchesForContent)
        let offset = try #require(editing.knownRecord("id1")).offset
        #expect(FileSave.updateInPlace(id: "id1", changes: changes, known: KnownRecord(reading: fresh, offset: offset), path: path,
                                       target: path, format: nil, base: nil, meanwhile: nil) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.json, "nothing written by either")
    }

    @Test("a reading just after a write waits out the file clock's tick, and then vouches for what is read next")
    func settled() async throws {
        let path = NSTemporaryDirectory() + "roster-settled-\(UUID().uuidString).json"
        defer { unlink(path) }
        try Self.json.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try #require(FileReading(path: path)).vouchesForContent == false)
        #expect(try #require(await FileReading.settled(path: path)).vouchesForContent)
    }

    @Test("a record not where the read found it, or with another _id there, or a CSV file: nil, nothing written")
    func notThere() async throws {
        let (path, editing, _) = try await Self.loaded(Self.json, extension: "json")
        defer { unlink(path) }
        let changes = [try FieldCheck.change(from: "age=50")]
        let reading = try #require(editing.knownRecord("id1")).reading
        let second = try #require(editing.knownRecord("id2")).offset
        for offset in [second, second + 1, 0, Self.json.utf8.count - 2] {
            #expect(FileSave.updateInPlace(id: "id1", changes: changes, known: KnownRecord(reading: reading, offset: offset), path: path,
                                           target: path, format: nil, base: nil, meanwhile: nil) == nil, "offset \(offset)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.json)

        let csv = try await Self.loaded("_id,first_name,last_name,age\nid1,Ada,Lovelace,36\n", extension: "csv")
        defer { unlink(csv.path) }
        #expect(try Self.inPlace(csv.editing, "id1", changes) == nil)
    }

    @Test("a field this edit changes that the file holds otherwise than the person first shown: the conflict, with theirs")
    func conflict() async throws {
        let (path, editing, repository) = try await Self.loaded(Self.json, extension: "json")
        defer { unlink(path) }
        var base = try await repository.person(try #require(await repository.personID(recordID: "id2")))
        base.age = 40  // as the user saw them, before someone made it 41
        let outcome = try Self.inPlace(editing, "id2", [try FieldCheck.change(from: "age=45")], base: base)
        guard case .conflict(let message, let theirs)? = outcome else { Issue.record("not a conflict: \(String(describing: outcome))"); return }
        #expect(message == "changed meanwhile: age to '41'")
        #expect(theirs?.age == 41)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.json)
    }

    @Test("an _id two records have, or a load that skipped a record, is not known to be in one place")
    func notUnique() async throws {
        let twice = try await Self.loaded(Self.json.replacingOccurrences(of: "\"id2\"", with: "\"id1\""), extension: "json")
        defer { unlink(twice.path) }
        #expect(twice.editing.knownRecord("id1") == nil)
        let skipped = try await Self.loaded(Self.jsonLines + "\n{\"_id\": \"id4\"}\n", extension: "jsonl")
        defer { unlink(skipped.path) }
        #expect(skipped.repository.skippedRecords.count == 1)
        #expect(skipped.editing.knownRecord("id1") == nil)
    }
}
