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
        let update = try runRoster(["update", file, "id1", "email=p1@x.io", "age=41", "balance=$1,200.00", "-q"])
        #expect(update.status == 0 && update.error.isEmpty && update.output.isEmpty, "\(update.error)")
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
            (["update", file, "id1", "colour=red"], 2, "roster: unknown field 'colour' (fields: name, first, last, company, email, phone, address, eye, fruit, guid, age, balance, active, picture) (try 'roster update --help')\n"),
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

    @Test("update, add and delete say in one line on standard error what they changed, values made safe; -q says nothing")
    func sayWhatChanged() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A value the file holds is data: its escape reaches the terminal as a visible sign, never as a command.
        try Self.text(file).replacingOccurrences(of: "\"C1\"", with: "\"C\\u001b[2J1\"").write(toFile: file, atomically: false, encoding: .utf8)
        let update = try runRoster(["update", file, "id1", "age=41", "email=p1@x.io", "company=Acme"])
        #expect(update.status == 0 && update.output.isEmpty)
        #expect(update.error == "roster: \(file): P1 L1: age 21 → 41; email (none) → p1@x.io; company C␛[2J1 → Acme\n", "\(update.error)")
        let renamed = try runRoster(["update", file, "id1", "name=Ada King Lovelace"])
        #expect(renamed.error == "roster: \(file): P1 L1: first P1 → Ada King; last L1 → Lovelace\n", "\(renamed.error)")
        let add = try runRoster(["add", file, "name=Grace Hopper"])
        let newID = add.output.trimmingCharacters(in: .newlines)
        #expect(add.error == "roster: \(file): added Grace Hopper (_id \(newID))\n", "\(add.error)")
        let delete = try runRoster(["delete", file, "id0", "id1", newID])
        #expect(delete.error == "roster: \(file): deleted 3 people: P0 L0, Ada King Lovelace and Grace Hopper\n", "\(delete.error)")
        let quiet = try runRoster(["update", file, "id2", "age=3", "--quiet"])
        #expect(quiet.status == 0 && quiet.error.isEmpty)
        #expect(try runRoster(["--list", file]).output == "C2 (1 person)\n  P2 L2\t\t\n")
    }

    @Test("an update says only the fields it changes; one that changes nothing says so and writes nothing, in JSON and in CSV")
    func onlyWhatChanges() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let renamed = try runRoster(["update", file, "id1", "name=Ada L1"])
        #expect(renamed.status == 0)
        #expect(renamed.error == "roster: \(file): P1 L1: first P1 → Ada\n", "the last name is L1 already: \(renamed.error)")
        let csv = folder + "/people.csv"
        try "_id,first_name,last_name,phone\r\nid1,Ada,L1,1\r\n".write(toFile: csv, atomically: false, encoding: .utf8)
        for target in [file, csv] {
            let before = Self.text(target)
            var status = stat()
            stat(target, &status)
            let inode = status.st_ino
            let same = try runRoster(["update", target, "id1", "name=Ada L1", target == csv ? "phone=1" : "age=21"])
            #expect(same.status == 0 && same.output.isEmpty)
            #expect(same.error == "roster: \(target): Ada L1: nothing changed\n", "\(same.error)")
            #expect(Self.text(target) == before)
            stat(target, &status)
            #expect(status.st_ino == inode, "not written: the file is the same one, not a copy renamed over it")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["people.csv", "people.json"])
    }

    @Test("a mistyped field or column says what it most likely meant; a file given after the ID says which order was meant")
    func didYouMean() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Self.text(file)
        let cases: [([String], String)] = [
            (["update", file, "id1", "phnoe=1"], "roster: unknown field 'phnoe'; did you mean phone? (try 'roster update --help')\n"),
            (["add", file, "frist=Ada"], "roster: unknown field 'frist'; did you mean first? (try 'roster add --help')\n"),
            (["update", file, "id1", "city=Paris"], "roster: city is a part of the address, which is set whole (address=…) (try 'roster update --help')\n"),
            (["update", file, "id1", "name=Ada Lovelace", "last=X"], "roster: last is given twice (name= sets first and last) (try 'roster update --help')\n"),
            (["update", "id1", file, "age=3"],
             "roster: 'id1' is not a file; did you mean roster update \(file) id1 age=3? (try 'roster update --help')\n"),
            (["delete", "id1", file], "roster: 'id1' is not a file; did you mean roster delete \(file) id1? (try 'roster delete --help')\n"),
            (["add", "first=Ada", file, "last=L", "age=3"],
             "roster: 'first=Ada' is not a file; did you mean roster add \(file) first=Ada last=L …? (try 'roster add --help')\n"),
            (["--list", file, "--sort", "balanc"], "roster: --sort: no column 'balanc'; did you mean balance? (try 'roster --help')\n"),
            (["--list", file, "--sort", "eye-colr:desc"], "roster: --sort: no column 'eye-colr'; did you mean eye-color? (try 'roster --help')\n"),
            (["--list", file, "--sort", "age:down"], "roster: --sort: a column's direction is :asc or :desc, not 'age:down' (try 'roster --help')\n"),
        ]
        for (arguments, message) in cases {
            let run = try runRoster(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.error == message)
        }
        #expect(Self.text(file) == before)
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
