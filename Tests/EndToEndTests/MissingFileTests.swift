import Foundation
import Testing

/// A file that is not there is the first thing said, whatever the output
/// is (a pipe gets the same line a terminal would, not "standard output
/// is not a terminal").
@Suite("End to end: a missing file is said first")
struct MissingFileTests {
    @Test("roster nothere.json and roster nothere.db with their output piped: the missing file, status 1")
    func missingFileWithOutputPiped() throws {
        let folder = NSTemporaryDirectory() + "roster-missing-\(UUID().uuidString)"
        let json = try runRoster([folder + "/nothere.json"])
        #expect(json.status == 1)
        #expect(json.error == "roster: \(folder)/nothere.json: no such file\n")
        let database = try runRoster([folder + "/nothere.db"])
        #expect(database.status == 1)
        #expect(database.error == "roster: \(folder)/nothere.db: no such file; make one with: roster import FILE --into \(folder)/nothere.db\n")
        #expect(!FileManager.default.fileExists(atPath: folder), "browsing never creates anything")
    }
}
