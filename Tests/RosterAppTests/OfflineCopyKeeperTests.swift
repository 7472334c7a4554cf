import Foundation
import Testing
import TestSupport
import TestTraits
@testable import RosterApp
import RosterCore
import RosterStore
import RosterSQL

/// Issue 18, item 15: the offline copy is written while the user browses,
/// and the exit waits only for what is left, saying so.
@Suite("Offline copy keeper", .serialized)
struct OfflineCopyKeeperTests {
    /// A directory in a fresh SQLite file, opened as the app opens one.
    static func database() throws -> (repository: SQLPeopleRepository, path: String) {
        let path = NSTemporaryDirectory() + "roster-keeper-\(UUID().uuidString).db"
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        _ = try PeopleImporter(table: PeopleTable(name: "people", dialect: .sqlite))
            .importPeople(directory.store, into: SQLiteConnection(path: path, access: .readWrite))
        return (try SQLPeopleRepository.open(sqlite: path), path)
    }

    /// A fresh database and a keeper of its copy in a folder of its own, and how to remove both.
    static func keeper() throws -> (repository: SQLPeopleRepository, keeper: OfflineCopyKeeper, cleanUp: () -> Void) {
        let (repository, path) = try database()
        let folder = folder()
        let keeper = OfflineCopyKeeper(snapshot: OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people"))
        return (repository, keeper, {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
        })
    }

    static func folder() -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-keeper-\(UUID().uuidString)/roster")
    }

    @Test("kept in the background: by the exit it is written, and the exit says nothing")
    func background() throws {
        let (repository, keeper, cleanUp) = try Self.keeper()
        defer { cleanUp() }
        keeper.keep(repository)
        let notes = Locked<[String]>([])
        keeper.finish(repository) { text in notes.withLock { $0.append(text) } }
        #expect(keeper.isSaved)
        let copy = try #require(keeper.snapshot.latest())
        #expect(try String(contentsOfFile: copy.path, encoding: .utf8).split(separator: "\n").count == repository.personCount)
        // Either it was done already (nothing said) or the exit said it was finishing, then erased the line.
        #expect(notes.withLock { $0 } == [] || notes.withLock { $0 } == ["roster: finishing the offline copy (for when the server is away)…", ""])
    }

    @Test("a database that does not answer (locked by another program here) holds the exit for the deadline only; the earlier copy stays")
    func exitDeadline() throws {
        let (repository, path) = try Self.database()
        let folder = Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
        }
        let holder = try SQLiteLockHolder(path)
        defer { holder.release() }
        let keeper = OfflineCopyKeeper(snapshot: OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people"))
        var notes: [String] = []
        let clock = ContinuousClock()
        let started = clock.now
        keeper.finish(repository, deadline: .milliseconds(300)) { notes.append($0) }
        #expect(clock.now - started < .seconds(3), "the busy timeout alone would hold it longer")
        #expect(notes == ["roster: keeping an offline copy (for when the server is away)…", ""])
        #expect(!keeper.isSaved)
        #expect(keeper.snapshot.latest() == nil, "no half copy in place")
    }

    @Test("the table changed after the copy was kept (a save, edits sent from the outbox): the exit keeps it again, read afresh")
    func keptAgainAfterChanges() throws {
        let (repository, keeper, cleanUp) = try Self.keeper()
        defer { cleanUp() }
        keeper.keep(repository)
        keeper.finish(nil) { _ in }
        let copy = try #require(keeper.snapshot.latest())
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let first = try #require(try repository.people(in: everyone, positions: 0..<1).first)
        #expect(!repository.hasChangedSinceRead)
        try repository.update(recordID: first.id, changes: [try FieldCheck.change(from: "email=kept.again@example.org")], base: first)
        #expect(repository.hasChangedSinceRead)
        keeper.finish(repository) { _ in }
        #expect(try String(contentsOfFile: copy.path, encoding: .utf8).contains("kept.again@example.org"))
    }

    @Test("not kept in the background (the directory went live later): the exit keeps it, saying so if it takes a while")
    func atTheExit() throws {
        let (repository, keeper, cleanUp) = try Self.keeper()
        defer { cleanUp() }
        var notes: [String] = []
        keeper.finish(repository) { notes.append($0) }
        #expect(notes == [] || notes == ["roster: keeping an offline copy (for when the server is away)…", ""])
        #expect(keeper.isSaved)
        var quiet: [String] = []
        OfflineCopyKeeper(snapshot: keeper.snapshot).finish(nil) { quiet.append($0) }
        #expect(quiet.isEmpty, "nothing to keep, nothing said")
    }

    @Test("a copy read while the connection was lost is never written: the earlier copy stays")
    func neverAHalfCopy() throws {
        let (repository, path) = try Self.database()
        let folder = Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
        }
        let snapshot = OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        #expect(snapshot.save(repository) == .saved(people: repository.personCount))
        let before = try Data(contentsOf: URL(fileURLWithPath: snapshot.path))
        #expect(snapshot.save(repository, isIntact: { false }) == .failed("the connection was lost while the copy was read"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot.path)) == before)
    }
}
