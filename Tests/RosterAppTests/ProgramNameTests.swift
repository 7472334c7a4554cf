import Foundation
@testable import RosterApp
import Testing

/// How messages name the program: as started, `roster` when that is what
/// PATH finds.
@Suite("The program's name in messages")
struct ProgramNameTests {
    @Test("a bare name stays; a path stays as typed unless PATH's program of that name is this one")
    func shortened() throws {
        let folder = NSTemporaryDirectory() + "roster-name-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/roster", contents: Data(), attributes: [.posixPermissions: 0o755]))
        #expect(ProgramName.shortened("roster", searchPath: nil) { _ in false } == "roster")
        #expect(ProgramName.shortened(".build/release/roster", searchPath: "/nowhere") { _ in true } == ".build/release/roster")
        #expect(ProgramName.shortened(".build/release/roster", searchPath: folder) { $0 == folder + "/roster" } == "roster")
        #expect(ProgramName.shortened(".build/release/roster", searchPath: folder) { _ in false } == ".build/release/roster",
                "another roster comes first on PATH")
        #expect(ProgramName.shortened("/opt/my tools/roster", searchPath: nil) { _ in false } == "'/opt/my tools/roster'")
        #expect(ProgramName.shortened("", searchPath: nil) { _ in false } == "roster")
    }
}
