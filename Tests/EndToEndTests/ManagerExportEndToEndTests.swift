import Foundation
import Testing
import TestTraits

/// Managers through the real binaries: `roster-gen --format vcf --managers`
/// writes cards whose chart is the JSON's, and every `--export` format of
/// an org reads back to the same chart (`--list --tree`).
@Suite("Managers in generated cards and exports, end to end", .blockingWork)
struct ManagerExportEndToEndTests {
    let folder = NSTemporaryDirectory() + "roster-e2e-managers-\(UUID().uuidString)"

    /// `roster-gen` (built beside roster) with `arguments`, into `path`.
    func generate(_ arguments: [String], into path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rosterBinary).deletingLastPathComponent().appendingPathComponent("roster-gen")
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// `--list --tree` of `path`: the chart as text.
    func tree(_ path: String) throws -> String {
        let listed = try runRoster(["--list", "--tree", path])
        #expect(listed.status == 0, "\(path): \(listed.error)")
        return listed.output
    }

    @Test("roster-gen --format vcf --managers KIND: the cards' chart is the JSON's, levels deep", arguments: ["id", "email", "name"])
    func generatedCards(kind: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["--people", "300", "--seed", "7", "--managers", kind]
        try generate(arguments, into: folder + "/org.json")
        try generate(arguments + ["--format", "vcf"], into: folder + "/org.vcf")
        let cards = try String(contentsOfFile: folder + "/org.vcf", encoding: .utf8)
        #expect(cards.components(separatedBy: "\r\nRELATED;TYPE=manager").count == 300, "everyone but the first has a manager")
        let fromJSON = try tree(folder + "/org.json")
        #expect(fromJSON.contains("\n        "), "four levels at least")
        #expect(try tree(folder + "/org.vcf") == fromJSON)
    }

    @Test("--export csv, json and vcard of an org read back to the same chart", arguments: [("csv", "csv"), ("json", "json"), ("vcard", "vcf")])
    func exports(format: String, fileExtension: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try generate(["--people", "300", "--seed", "9", "--managers", "id"], into: folder + "/org.json")
        let exported = try runRoster(["--export", format, folder + "/org.json"])
        #expect(exported.status == 0 && exported.error.isEmpty, "\(exported.error)")
        let path = folder + "/out." + fileExtension
        try exported.output.write(toFile: path, atomically: true, encoding: .utf8)
        let original = try tree(folder + "/org.json")
        #expect(original.contains("\n        "), "four levels at least")
        #expect(try tree(path) == original)
    }
}
