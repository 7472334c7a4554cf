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

    /// Runs `finish` on a thread of its own, as the app does on its main
    /// thread at the exit: never on the cooperative pool, whose threads the
    /// copy's reads come back on. What it noted on the terminal. The suite's
    /// blocking tests can hold that pool for minutes, so the deadline and
    /// the wait for each step (for a server that stopped answering) are
    /// long unless a test is about them.
    static func finishing(_ keeper: OfflineCopyKeeper, _ repository: SQLPeopleRepository?,
                          deadline: Duration = .seconds(600)) async -> [String] {
        await finishingTimed(keeper, repository, deadline: deadline, stallLimit: deadline).notes
    }

    /// `finishing`, and how long `finish` held its thread (timed there: the
    /// test's own task may wait longer for the pool to take it up again).
    static func finishingTimed(_ keeper: OfflineCopyKeeper, _ repository: SQLPeopleRepository?, deadline: Duration,
                               stallLimit: Duration = OfflineCopyKeeper.stallLimit) async -> (notes: [String], took: Duration) {
        let notes = Locked<[String]>([])
        let took = await withCheckedContinuation { (continuation: CheckedContinuation<Duration, Never>) in
            Thread.detachNewThread {
                let took = ContinuousClock().measure {
                    keeper.finish(repository, deadline: deadline, stallLimit: stallLimit) { text in notes.withLock { $0.append(text) } }
                }
                continuation.resume(returning: took)
            }
        }
        return (notes.withLock { $0 }, took)
    }

    static func folder() -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-keeper-\(UUID().uuidString)/roster")
    }

    @Test("kept in the background: by the exit it is written, and the exit says nothing")
    func background() async throws {
        let (repository, keeper, cleanUp) = try Self.keeper()
        defer { cleanUp() }
        keeper.keep(repository)
        let notes = Locked(await Self.finishing(keeper, repository))
        #expect(keeper.isSaved)
        let copy = try #require(keeper.snapshot.latest())
        #expect(try String(contentsOfFile: copy.path, encoding: .utf8).split(separator: "\n").count == repository.personCount)
        // Either it was done already (nothing said) or the exit said it was finishing, then erased the line.
        #expect(notes.withLock { $0 } == [] || notes.withLock { $0 } == ["roster: finishing the offline copy (for when the server is away)…", ""])
    }

    @Test("a database that does not answer (locked by another program here) holds the exit a quarter of a second, not its deadline; the earlier copy stays")
    func exitDeadline() async throws {
        let (repository, path) = try Self.database()
        let folder = Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
        }
        let holder = try SQLiteLockHolder(path)
        defer { holder.release() }
        let keeper = OfflineCopyKeeper(snapshot: OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people"))
        let (notes, took) = await Self.finishingTimed(keeper, repository, deadline: .seconds(15))
        #expect(took < .seconds(1), "the busy timeout (5 s) or the deadline would hold it longer")
        #expect(notes == [""], "nothing moved: given up before a line was worth saying")
        #expect(!keeper.isSaved)
        #expect(keeper.snapshot.latest() == nil, "no half copy in place")
    }

    @Test("the table changed after the copy was kept (a save, edits sent from the outbox): the exit keeps it again, read afresh")
    func keptAgainAfterChanges() async throws {
        let (repository, keeper, cleanUp) = try Self.keeper()
        defer { cleanUp() }
        keeper.keep(repository)
        _ = await Self.finishing(keeper, nil)
        let copy = try #require(keeper.snapshot.latest())
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let first = try #require(try await repository.people(in: everyone, positions: 0..<1).first)
        #expect(!repository.hasChangedSinceRead)
        try repository.update(recordID: first.id, changes: [try FieldCheck.change(from: "email=kept.again@example.org")], base: first)
        #expect(repository.hasChangedSinceRead)
        _ = await Self.finishing(keeper, repository)
        #expect(try String(contentsOfFile: copy.path, encoding: .utf8).contains("kept.again@example.org"))
    }

    @Test("not kept in the background (the directory went live later): the exit keeps it, saying so if it takes a while")
    func atTheExit() async throws {
        let (repository, keeper, cleanUp) = try Self.keeper()
        defer { cleanUp() }
        let notes = await Self.finishing(keeper, repository)
        #expect(notes == [] || notes == ["roster: keeping an offline copy (for when the server is away)…", ""])
        #expect(keeper.isSaved)
        let quiet = await Self.finishing(OfflineCopyKeeper(snapshot: keeper.snapshot), nil)
        #expect(quiet.isEmpty, "nothing to keep, nothing said")
    }

    @Test("a copy read while the connection was lost is never written: the earlier copy stays")
    func neverAHalfCopy() async throws {
        let (repository, path) = try Self.database()
        let folder = Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
        }
        let snapshot = OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        #expect(await snapshot.save(repository) == .saved(people: repository.personCount))
        let before = try Data(contentsOf: URL(fileURLWithPath: snapshot.path))
        #expect(await snapshot.save(repository, isIntact: { false }) == .failed("the connection was lost while the copy was read"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot.path)) == before)
    }
}
