import Foundation
import Testing

/// `roster init FILE`: the read-only sample as a new file of one's own, and
/// `roster --export json` as the other way to it; nothing already at FILE
/// is ever replaced.
@Suite("End to end: roster init")
struct InitCommandTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/people.json").path

    func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "roster-init-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("writes the sample byte for byte to a new file, says how to open it, and the copy edits")
    func writesTheSample() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/people.json"
        let made = try runRoster(["init", file])
        #expect(made.status == 0)
        #expect(made.output == "wrote the sample directory to \(file); edit it with: \(rosterBinary) \(file)\n", "named as started: not on PATH")
        #expect(FileManager.default.contents(atPath: file) == FileManager.default.contents(atPath: Self.sample))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["people.json"], "no temporary file left")
        let listed = try runRoster(["--list", file])
        #expect(listed.status == 0)
        #expect(listed.output == (try runRoster(["--list"])).output)
        // The copy is a file like any other: it edits.
        let added = try runRoster(["add", file, "first=Ada", "last=Lovelace"])
        #expect(added.status == 0)
    }

    @Test("the command it suggests names roster as it was started: roster when PATH finds this very program")
    func namesTheProgramAsStarted() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let onPath = ["PATH": (rosterBinary as NSString).deletingLastPathComponent + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
        let made = try runRoster(["init", folder + "/people.json"], environment: onPath)
        #expect(made.output == "wrote the sample directory to \(folder)/people.json; edit it with: roster \(folder)/people.json\n")
        // Another roster first on PATH is not this one: the path stays.
        let other = folder + "/bin"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: other + "/roster", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        let shadowed = try runRoster(["init"], environment: ["PATH": other + ":" + onPath["PATH", default: ""]])
        #expect(shadowed.error == "roster: init needs the name of the file to write (\(rosterBinary) init people.json)\n")
    }

    @Test("writes the format the extension names: JSON Lines and CSV read back to the sample's people")
    func writesTheNamedFormat() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sampleList = try runRoster(["--list"]).output
        for (name, starts) in [("people.jsonl", "{"), ("people.NDJSON", "{"), ("people.csv", "first_name,")] {
            let file = folder + "/" + name
            let made = try runRoster(["init", file])
            #expect(made.status == 0, "\(name): \(made.error)")
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            #expect(text.hasPrefix(starts), "\(name): \(text.prefix(40))")
            #expect(!text.hasPrefix("["), "\(name) is not JSON")
            let listed = try runRoster(["--list", file])
            #expect(listed.status == 0 && listed.error.isEmpty, "\(name): \(listed.error)")
            #expect(listed.output == sampleList, "\(name)")
        }
        let lines = (try? String(contentsOfFile: folder + "/people.jsonl", encoding: .utf8)) ?? ""
        #expect(lines.split(separator: "\n").count == 400, "one line per person")
    }

    @Test("an extension that names no format is refused, listing those that do; nothing written, status 2")
    func refusesOtherExtensions() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["people.txt", "people", "people.vcf"] {
            let file = folder + "/" + name
            let refused = try runRoster(["init", file])
            #expect(refused.status == 2)
            #expect(refused.error == "roster: init: \(file): the name must end in .json, .jsonl, .ndjson or .csv, which says its format; nothing written\n")
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test("never replaces what is there: a file, a link, a folder; nothing written, status 1")
    func refusesToReplace() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mine = folder + "/mine.json"
        try Data("[]".utf8).write(to: URL(fileURLWithPath: mine))
        let again = try runRoster(["init", mine])
        #expect(again.status == 1)
        #expect(again.error == "roster: \(mine): it already exists; nothing written\n")
        #expect(FileManager.default.contents(atPath: mine) == Data("[]".utf8))
        let link = folder + "/dangling.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder + "/nowhere.json")
        #expect(try runRoster(["init", link]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere.json"))
        let directory = folder + "/folder.json"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let refused = try runRoster(["init", directory])
        #expect(refused.status == 1)
        #expect(refused.error.contains("a directory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("a file is named, once: no FILE, two, or - are usage errors")
    func usage() throws {
        let none = try runRoster(["init"])
        #expect(none.status == 2)
        #expect(none.error == "roster: init needs the name of the file to write (\(rosterBinary) init people.json)\n")
        #expect(try runRoster(["init", "a.json", "b.json"]).status == 2)
        #expect(try runRoster(["init", "-"]).status == 2)
        #expect(try runRoster(["init", "--help"]).output.contains("Usage: roster init FILE"))
    }

    @Test("roster --export json writes the sample too, and it reads back to the same people")
    func exportOfTheSample() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let exported = try runRoster(["--export", "json"])
        #expect(exported.status == 0)
        let file = folder + "/people.json"
        try Data(exported.output.utf8).write(to: URL(fileURLWithPath: file))
        #expect(try runRoster(["--list", file]).output == (try runRoster(["--list"])).output)
    }
}
