import Foundation
import Testing
import TestSupport
@testable import RosterApp
import RosterCore
import RosterStore
#if canImport(Glibc)
import Glibc
#endif

/// The outbox (edits made offline, kept until the server has them), its
/// editing of the offline copy, and its sending, with a fake server.
@Suite("Outbox")
struct OutboxTests {
    private static func temporaryFolder() -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-state-\(UUID().uuidString)/roster")
    }

    /// The seed-shaped people, as the offline copy would hold them.
    private static func people() throws -> [Person] {
        let (repository, everyone) = try Fixtures.repository(json: Fixtures.seedJSON)
        return repository.everyoneAtOnce(in: everyone)
    }

    @Test("edits written and read back in the order made, values and the person as shown intact; 0600 in 0700")
    func roundTrip() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let outbox = Outbox(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        let person = try #require(try Self.people().first)
        let changes = [try FieldCheck.change(from: "email=ann@new.test"), try FieldCheck.change(from: "age="),
                       try FieldCheck.change(from: "balance=$1,200.50"), try FieldCheck.change(from: "active=no"),
                       FieldChange(field: .text(.phone), value: .absent)]
        let operations = [OutboxOperation(kind: .update, person: person.id, base: person, changes: changes),
                          OutboxOperation(kind: .add, person: "new1", base: nil, changes: [try FieldCheck.change(from: "first=Di")]),
                          OutboxOperation(kind: .delete, person: person.id, base: person, changes: [])]
        #expect(outbox.append(Array(operations.prefix(2))) == nil)
        #expect(outbox.append([operations[2]]) == nil)
        let read = outbox.pending()
        #expect(read == operations)
        #expect(read.first?.fieldChanges == changes.sorted { $0.field.name < $1.field.name })
        #expect(read.first?.basePerson?.value(of: .text(.email)) == person.email)
        #expect(read.first?.basePerson?.differs(from: person) == false)
        #expect(outbox.unsent() == UnsentEdits(people: [person.id, "new1"], count: 3))
        let mode = { (path: String) in (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue }
        #expect(try mode(outbox.path) == 0o600)
        #expect(try mode(folder.path) == 0o700)
        // Crossed off: the rest stay, in order; the file goes once empty.
        #expect(outbox.remove([operations[1].id]) == nil)
        #expect(outbox.pending() == [operations[0], operations[2]])
        #expect(outbox.remove([operations[0].id, operations[2].id]) == nil)
        #expect(!FileManager.default.fileExists(atPath: outbox.path))
        #expect(outbox.pending().isEmpty)
    }

    @Test("a line cut short by a crash is passed over, and the next edit is kept apart from it")
    func tornLine() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let outbox = Outbox(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        let first = OutboxOperation(kind: .add, person: "a", base: nil, changes: [try FieldCheck.change(from: "first=A")])
        #expect(outbox.append([first]) == nil)
        let handle = try #require(FileHandle(forWritingAtPath: outbox.path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"operation\":\"cut-".utf8))
        try handle.close()
        #expect(outbox.pending() == [first])
        let second = OutboxOperation(kind: .add, person: "b", base: nil, changes: [try FieldCheck.change(from: "first=B")])
        #expect(outbox.append([second]) == nil)
        #expect(outbox.pending() == [first, second])
    }

    @Test("one outbox per target and table; a link in its place is refused and what it points to is untouched")
    func keysAndLinks() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let one = Outbox(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        #expect(one.path != Outbox(folder: folder, targetName: "postgres://ann@db/sales", table: "people").path)
        #expect(one.path != Outbox(folder: folder, targetName: "postgres://ann@db/hr", table: "staff").path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let elsewhere = folder.path + "/elsewhere"
        try "keep".write(toFile: elsewhere, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: one.path, withDestinationPath: elsewhere)
        #expect(one.append([OutboxOperation(kind: .add, person: "a", base: nil, changes: [])]) != nil)
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "keep")
    }

    @Test("an offline save is in the outbox and the copy; one the copy refuses leaves neither changed")
    func offlineEditing() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let people = try Self.people()
        let copyPath = folder.path + "/copy.jsonl"
        let exporter = DirectoryExporter(format: .json)
        try people.map(exporter.jsonLine).joined().write(toFile: copyPath, atomically: true, encoding: .utf8)
        let outbox = Outbox(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        let editing = OutboxEditing(outbox: outbox, copyPath: copyPath)
        try editing.update(recordID: people[0].id, changes: [try FieldCheck.change(from: "email=ann@new.test")], base: people[0])
        #expect(outbox.pending().map(\.kind) == [.update])
        #expect(try String(contentsOfFile: copyPath, encoding: .utf8).contains("ann@new.test"))
        // The copy no longer has what the screen showed (another Roster changed it): nothing kept.
        var stale = people[0]
        stale.email = "someone.else@old.test"
        #expect(throws: EditFailure.self) {
            try editing.update(recordID: people[0].id, changes: [try FieldCheck.change(from: "email=x@y.test")], base: stale)
        }
        #expect(outbox.pending().count == 1)
        // Undone before it was sent: the edit leaves the outbox, the copy has the old value back.
        let undo = try #require(UndoableChange.update([try FieldCheck.change(from: "email=ann@new.test")], of: people[0]))
        try undo.undo(through: editing)
        #expect(outbox.pending().isEmpty)
        #expect(try String(contentsOfFile: copyPath, encoding: .utf8).contains(people[0].email))
        try editing.update(recordID: people[0].id, changes: [try FieldCheck.change(from: "email=ann@new.test")], base: people[0])
        try editing.delete([people[1], people[2]])
        #expect(outbox.pending().map(\.kind) == [.update, .delete, .delete])
        #expect(outbox.pending().map(\.person).suffix(2) == [people[1].id, people[2].id])
        // Undone before it was sent: the server never hears of the delete; the copy has them back.
        try editing.restore([people[1], people[2]])
        #expect(outbox.pending().map(\.kind) == [.update])
        #expect(try String(contentsOfFile: copyPath, encoding: .utf8).contains(people[2].email))
        // One line an edit, no blank ones between.
        #expect(!(try String(contentsOfFile: outbox.path, encoding: .utf8)).contains("\n\n"))
    }

    @Test("an offline save leaves the copy's modification time alone: the title's 'offline as of' is when the server was read")
    func copyTimeKept() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let people = try Self.people()
        let copyPath = folder.path + "/copy.jsonl"
        try people.map(DirectoryExporter(format: .json).jsonLine).joined().write(toFile: copyPath, atomically: true, encoding: .utf8)
        let read = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: read], ofItemAtPath: copyPath)
        let editing = OutboxEditing(outbox: Outbox(folder: folder, targetName: "postgres://ann@db/hr", table: "people"), copyPath: copyPath)
        try editing.update(recordID: people[0].id, changes: [try FieldCheck.change(from: "email=ann@new.test")], base: people[0])
        #expect(try String(contentsOfFile: copyPath, encoding: .utf8).contains("ann@new.test"))
        #expect(try FileManager.default.attributesOfItem(atPath: copyPath)[.modificationDate] as? Date == read)
    }
}

/// A server that applies what it is sent, remembering operation ids, and
/// refuses as it is told to.
private final class FakeServer: OutboxDestination, @unchecked Sendable {
    var applied: [String] = []
    var refusals: [String: EditFailure] = [:]
    var lostAfter = Int.max

    func send(_ operation: RecordOperation, operationID: String, base: Person?, deleting: [Person]) throws(EditFailure) -> Bool {
        if applied.count >= lostAfter { throw EditFailure(.failed, "the connection to the server was lost") }
        let person: String = switch operation {
        case .update(let id, _), .add(let id, _), .setManager(let id, _): id
        case .delete(let ids): ids.first ?? ""
        case .restore: ""
        }
        if let refusal = refusals[person] { throw refusal }
        if applied.contains(operationID) { return false }
        applied.append(operationID)
        return true
    }
}

@Suite("Sending the outbox")
struct OutboxSenderTests {
    private static func outbox() -> Outbox {
        Outbox(folder: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-state-\(UUID().uuidString)"),
               targetName: "postgres://ann@db/hr", table: "people")
    }

    /// A person of `_id` "id<index>", as a directory file holds them.
    private static func person(_ index: Int, email: String) throws -> Person {
        let (repository, everyone) = try Fixtures.repository(json: Fixtures.array([Fixtures.record(first: "P\(index)", email: email, index: index)]))
        return try #require(repository.everyoneAtOnce(in: everyone).first)
    }

    private static func update(_ index: Int, email: String, base: String) throws -> OutboxOperation {
        OutboxOperation(kind: .update, person: "id\(index)", base: try person(index, email: base),
                        changes: [try FieldCheck.change(from: "email=\(email)")])
    }

    @Test("in order, once each: a conflict holds back that person's later edits, composed for the conflict screen; the rest go on")
    func conflictHoldsOnlyThatPerson() throws {
        let outbox = Self.outbox()
        defer { try? FileManager.default.removeItem(atPath: (outbox.path as NSString).deletingLastPathComponent) }
        let operations = [try Self.update(1, email: "a1@x.test", base: "a0@x.test"), try Self.update(2, email: "b1@x.test", base: "b0@x.test"),
                          try Self.update(1, email: "a2@x.test", base: "a1@x.test"),
                          OutboxOperation(kind: .add, person: "c", base: nil, changes: [try FieldCheck.change(from: "first=C")])]
        #expect(outbox.append(operations) == nil)
        let server = FakeServer()
        let theirs = try Self.person(1, email: "a.server@x.test")
        server.refusals["id1"] = EditFailure(.conflict, "changed meanwhile: email", theirs: theirs)
        let report = OutboxSender.send(outbox, to: server)
        #expect(server.applied == [operations[1].id, operations[3].id])
        #expect(report.sent == 2 && report.held.count == 1 && report.stopped == nil)
        let held = try #require(report.held.first)
        #expect(held.base.email == "a0@x.test" && held.theirs == theirs)
        #expect(held.changes == [try FieldCheck.change(from: "email=a2@x.test")], "the later edit on top of the first")
        #expect(held.operations == [operations[0].id, operations[2].id])
        #expect(outbox.pending() == [operations[0], operations[2]], "held edits stay until the conflict screen settles them")
        #expect(report.unsent == ["id1"])
        #expect(report.summary == "2 offline edits sent; 1 person changed on the server meanwhile: choose on the conflict screen")

        // Sent again (as after a reply lost): recognised, not applied twice.
        server.refusals = [:]
        #expect(OutboxSender.send(outbox, to: server).sent == 2)
        #expect(OutboxSender.send(outbox, to: server).isEmpty)
        #expect(server.applied.count == 4)
    }

    @Test("an add the server refuses (the _id is taken) is said and crossed off; the edits after it go on")
    func refusedAddDoesNotBlock() throws {
        let outbox = Self.outbox()
        defer { try? FileManager.default.removeItem(atPath: (outbox.path as NSString).deletingLastPathComponent) }
        let operations = [OutboxOperation(kind: .add, person: "id1", base: nil, changes: [try FieldCheck.change(from: "first=A")]),
                          try Self.update(2, email: "p2.new@x.test", base: "p2@x.test")]
        #expect(outbox.append(operations) == nil)
        let server = FakeServer()
        server.refusals["id1"] = EditFailure(.conflict, "table people: a person already has _id id1")
        let report = OutboxSender.send(outbox, to: server)
        #expect(report.sent == 1 && report.stopped == nil && report.refused == ["not sent: the add of A (someone has that _id)"])
        #expect(report.summary == "not sent: the add of A (someone has that _id); 1 offline edit sent", "what did not go first")
        #expect(outbox.pending().isEmpty)
    }

    @Test("an outbox read through a link, owned by another user or writable by others is never sent; the refusal names it")
    func neverReadThroughALink() throws {
        let outbox = Self.outbox()
        let folder = (outbox.path as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Someone else's edits, well formed, where the link leads.
        let planted = Outbox(folder: URL(fileURLWithPath: folder), targetName: "postgres://eve@db/hr", table: "people")
        #expect(planted.append([try Self.update(1, email: "eve@evil.test", base: "p1@x.test")]) == nil)
        #expect(symlink(planted.path, outbox.path) == 0)
        let server = FakeServer()
        var report = OutboxSender.send(outbox, to: server)
        #expect(server.applied.isEmpty, "no edit read through the link reaches the server")
        #expect(report.refused == ["not sent: edits made offline (the outbox \(outbox.path) is a symbolic link, never followed)"])
        #expect(outbox.pending().isEmpty && outbox.unsent().count == 0)
        #expect(outbox.remove(["x"]) == "it is a symbolic link, never followed")
        #expect(planted.pending().count == 1, "what the link leads to is untouched")
        // A regular file, but one others could have written, or another user's.
        #expect(unlink(outbox.path) == 0)
        #expect(rename(planted.path, outbox.path) == 0)
        #expect(chmod(outbox.path, 0o666) == 0)
        report = OutboxSender.send(outbox, to: server)
        #expect(server.applied.isEmpty)
        #expect(report.refused == ["not sent: edits made offline (the outbox \(outbox.path) may be written by other users (mode 666))"])
        #expect(outbox.append([try Self.update(2, email: "p2.new@x.test", base: "p2@x.test")]) == "it may be written by other users (mode 666)")
        #expect(chmod(outbox.path, 0o600) == 0)
        if geteuid() == 0 {
            #expect(chown(outbox.path, 4242, 4242) == 0)
            #expect(OutboxSender.send(outbox, to: server).refused
                    == ["not sent: edits made offline (the outbox \(outbox.path) belongs to another user (uid 4242))"])
            #expect(server.applied.isEmpty)
            #expect(chown(outbox.path, geteuid(), getegid()) == 0)
        }
        #expect(OutboxSender.send(outbox, to: server).sent == 1, "the same file, private again, is sent")
    }

    @Test("an edit that, on top of someone's change meanwhile, would leave the person without a name is said and crossed off, never retried for ever")
    func namelessRefusedForGood() throws {
        let outbox = Self.outbox()
        defer { try? FileManager.default.removeItem(atPath: (outbox.path as NSString).deletingLastPathComponent) }
        let operations = [OutboxOperation(kind: .update, person: "id1", base: try Self.person(1, email: "p1@x.test"),
                                          changes: [try FieldCheck.change(from: "last=")]),
                          try Self.update(2, email: "p2.new@x.test", base: "p2@x.test")]
        #expect(outbox.append(operations) == nil)
        let server = FakeServer()
        server.refusals["id1"] = EditFailure(.invalid, "table people: a first or last name is needed; nothing changed")
        let report = OutboxSender.send(outbox, to: server)
        #expect(report.sent == 1 && report.stopped == nil)
        #expect(report.refused == ["not sent: P1 Lovelace's edit (a first or last name is needed)"])
        #expect(outbox.pending().isEmpty)
    }

    @Test("a lost connection stops the sending and keeps what is left; a person deleted meanwhile is said and crossed off")
    func stopsAndRefuses() throws {
        let outbox = Self.outbox()
        defer { try? FileManager.default.removeItem(atPath: (outbox.path as NSString).deletingLastPathComponent) }
        let operations = try (1...4).map { try Self.update($0, email: "p\($0).new@x.test", base: "p\($0)@x.test") }
        #expect(outbox.append(operations) == nil)
        let server = FakeServer()
        server.refusals["id1"] = EditFailure(.conflict, "table people: _id id1 was deleted by someone else; nothing changed")
        server.lostAfter = 1
        let report = OutboxSender.send(outbox, to: server)
        #expect(report.sent == 1 && report.refused == ["not sent: P1 Lovelace's edit (someone deleted them meanwhile)"], "by name, not _id")
        #expect(report.stopped == "the connection to the server was lost")
        #expect(report.unsent == ["id3", "id4"])
        #expect(outbox.pending() == Array(operations[2...]))
    }
}
