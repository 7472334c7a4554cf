import Foundation
import Testing
import RosterCore
@testable import RosterApp

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
