import Foundation
import Testing
import RosterCore
import TestSupport
@testable import RosterApp
#if canImport(Glibc)
import Glibc
#endif

/// A save never writes over a change another program made after Roster
/// read the file, even one that leaves its size and modification time as
/// they were (a same-size write in the same clock tick).
@Suite("Saving a file changed underneath")
struct FileSaveTests {
    static let text = """
        [
          {"_id": "id1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.io", "age": 36},
          {"_id": "id2", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@x.io", "age": 41}
        ]

        """

    @Test("another program's same-size write, its modification time put back, between the read and the rename: read again, both kept")
    func racyWrite() throws {
        let path = NSTemporaryDirectory() + "roster-racy-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        // Written in the tick the save reads it in, however slow the machine
        // (a busy run took over the tick between this write and the save's
        // read): a moment ahead. Only then can a write after the read leave
        // its time as it was.
        let ahead = timespec(tv_sec: time(nil) + 1, tv_nsec: 0)
        var stamps = [ahead, ahead]
        utimensat(AT_FDCWD, path, &stamps, 0)
        var runs = 0
        let outcome = FileSave.save(.update(id: "id1", changes: [try FieldCheck.change(from: "age=37")]), to: path, format: nil, backup: false,
                                    meanwhile: {
            runs += 1
            guard runs == 1 else { return }
            var before = stat()
            stat(path, &before)
            // In place, same size: Alan's age 41 becomes 42; then the old times, as a coarse clock would leave them.
            let handle = FileHandle(forUpdatingAtPath: path)!
            let data = handle.readDataToEndOfFile()
            let changed = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"age\": 41", with: "\"age\": 42")
            handle.seek(toFileOffset: 0)
            handle.write(Data(changed.utf8))
            handle.closeFile()
            var times = [before.st_atim, before.st_mtim]
            utimensat(AT_FDCWD, path, &times, 0)
        })
        #expect(outcome == .saved)
        #expect(runs == 2, "the first write was seen, and the save made again")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("\"age\": 42"), "the other program's change is kept")
        #expect(saved.contains("\"age\": 37"), "and so is this one")
    }

    @Test("an edit of someone deleted meanwhile says so, by name, and writes nothing")
    func deletedMeanwhile() throws {
        let path = NSTemporaryDirectory() + "roster-gone-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        var base = Person(index: 9, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }
        base.id = "gone"
        base.firstName = "Grace"
        base.lastName = "Hopper"
        let outcome = FileSave.save(.update(id: "gone", changes: [try FieldCheck.change(from: "age=40")]), to: path, format: nil, backup: false,
                                    base: base)
        #expect(outcome == .conflict("Grace Hopper was deleted by someone else meanwhile; nothing saved", theirs: nil))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.text)
    }
}

/// A lock held when the exit is cut short goes with it.
@Suite("A save's lock")
struct FileLockTests {
    @Test("held, it is a file beside the target; an exit cut short removes it; released after that, nothing fails")
    func abandoned() throws {
        let target = NSTemporaryDirectory() + "roster-lock-\(UUID().uuidString).json"
        let lock = try FileLock.acquire(for: target).get()
        #expect(access(target + ".lock", F_OK) == 0)
        FileLock.abandonHeld()
        #expect(access(target + ".lock", F_OK) != 0, "no lock left beside the file")
        lock.release()
        let again = try FileLock.acquire(for: target, patience: .milliseconds(10)).get()
        again.release()
        #expect(access(target + ".lock", F_OK) != 0)
    }

    /// Something that is no lock at `FILE.lock`, made by `make` (given the lock's path).
    static let notLocks: [(String, String)] = [("fifo", "a FIFO (named pipe)"), ("directory", "a directory"), ("socket", "a socket"),
                                               ("link to a FIFO", "a symbolic link"), ("link to a device", "a symbolic link")]

    static func makeNotALock(_ kind: String, at lock: String) throws {
        switch kind {
        case "fifo": #expect(mkfifo(lock, 0o644) == 0)
        case "directory": try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
        case "socket":
            let socket = SpecialFiles.socket(at: lock)
            #expect(socket >= 0)
            close(socket)
        case "link to a FIFO":
            #expect(mkfifo(lock + ".fifo", 0o644) == 0)
            #expect(symlink(lock + ".fifo", lock) == 0)
        default: #expect(symlink("/dev/null", lock) == 0)
        }
    }

    @Test("a FIFO, a directory, a socket or a link at FILE.lock: the save says what is there at once, never waits in open(2), writes nothing",
          arguments: notLocks)
    func notALock(kind: String, named: String) throws {
        let folder = NSTemporaryDirectory() + "roster-notlock-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/people.json"
        try FileSaveTests.text.write(toFile: path, atomically: false, encoding: .utf8)
        try Self.makeNotALock(kind, at: path + ".lock")
        let outcome = Locked<FileSave.Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome.withLock { $0 = FileSave.save(.update(id: "id1", changes: [FieldChange(field: .text(.email), value: .text("a@b.io"))]),
                                                  to: path, format: nil, backup: false) }
            done.signal()
        }
        if done.wait(timeout: .now() + 20) == .timedOut {
            Issue.record("the save still waits on \(kind) at the lock's name")
            // Lets a reader stuck in open(2) of the FIFO go.
            let writer = open(path + ".lock" + (kind == "fifo" ? "" : ".fifo"), O_WRONLY | O_NONBLOCK)
            done.wait()
            close(writer)
        }
        #expect(outcome.withLock { $0 } == .refused(
            "\(path): its lock people.json.lock is \(named); remove it to save; nothing written"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == FileSaveTests.text)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("people.json.lock.") }
        #expect(leftovers.isEmpty || leftovers == ["people.json.lock.fifo"], "nothing of the try is left: \(leftovers)")
    }
}

/// The unchanged stretches of a saved file are copied inside the kernel,
/// and written from memory where the kernel cannot copy.
@Suite("Copying a file's stretch")
struct CopyRangeTests {
    @Test("a stretch of one file copies to another in the kernel; to a pipe, where the kernel cannot, through memory")
    func copies() throws {
        let path = NSTemporaryDirectory() + "roster-copy-\(UUID().uuidString)"
        defer { unlink(path); unlink(path + ".out") }
        try "0123456789".write(toFile: path, atomically: false, encoding: .utf8)
        let source = open(path, O_RDONLY), target = open(path + ".out", O_WRONLY | O_CREAT, 0o600)
        defer { close(source); close(target) }
        var heard: [Int] = []
        #expect(Descriptor.copyAll(2..<7, of: source, to: target) { heard.append($0) })
        #expect(heard == [5])
        #expect(try String(contentsOfFile: path + ".out", encoding: .utf8) == "23456")

        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(Descriptor.copyAll(2..<7, of: source, to: ends[1]))
        var piped = [UInt8](repeating: 0, count: 16)
        #expect(read(ends[0], &piped, piped.count) == 5)
        #expect(String(decoding: piped.prefix(5), as: UTF8.self) == "23456")
        #expect(!Descriptor.copyAll(8..<12, of: source, to: target), "the source ends at 10: a short copy is a failure")
    }
}

/// Issue 34, item 17: the files a save killed before its rename left
/// beside its file are removed by the next save, and only those whose
/// writer is surely gone.
@Suite("Leftovers of a save that died")
struct LeftoverFilesTests {
    @Test("only the names a write to the file gives its files, with a process number")
    func names() {
        #expect(LeftoverFiles.writer(of: ".big.jsonl.roster-4242.tmp", for: "big.jsonl") == 4242)
        #expect(LeftoverFiles.writer(of: ".big.jsonl~.roster-17.tmp", for: "big.jsonl") == 17)
        #expect(LeftoverFiles.writer(of: "big.jsonl.lock.4242.3735928559", for: "big.jsonl") == 4242)
        for other in [".big.jsonl.roster-42a.tmp", ".big.jsonl.roster-.tmp", ".big.jsonl.roster-42.tmp~", "big.jsonl.roster-42.tmp",
                      ".other.jsonl.roster-42.tmp", "big.jsonl.lock", "big.jsonl.lock.42", "big.jsonl.lock.42.x", ".big.jsonl.roster-0.tmp",
                      ".big.jsonl.roster-99999999999.tmp", "big.jsonl.lock.42.1.2"] {
            #expect(LeftoverFiles.writer(of: other, for: "big.jsonl") == nil, "\(other)")
        }
    }

    /// A process that has ended: its number.
    static func endedProcess() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test("a process ended, or a number now another process's started after the file changed, is gone; a live writer is not")
    func processGone() throws {
        let now = Date().timeIntervalSince1970
        #expect(LeftoverFiles.hasEnded(try Self.endedProcess(), lastChanged: now))
        #expect(!LeftoverFiles.hasEnded(getpid(), lastChanged: now), "this process started before now")
        let later = Process()
        later.executableURL = URL(fileURLWithPath: "/bin/sleep")
        later.arguments = ["30"]
        try later.run()
        defer {
            later.terminate()
            later.waitUntilExit()
        }
        let started = try #require(LeftoverFiles.startTime(of: later.processIdentifier))
        #expect(abs(started - Date().timeIntervalSince1970) < 5, "its start, to the clock's tick")
        #expect(LeftoverFiles.hasEnded(later.processIdentifier, lastChanged: now - 10), "a number used again since the file changed")
        #expect(!LeftoverFiles.hasEnded(later.processIdentifier, lastChanged: now + 1))
    }

    @Test("beside the file: a dead writer's temporary files go; one a live writer holds, another user's, or a FIFO stay")
    func removesOnlyTheDead() throws {
        let folder = NSTemporaryDirectory() + "roster-leftover-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/big.jsonl"
        try FileSaveTests.text.write(toFile: file, atomically: false, encoding: .utf8)
        let dead = try Self.endedProcess()
        let names = [".big.jsonl.roster-\(dead).tmp", ".big.jsonl~.roster-\(dead).tmp", "big.jsonl.lock.\(dead).12345",
                     ".big.jsonl.roster-1.tmp", ".other.jsonl.roster-\(dead).tmp", "big.jsonl.roster-\(dead).tmp"]
        for name in names { try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        // A live writer's: its flock held (here by this test, under a dead process's number).
        let held = folder + "/.big.jsonl.roster-\(dead + 1_000_000).tmp"
        try Data("x".utf8).write(to: URL(fileURLWithPath: held))
        let holder = open(held, O_RDONLY)
        #expect(flock(holder, LOCK_EX) == 0)
        defer { close(holder) }
        let fifo = folder + "/.big.jsonl~.roster-\(dead + 2_000_000).tmp"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Another user's (only root can make one).
        let others = geteuid() == 0 ? [".big.jsonl.roster-\(dead + 3_000_000).tmp"] : []
        for name in others {
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            #expect(chown(folder + "/" + name, 4242, 4242) == 0)
        }

        let removed = LeftoverFiles.remove(beside: file)
        #expect(removed == Array(names.prefix(3)).sorted())
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == (["big.jsonl"] + names.dropFirst(3) + [(held as NSString).lastPathComponent, (fifo as NSString).lastPathComponent]
                         + others).sorted(),
                "pid 1 (alive since before the file), other files' names, a held one, a FIFO and another user's stay")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == FileSaveTests.text)
    }
}
