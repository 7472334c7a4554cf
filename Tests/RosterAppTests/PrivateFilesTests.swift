import Foundation
import Testing
import TestSupport
@testable import RosterApp
import RosterCore
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// Issue 18, item I: the state file and the offline copies are private
/// (0600 in 0700 folders) whatever was there, and never written through a
/// symbolic link.
@Suite("Private files")
struct PrivateFilesTests {
    private static func temporaryFolder() -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-private-\(UUID().uuidString)/roster")
    }

    private static func mode(_ path: String) -> Int? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return Int(status.st_mode & 0o777)
    }

    /// A 0755 folder holding a 0644 file at `path`.
    private static func makeOpen(_ path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(chmod(folder, 0o755) == 0)
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o644) == 0)
    }

    @Test("an offline copy rewritten over a 0644 file in a 0755 folder is 0600 in 0700")
    func offlineCopyIsPrivate() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let snapshot = OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        try Self.makeOpen(snapshot.path)
        let (repository, _) = try Fixtures.repository(json: Fixtures.seedJSON)
        #expect(await snapshot.save(repository) == .saved(people: repository.personCount))
        #expect(Self.mode(folder.path) == 0o700)
        #expect(Self.mode(snapshot.path) == 0o600)
    }

    @Test("a state file rewritten over a 0644 file in a 0755 folder is 0600 in 0700")
    func stateFileIsPrivate() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let file = folder.appendingPathComponent("state.json")
        try Self.makeOpen(file.path)
        #expect(PlaceStore(stateFile: file, dataFile: "/d.json").save(RememberedPlace(selectedPosition: 1, selectedID: nil)))
        #expect(Self.mode(folder.path) == 0o700)
        #expect(Self.mode(file.path) == 0o600)
    }

    @Test("a symbolic link at the offline copy's or the state file's name is never followed: its target stays as it was")
    func neverThroughALink() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = folder.deletingLastPathComponent().appendingPathComponent("victim").path
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(chmod(victim, 0o644) == 0)
        let snapshot = OfflineSnapshot(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        let state = folder.appendingPathComponent("state.json")
        #expect(symlink(victim, snapshot.path) == 0)
        #expect(symlink(victim, state.path) == 0)
        let (repository, _) = try Fixtures.repository(json: Fixtures.seedJSON)
        #expect(await snapshot.save(repository) == .failed("\(snapshot.path): it is a symbolic link, not a regular file"))
        #expect(!PlaceStore(stateFile: state, dataFile: "/d.json").save(RememberedPlace(selectedPosition: 1, selectedID: nil)))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.mode(victim) == 0o644)
        #expect(snapshot.latest() == nil)
    }
}
