import Foundation
import Testing
import TestTraits
import TestSupport
@testable import RosterApp
import RosterCore
import RosterStore
import RosterSQL

/// The copy of a database directory kept for when its server is away,
/// tested with the in-memory repository (it takes any repository).
@Suite("Offline snapshot")
struct OfflineSnapshotTests {
    private static func temporaryFolder() -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-cache-\(UUID().uuidString)/roster")
    }

    @Test("saves every person as JSON Lines that the file loader reads back to the same people, 0600, no leftovers")
    func roundTrip() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let (repository, everyone) = try Fixtures.repository(json: Fixtures.seedJSON)
        let snapshot = OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        #expect(snapshot.latest() == nil)
        #expect(await snapshot.save(repository) == .saved(people: repository.personCount))
        let copy = try #require(snapshot.latest())
        let loaded = try await PeopleLoader().load(path: copy.path, sourceName: "snapshot")
        #expect(loaded.skipped.isEmpty)
        let reloaded = InMemoryPeopleRepository(loaded)
        let again = reloaded.arrange(sort: .byLastName, byCompany: true, company: nil)
        #expect(try await reloaded.allPeople(in: again) == repository.allPeople(in: everyone))
        let text = try String(contentsOfFile: copy.path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == repository.personCount)
        let mode = try FileManager.default.attributesOfItem(atPath: copy.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [(copy.path as NSString).lastPathComponent])
    }

    @Test("keyed by target and table, never holding a secret in its name")
    func keys() {
        let folder = URL(fileURLWithPath: "/cache/roster")
        let one = OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        #expect(one.path == OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people").path)
        #expect(one.path != OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "staff").path)
        #expect(one.path != OfflineSnapshot(folder: folder, targetName: "postgres://bob@db/hr", table: "people").path)
        #expect(one.path.hasPrefix("/cache/roster/directory-"))
        #expect(one.path.hasSuffix(".jsonl"))
        #expect(!one.path.contains("ann"))
        #expect(OfflineSnapshot.digest("") == "cbf29ce484222325")
    }

    @Test("a directory past the bounds is not copied, and the earlier copy stays")
    func bounded() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let (repository, _) = try Fixtures.repository(json: Fixtures.seedJSON)
        let roomy = OfflineSnapshot(folder: folder, targetName: "t", table: "people")
        #expect(await roomy.save(repository) == .saved(people: 6))
        let before = try String(contentsOfFile: roomy.path, encoding: .utf8)
        let fewPeople = OfflineSnapshot(folder: folder, targetName: "t", table: "people", maximumPeople: 5)
        #expect(await fewPeople.save(repository) == .tooLarge)
        let fewBytes = OfflineSnapshot(folder: folder, targetName: "t", table: "people", maximumBytes: 1000)
        #expect(await fewBytes.save(repository) == .tooLarge)
        #expect(try String(contentsOfFile: roomy.path, encoding: .utf8) == before)
    }

    @Test("a folder that cannot be made is a one-line failure, not a crash")
    func unwritable() async throws {
        let blocker = NSTemporaryDirectory() + "roster-cache-file-\(UUID().uuidString)"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        let (repository, _) = try Fixtures.repository(json: Fixtures.seedJSON)
        let snapshot = OfflineSnapshot(folder: URL(fileURLWithPath: blocker + "/roster"), targetName: "t", table: "people")
        #expect(await snapshot.save(repository) == .failed("\(snapshot.path): cannot make the folder \(blocker)/roster"))
        #expect(snapshot.latest() == nil)
    }

    @Test("the banner says offline, the target and the time; another day's copy gives the date")
    func banner() {
        let snapshot = OfflineSnapshot(folder: URL(fileURLWithPath: "/c"), targetName: "postgres://ann@db/hr", table: "people")
        let utc = TimeZone(identifier: "UTC") ?? .current
        let taken = Date(timeIntervalSince1970: 1_764_511_320)  // 2025-11-30 14:02 UTC
        let copy = OfflineSnapshot.Copy(path: "/c/x.jsonl", takenAt: taken)
        #expect(snapshot.bannerName(for: copy, now: taken.addingTimeInterval(3600), timeZone: utc)
            == "offline as of 14:02, r reconnects — postgres://ann@db/hr")
        #expect(snapshot.bannerName(for: copy, now: taken.addingTimeInterval(86_400), timeZone: utc)
            == "offline as of 2025-11-30 14:02, r reconnects — postgres://ann@db/hr")
    }

    @Test("the cache folder follows XDG_CACHE_HOME when absolute, else ~/.cache")
    func folder() {
        #expect(OfflineSnapshot.defaultFolder(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"]).path == "/x/cache/roster")
        #expect(OfflineSnapshot.defaultFolder(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]).path == "/h/.cache/roster")
        #expect(OfflineSnapshot.defaultFolder(environment: ["HOME": "/h"]).path == "/h/.cache/roster")
    }
}

@Suite("Offline fallback", .blockingWork)
struct OfflineFallbackTests {
    @Test("an unreachable server opens the last copy under its banner; without one, one line; other failures never fall back")
    func fallback() async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let snapshot = OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        let unreachable = DatabaseError(.cannotConnect, "PostgreSQL: connection to server at \"db\" failed: Connection refused")
        #expect(OfflineFallback.source(after: unreachable, snapshot: snapshot) == .failure(.init(message:
            "PostgreSQL: connection to server at \"db\" failed: Connection refused (and no offline copy of postgres://ann@db/hr was kept)")))
        let (repository, _) = try Fixtures.repository(json: Fixtures.seedJSON)
        #expect(await snapshot.save(repository) == .saved(people: 6))
        let utc = TimeZone(identifier: "UTC") ?? .current
        let taken = try #require(snapshot.latest()).takenAt
        let opened = OfflineFallback.source(after: unreachable, snapshot: snapshot, now: taken, timeZone: utc)
        #expect(opened == .success(.file(path: snapshot.path, name: snapshot.bannerName(for: .init(path: snapshot.path, takenAt: taken),
                                                                                         now: taken, timeZone: utc))))
        #expect(OfflineFallback.source(after: DatabaseError(.connectionLost, "lost"), snapshot: snapshot, now: taken).isSuccess)
        for kind: DatabaseError.Kind in [.authentication, .passwordRequired, .missingTable, .failed, .unknownDatabase] {
            #expect(OfflineFallback.source(after: DatabaseError(kind, "no"), snapshot: snapshot) == .failure(.init(message: "no")))
        }
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
