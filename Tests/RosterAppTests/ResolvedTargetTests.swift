import Foundation
import Testing
import TestSupport
@testable import RosterApp
import RosterCore
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// Issue 18, item H: two targets that reach different places never share
/// a name, a remembered place or an offline copy, though they differ only
/// by their service or their options.
@Suite("Targets keyed by the resolved connection")
struct ResolvedTargetTests {
    /// A service file with two services on one server and database that
    /// differ only by their search path, and a third on another host.
    static let serviceFile: String = {
        let path = NSTemporaryDirectory() + "roster-services-\(UUID().uuidString).conf"
        let text = """
        [roster-alpha]
        host=/nonexistent-roster-socket
        dbname=staff
        user=ann
        options=-c search_path=alpha
        [roster-beta]
        host=/nonexistent-roster-socket
        dbname=staff
        user=ann
        options=-c search_path=beta
        [roster-gamma]
        host=gamma.example
        dbname=staff
        user=ann

        """
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        setenv("PGSERVICEFILE", path, 1)
        return path
    }()

    static func target(_ text: String) throws -> DatabaseTarget {
        _ = serviceFile
        return try #require(DatabaseTarget(text))
    }

    @Test("service=, options= targets get different names, place keys and offline-copy files")
    func keyedApart() throws {
        let targets = try ["service=roster-alpha", "service=roster-beta", "service=roster-gamma",
                           "host=/nonexistent-roster-socket dbname=staff user=ann options='-c search_path=alpha'",
                           "host=/nonexistent-roster-socket dbname=staff user=ann"].map(Self.target)
        let names = targets.map(\.displayName)
        #expect(names[0] == "postgres://ann@/staff?host=/nonexistent-roster-socket&options=-c search_path=alpha")
        #expect(names[2] == "postgres://ann@gamma.example/staff")
        // The same connection, however it is written, is the same target.
        #expect(names[0] == names[3])
        #expect(Set(names).count == 4, "\(names)")
        let folder = URL(fileURLWithPath: "/cache/roster")
        let paths = targets.map { OfflineSnapshot(folder: folder, targetName: $0.displayName, table: "people").path }
        #expect(Set(paths).count == 4)
        #expect(Set(targets.map { DatabaseSource.placeKey($0, table: nil) }).count == 4)
    }

    @Test("with beta down, beta never opens alpha's offline copy")
    func neverAnotherTargetsCopy() async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-keyed-\(UUID().uuidString)/roster")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let alpha = OfflineSnapshot(folder: folder, targetName: try Self.target("service=roster-alpha").displayName, table: "people")
        let beta = OfflineSnapshot(folder: folder, targetName: try Self.target("service=roster-beta").displayName, table: "people")
        let (repository, _) = try Fixtures.repository(json: Fixtures.seedJSON)
        #expect(await alpha.save(repository) == .saved(people: repository.personCount))
        let down = DatabaseError(.cannotConnect, "PostgreSQL: no server")
        #expect((try? OfflineFallback.source(after: down, snapshot: beta).get()) == nil)
        #expect((try? OfflineFallback.source(after: down, snapshot: alpha).get()) != nil)
    }
}
