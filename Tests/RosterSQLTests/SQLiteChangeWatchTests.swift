import Foundation
import RosterCore
@testable import RosterSQL
import Testing
import TestSupport
import TestTraits

/// An SQLite table's watch tells another program's commit from one of
/// this process's saves by what was written (the saving connection's own
/// `PRAGMA data_version` never moves for its own commits), not by when.
@Suite("SQLite change watch", .blockingWork)
struct SQLiteChangeWatchTests {
    /// A table imported and opened, and its watch asking every 20 ms, counting what it is told of.
    static func watched() throws -> (SQLRepositoryFixture.Imported, SQLPeopleRepository, SQLiteWriter, SQLiteChangeWatch, Locked<Int>) {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .sqlite)
        let repository = try imported.open()
        let writer = try #require(repository.writer)
        let watch = try #require(repository.changeWatch() as? SQLiteChangeWatch)
        let told = Locked(0)
        watch.start(every: .milliseconds(20)) { told.withLock { $0 += 1 } }
        return (imported, repository, writer, watch, told)
    }

    @Test("our own saves never move the version the watch asks; another connection's commit right after one does, and is told of")
    func ownSavesAndOthers() async throws {
        let (imported, repository, writer, watch, told) = try Self.watched()
        defer { watch.stop() }
        let before = try #require(writer.othersVersion())
        let first = try await repository.person(try #require(await repository.personID(recordID: "id1")))
        try repository.update(recordID: "id1", changes: [PeopleEditorTests.change("age=40")], base: first)
        #expect(writer.othersVersion() == before, "our own save")
        try SQLiteConnection(path: imported.target, access: .readWrite).execute("UPDATE people SET age = 31 WHERE person_key = 'id2'")
        #expect(writer.othersVersion() != before, "another connection's")
        #expect(OpeningTests.eventually { told.withLock { $0 } == 1 }, "told of")
    }

    @Test("a file another program puts at the path (a restore, mv new.db people.db) is told of, read again, and saved to; never the old one held open")
    func replacedFile() async throws {
        let (imported, repository, writer, watch, told) = try Self.watched()
        defer { watch.stop() }
        let replacement = imported.target + ".new"
        try FileManager.default.copyItem(atPath: imported.target, toPath: replacement)
        try SQLiteConnection(path: replacement, access: .readWrite).execute("UPDATE people SET age = 71 WHERE person_key = 'id1'")
        #expect(rename(replacement, imported.target) == 0)
        #expect(OpeningTests.eventually { told.withLock { $0 } == 1 }, "told of, once")
        let followed = try #require(writer.othersVersion())
        #expect(followed.file != nil && followed.file == SQLiteFileIdentity(path: imported.target))
        let reread = try repository.reread()
        let id1 = try #require(await reread.personID(recordID: "id1"))
        let seen = try await reread.person(id1)
        #expect(seen.age == 71, "the file now at the path, not the one held open")
        try reread.update(recordID: "id1", changes: [PeopleEditorTests.change("age=72")], base: seen)
        #expect(try SQLiteConnection(path: imported.target, access: .readOnly).query("SELECT age FROM people WHERE person_key = 'id1'").first?.int(0) == 72,
                "saved to it")
        #expect(writer.othersVersion() == followed, "our own save to it is not another program's")
    }

    @Test("asked while another program holds the file's lock, the watch answers within a moment, not the saves' 5 s")
    func askingUnderALock() throws {
        let imported = try SQLRepositoryFixture.importing(json: PeopleEditorTests.people, into: .sqlite)
        let writer = try #require(try imported.open().writer)
        _ = writer.othersVersion()
        let holder = try SQLiteLockHolder(imported.target)
        defer { holder.release() }
        let took = ContinuousClock().measure { _ = writer.othersVersion() }
        #expect(took < .seconds(2), "asked for \(took)")
    }
}
