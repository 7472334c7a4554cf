import Foundation
import Testing

/// `roster update|add|delete` on real files: what they change, what they
/// keep, and that a save is all or nothing, however it ends.
@Suite("End to end: editing a file from the command line", .blockingWork)
struct EditCommandTests {
    /// A folder of its own holding `people.json` (mode 0640) with `count` people.
    static func folder(people count: Int = 3) throws -> (folder: String, file: String) {
        let folder = NSTemporaryDirectory() + "roster-edit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let records = (0..<count).map { index in
            "  {\"_id\": \"id\(index)\", \"index\": \(index), \"age\": \(20 + index % 50), \"name\": {\"first\": \"P\(index)\", \"last\": \"L\(index)\"}, \"company\": \"C\(index % 3)\", \"shoe\": 4.50}"
        }
        let file = folder + "/people.json"
        try ("[\n" + records.joined(separator: ",\n") + "\n]\n").write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o640)
        return (folder, file)
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        stat(path, &status)
        return status.st_mode & 0o7777
    }

    @Test("update, add and delete change what they say, keep the rest and the file's mode; the list shows it")
    func editsLand() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Self.text(file)
        let update = try runRoster(["update", file, "id1", "email=p1@x.io", "age=41", "balance=$1,200.00"])
        #expect(update.status == 0 && update.error.isEmpty, "\(update.error)")
        let updated = Self.text(file)
        #expect(updated == before.replacingOccurrences(of: "\"age\": 21,", with: "\"age\": 41,")
            .replacingOccurrences(of: "\"C1\", \"shoe\": 4.50}", with: "\"C1\", \"shoe\": 4.50, \"email\": \"p1@x.io\", \"balance\": \"$1,200.00\"}"))
        #expect(Self.mode(file) == 0o640)
        let add = try runRoster(["add", file, "first=Ada", "last=Lovelace", "company=C1"])
        #expect(add.status == 0)
        let newID = add.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(newID.count == 24 && newID.allSatisfy(\.isHexDigit), "\(add.output)")
        #expect(try runRoster(["delete", file, "id0", "id2"]).status == 0)
        let list = try runRoster(["--list", file])
        #expect(list.output == "C1 (2 people)\n  P1 L1\tp1@x.io\t$1,200.00\n  Ada Lovelace\t\t\n", "\(list.output)")
        #expect(Self.mode(file) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["people.json"], "no lock or temporary file left")
    }

    @Test("a bad value, an unknown field or ID, or standard input: one line, its status, nothing written")
    func refusals() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Self.text(file)
        let cases: [([String], Int32, String)] = [
            (["update", file, "id1", "age=old"], 2, "roster: age: expected a whole number of years (0 to 200), found 'old' (try 'roster update --help')\n"),
            (["update", file, "id1", "colour=red"], 2, "roster: unknown field 'colour' (fields: first, last, company, email, phone, address, eye, fruit, guid, age, balance, active, picture) (try 'roster update --help')\n"),
            (["update", file, "id1", "company=\u{1B}[2J"], 2, "roster: company: a control character (U+001B) is not allowed (try 'roster update --help')\n"),
            (["update", file, "id1", "age=3", "age=4"], 2, "roster: age is given twice (try 'roster update --help')\n"),
            (["update", file, "nobody", "age=3"], 1, "roster: \(file): no record has _id nobody; nothing written\n"),
            (["delete", file, "id1", "nobody"], 1, "roster: \(file): no record has _id nobody; nothing written\n"),
            (["update", file, "id1", "age=3", "--if-version", "4"], 2, "roster: --if-version is for a database's rows; a file's records carry no version (try 'roster update --help')\n"),
            (["update", "-", "id1", "age=3"], 2, "roster: standard input cannot be edited; name the file\n"),
            (["update", folder, "id1", "age=3"], 1, "roster: \(folder): it is a directory, not a regular file; nothing written\n"),
        ]
        for (arguments, status, message) in cases {
            let run = try runRoster(arguments)
            #expect(run.status == status, "\(arguments)")
            #expect(run.error == message)
        }
        #expect(Self.text(file) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["people.json"])
    }

    @Test("a symbolic link's target is written and the link stays; --backup keeps the file as it was in FILE~")
    func linkAndBackup() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "people.json")
        let before = Self.text(file)
        #expect(try runRoster(["update", link, "id0", "age=99", "--backup"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "people.json")
        #expect(Self.text(file).contains("\"age\": 99"))
        #expect(Self.text(file + "~") == before)
        #expect(Self.mode(file + "~") == 0o640)
    }

    @Test("ten updates of different people run at once on one file: every one lands")
    func concurrentUpdates() async throws {
        let (folder, file) = try Self.folder(people: 200)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<10 {
                group.addTask { try runRoster(["update", file, "id\(index * 7)", "email=n\(index)@x.io"]).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 10))
        let saved = Self.text(file)
        for index in 0..<10 {
            #expect(saved.contains("\"_id\": \"id\(index * 7)\", \"index\": \(index * 7), \"age\": \(20 + index * 7 % 50), \"name\": {\"first\": \"P\(index * 7)\", \"last\": \"L\(index * 7)\"}, \"company\": \"C\(index * 7 % 3)\", \"shoe\": 4.50, \"email\": \"n\(index)@x.io\"}"))
        }
        #expect(try runRoster(["--list", file]).output.components(separatedBy: "@x.io").count == 11)
    }

    @Test("killed (kill -9) at each step of a save: the file is the old one or the new one, whole, mode kept; the next save takes over the lock",
          arguments: ["after-lock", "before-rename", "before-folder-sync", "before-unlock"])
    func killedMidSave(_ step: String) throws {
        let (folder, file) = try Self.folder(people: 50)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Self.text(file)
        let killed = try runRoster(["update", file, "id3", "age=77"], environment: ["ROSTER_CRASH_AT": step])
        #expect(killed.status == SIGKILL, "the test build stops at \(step)")
        let after = Self.text(file)
        let new = before.replacingOccurrences(of: "\"_id\": \"id3\", \"index\": 3, \"age\": 23,", with: "\"_id\": \"id3\", \"index\": 3, \"age\": 77,")
        #expect(after == before || after == new)
        #expect(after == (["after-lock", "before-rename"].contains(step) ? before : new))
        #expect(Self.mode(file) == 0o640)
        let next = try runRoster(["update", file, "id4", "age=88"])
        #expect(next.status == 0, "\(next.error)")
        #expect(Self.text(file).contains("\"_id\": \"id4\", \"index\": 4, \"age\": 88,"))
    }

    /// The hidden temporary files beside `file` (a save's and its backup's).
    static func temporaryFiles(beside file: String) -> [String] {
        let folder = (file as NSString).deletingLastPathComponent, name = (file as NSString).lastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("." + name) && $0.hasSuffix(".tmp") }.sorted()
    }

    @Test("killed (kill -9) before its rename, a save leaves its full-size temporary file; the next save, or opening the file, removes it")
    func leftoversRemoved() throws {
        let (folder, file) = try Self.folder(people: 2_000)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let size = try #require(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        // The backup's copy, then the save's: each killed before it is renamed.
        let backup = try runRoster(["update", file, "id3", "age=77", "--backup"], environment: ["ROSTER_CRASH_AT": "before-rename"])
        #expect(backup.status == SIGKILL)
        let backupLeft = Self.temporaryFiles(beside: file)
        #expect(backupLeft.count == 1 && backupLeft.first?.hasPrefix(".people.json~.roster-") == true, "\(backupLeft)")
        #expect(try FileManager.default.attributesOfItem(atPath: folder + "/" + backupLeft[0])[.size] as? Int == size)
        let next = try runRoster(["update", file, "id4", "age=88"])
        #expect(next.status == 0, "\(next.error)")
        #expect(Self.temporaryFiles(beside: file).isEmpty, "the next save removed it")

        let killed = try runRoster(["update", file, "id5", "age=99"], environment: ["ROSTER_CRASH_AT": "before-rename"])
        #expect(killed.status == SIGKILL)
        #expect(Self.temporaryFiles(beside: file).count == 1)
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " " + TmuxSession.shellQuoted(file))
        #expect(session.waitFor(text: "1/2,000"))
        #expect(Self.temporaryFiles(beside: file).isEmpty, "opening the file removed it")
        session.send("q")
        #expect(session.exitStatus() == 0)
        #expect(Self.text(file).contains("\"_id\": \"id4\", \"index\": 4, \"age\": 88,"))
    }

    @Test("a FIFO at FILE.lock: the update says so at once, naming the lock, and writes nothing; as does the app's save, and q quits")
    func fifoLock() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(file + ".lock", 0o644) == 0)
        let before = Self.text(file)
        let run = try runRoster(["update", file, "id1", "age=5"])
        #expect(run.status == 1)
        #expect(run.error == "roster: \(file): its lock people.json.lock is a FIFO (named pipe); remove it to save; nothing written\n")
        #expect(Self.text(file) == before)

        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " " + TmuxSession.shellQuoted(file), columns: 200)
        #expect(session.waitFor(text: "1/3"))
        session.send("E", "Tab", "Tab", "Tab", "C-u")
        session.type("p0@x.io")
        session.send("Enter")
        #expect(session.waitFor(text: "its lock people.json.lock is a FIFO (named pipe); remove it"))
        session.send("Escape")
        #expect(session.waitFor(text: "Throw away"))
        session.send("y", "q")
        #expect(session.exitStatus() == 0)
        #expect(Self.text(file) == before)
    }

    @Test("a lock another live process holds: the save waits, then says who holds it and writes nothing")
    func heldLock() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lock = open(file + ".lock", O_RDWR | O_CREAT | O_EXCL, 0o644)
        #expect(lock >= 0)
        defer { close(lock) }
        flock(lock, LOCK_EX)
        _ = "pid \(getpid())\n".withCString { write(lock, $0, strlen($0)) }
        let before = Self.text(file)
        let run = try runRoster(["update", file, "id1", "age=5"])
        #expect(run.status == 1)
        #expect(run.error == "roster: \(file) is being saved by process \(getpid()) (its lock is \(file).lock); nothing written, try again\n")
        #expect(Self.text(file) == before)
    }
}
