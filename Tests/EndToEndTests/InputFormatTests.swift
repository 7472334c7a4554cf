import Foundation
import Testing
import TestTraits

/// JSON Lines and CSV through the real binary: by extension, by content on
/// standard input, by `--format`, and exports that read back.
@Suite("Input formats, end to end", .blockingWork)
struct InputFormatEndToEndTests {
    static func temporary(_ text: String, name: String) throws -> String {
        let folder = NSTemporaryDirectory() + "roster-e2e-formats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    @Test("--export csv and --export json of the bundled directory list the same as the bundled directory")
    func roundTrips() throws {
        let listed = try runRoster(["--list"])
        #expect(listed.status == 0)
        #expect(listed.output.contains("COMGY (6 people)"))
        for format in ["csv", "json"] {
            let exported = try runRoster(["--export", format])
            #expect(exported.status == 0)
            let path = try Self.temporary(exported.output, name: "people.\(format)")
            defer { Self.remove(path) }
            let again = try runRoster(["--list", path])
            #expect(again.status == 0, "\(format): \(again.error)")
            #expect(again.error == "")
            #expect(again.output == listed.output, "\(format)")
        }
    }

    @Test("input roster never reads (a usage error first) is dropped: the harness survives, the status is the usage error's")
    func inputNeverRead() throws {
        // A megabyte fills any pipe: written after roster exited, it raised
        // SIGPIPE in the test process, which ended the whole run.
        let finished = try runRoster(["--no-such-option", "-"], input: String(repeating: "x", count: 1 << 20))
        #expect(finished.status == 2)
        #expect(finished.error.contains("no-such-option"))
    }

    @Test("standard input: CSV and JSON Lines are told from their first character")
    func standardInput() throws {
        let csv = try runRoster(["--list", "-"], input: "\u{FEFF}first_name,last_name,company,email,balance_text\r\nAda,Lovelace,ACME,ada@x.test,\"$1,000.00\"\r\n")
        #expect(csv.status == 0)
        #expect(csv.output == "ACME (1 person)\n  Ada Lovelace\tada@x.test\t$1,000.00\n")
        let lines = try runRoster(["--list", "-"], input: "{\"name\": \"Ada Lovelace\", \"company\": \"ACME\"}\n\nnot json\n")
        #expect(lines.status == 0)
        #expect(lines.output == "ACME (1 person)\n  Ada Lovelace\t\t\n")
        #expect(lines.error.contains("record 2 (line 3): not valid JSON at column 1: expected 'null'"))
    }

    @Test("CR-only line ends load; --strict fails a file that is not empty but gave no one, and says so")
    func carriageReturnsAndNobody() throws {
        let oldMac = try runRoster(["--list", "--strict", "-"], input: "first_name,last_name,company\rAda,Lovelace,ACME\rGrace,Hopper,ACME\r")
        #expect(oldMac.status == 0, "\(oldMac.error)")
        #expect(oldMac.output == "ACME (2 people)\n  Grace Hopper\t\t\n  Ada Lovelace\t\t\n")
        let headerOnly = try runRoster(["--list", "--strict", "-"], input: "first_name,last_name,company\r\n")
        #expect(headerOnly.status == 1)
        #expect(headerOnly.error == "roster: stdin: no people were read from it, though it is not empty\n")
        let lenient = try runRoster(["--list", "-"], input: "first_name,last_name,company\r\n")
        #expect(lenient.status == 0)
        #expect(lenient.error == headerOnly.error)
    }

    @Test("--filter with more than 256 terms is one line naming the 257th, status 2")
    func tooManyTerms() throws {
        let terms = (1...257).map { "t\($0)" }.joined(separator: " ")
        let listed = try runRoster(["--list", "--filter", terms])
        #expect(listed.status == 2)
        #expect(listed.error.contains("--filter: 't257' (column \(terms.count - 3)): a search holds at most 256 terms"))
    }

    @Test("--format overrides the extension")
    func formatOption() throws {
        let path = try Self.temporary("last_name\nHopper\n", name: "looks.json")
        defer { Self.remove(path) }
        let asJSON = try runRoster(["--list", path])
        #expect(asJSON.status == 1)
        #expect(asJSON.error.contains("not valid JSON"))
        let asCSV = try runRoster(["--list", "--format", "csv", path])
        #expect(asCSV.status == 0)
        #expect(asCSV.output.contains("  Hopper\t"))
        let wrong = try runRoster(["--list", "--format", "yaml", path])
        #expect(wrong.status == 2)
    }

    @Test("the app browses a CSV file, and a skipped record shows in the ! list with its line")
    func browseCSV() throws {
        let exported = try runRoster(["--export", "csv"])
        let path = try Self.temporary(exported.output + "Bad,Age,,,,,,,old\r\n", name: "people.csv")
        defer { Self.remove(path) }
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " --no-state " + TmuxSession.shellQuoted(path))
        #expect(session.waitFor(text: "1/400"))
        #expect(session.screen().contains("400 people · 33 companies · 1 skipped (! lists)"), "the skipped notice before the people without a company")
        session.send("!")
        #expect(session.waitFor(text: "record 401 (line 402): 'age' should be a whole number, found 'old'"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a CSV that cannot be read is one line naming file, line and column; bad records are listed")
    func csvErrors() throws {
        let broken = try Self.temporary("first_name\nAda\n\"Bob\n", name: "broken.csv")
        defer { Self.remove(broken) }
        let result = try runRoster(["--list", broken])
        #expect(result.status == 1)
        #expect(result.error == "roster: \(broken): line 3, column 1: a quote opened here never closes (is the file truncated?)\n")
        let skipping = try Self.temporary("first_name,age\nAda,36\nBob,old\n", name: "ages.csv")
        defer { Self.remove(skipping) }
        let skipped = try runRoster(["--list", "--strict", skipping])
        #expect(skipped.status == 1)
        #expect(skipped.output.contains("  Ada\t"))
        #expect(skipped.error.contains("record 2 (line 3): 'age' should be a whole number, found 'old'"))
    }
}
