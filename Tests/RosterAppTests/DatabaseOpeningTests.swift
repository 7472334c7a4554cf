import Foundation
import RosterCore
@testable import RosterApp
import RosterSQL
import Testing
import TestSupport
import TestTraits

/// The table of a database connected to before the screen started is read
/// behind the loading screen: a writer's lock keeps it waiting (and the
/// loading screen saying so) until it is gone; a table that cannot be
/// browsed is the error screen's one line.
@Suite(.blockingWork) struct DatabaseOpeningTests {
    static func importedSeed() throws -> String {
        let path = NSTemporaryDirectory() + "roster-opening-\(UUID().uuidString).db"
        _ = try PeopleImporter(table: PeopleTable(name: "people", dialect: .sqlite))
            .importPeople(Fixtures.directory(json: Fixtures.seedJSON).store, into: SQLiteConnection(path: path, access: .readWrite))
        return path
    }

    /// Polls `condition` every 10 ms for up to `limit`, suspended between
    /// polls (the load's task needs a thread of the two the tests share,
    /// which blocking tests may hold for minutes under a sanitizer: see
    /// `BlockingWorkTrait`); it returns as soon as the condition holds.
    static func eventually(limit: Duration = .seconds(600), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test func aLockedTableIsWaitedForAndReadOnceFree() async throws {
        let path = try Self.importedSeed()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SQLiteConnection(path: path, access: .readWrite)
        try writer.execute("BEGIN EXCLUSIVE")
        let target = DatabaseTarget.sqlite(path: path)
        let connected = try DatabaseSource.connect(target, table: nil).get()
        let handedOver = Locked(0)
        let interactor = DatabaseOpeningInteractor(connected: connected, target: target, table: nil) { _ in
            handedOver.withLock { $0 += 1 }
        }
        let progress = LoadProgress()
        let loading = Task.detached { await interactor.loadDirectory(progress: progress) }
        #expect(await Self.eventually { progress.stage.withLock { $0 } == "waiting: another program is writing to it" })
        #expect(interactor.opened == nil)
        try writer.execute("ROLLBACK")
        let repository = try await loading.value.get()
        #expect(repository.personCount == 6)
        #expect(interactor.opened != nil)
        #expect(handedOver.withLock { $0 } == 1, "the offline copy's keeper is handed the repository once")
    }

    @Test func aTableThatCannotBeBrowsedIsOneLineNamingTheTarget() async throws {
        let path = NSTemporaryDirectory() + "roster-opening-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SQLiteConnection(path: path, access: .readWrite).execute("CREATE TABLE other (n INTEGER)")
        let target = DatabaseTarget.sqlite(path: path)
        let interactor = DatabaseOpeningInteractor(connected: try DatabaseSource.connect(target, table: nil).get(), target: target, table: nil)
        let result = await interactor.loadDirectory(progress: LoadProgress())
        guard case .failure(let error) = result else {
            Issue.record("a file with no people table was read")
            return
        }
        #expect(error.message == "\(path): there is no table people; make it with: roster import FILE --into \(path)")
        #expect(interactor.opened == nil)
    }
}
