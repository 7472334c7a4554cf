import Foundation
import Testing
import RosterCore
import RosterStore
@testable import RosterApp

/// A manager change saved to a file as every file edit is (`FileSave`):
/// refused, the file is not touched at all; accepted, it says what it did.
@Suite("Saving a file's manager")
struct FileManagerSaveTests {
    static let text = """
        [
          {"_id": "a", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.io"},
          {"_id": "b", "name": {"first": "Bob", "last": "Smith"}, "email": "bob@x.io", "manager": "a"}
        ]

        """

    @Test("a loop or a manager nobody is: refused in words, the file as it was (its bytes, its inode, its time)")
    func refusedWritesNothing() throws {
        let path = NSTemporaryDirectory() + "roster-manager-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        let before = try #require(FileIdentity(path: path))
        for (reference, reason) in [("b", "Bob Smith reports to Ada Lovelace"), ("nobody", "no one here has that id, DN, email or name")] {
            var heard: RecordFile.ManagerSetting?
            let outcome = FileSave.save(.setManager(id: "a", reference: reference), to: path, format: nil, backup: false,
                                        managerSet: { heard = $0 })
            guard case .refused(let message) = outcome else {
                Issue.record("saved: \(outcome)")
                return
            }
            #expect(message.hasPrefix("\(path): Ada Lovelace cannot report to ") && message.hasSuffix("\(reason); nothing changed"))
            #expect(heard == nil)
        }
        #expect(FileIdentity(path: path) == before)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.text)
    }

    @Test("accepted: written, and the reference before and after heard; the same again writes nothing")
    func savedAndUnchanged() throws {
        let path = NSTemporaryDirectory() + "roster-manager-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        var heard: RecordFile.ManagerSetting?
        #expect(FileSave.save(.setManager(id: "b", reference: ""), to: path, format: nil, backup: false, managerSet: { heard = $0 }) == .saved)
        #expect(heard == RecordFile.ManagerSetting(name: "Bob Smith", before: "a", after: nil))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.text.replacingOccurrences(of: ", \"manager\": \"a\"", with: ""))
        let written = try #require(FileIdentity(path: path))
        #expect(FileSave.save(.setManager(id: "b", reference: " "), to: path, format: nil, backup: false, managerSet: { heard = $0 }) == .saved)
        #expect(heard?.changesNothing == true && FileIdentity(path: path) == written)
    }

    @Test("the form's editing reads the manager as the file holds it now, sets it through the check; a CSV without the column keeps none")
    func formEditing() throws {
        let path = NSTemporaryDirectory() + "roster-manager-\(UUID().uuidString).json"
        let csv = NSTemporaryDirectory() + "roster-manager-\(UUID().uuidString).csv"
        defer { for file in [path, csv] { try? FileManager.default.removeItem(atPath: file) } }
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        try "_id,first,last\na,Ada,Lovelace\n".write(toFile: csv, atomically: false, encoding: .utf8)
        let managers = try #require(FileEditing(path: path, format: nil).managers)
        #expect(try managers.manager(of: "b") == .reference("a") && managers.manager(of: "a") == .reference(nil))
        #expect(throws: EditFailure.self) { try managers.setManager(of: "a", to: "b") }
        try managers.setManager(of: "b", to: "")
        #expect(try managers.manager(of: "b") == .reference(nil))
        #expect(try FileEditing(path: csv, format: nil).managers?.manager(of: "a") == .notKept)
    }

    @Test("U after a manager change puts the manager back; set again by someone else meanwhile, it is left as it is")
    func undone() throws {
        let path = NSTemporaryDirectory() + "roster-manager-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        let editing = FileEditing(path: path, format: nil)
        let managers = try #require(editing.managers)
        var bob = Person(index: 1, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }
        (bob.id, bob.firstName, bob.lastName) = ("b", "Bob", "Smith")
        try managers.setManager(of: "b", to: "")
        let change = try #require(UndoableChange.with(manager: (before: "a", after: ""), of: bob, fields: nil))
        #expect(change.done == "Bob Smith's manager put back" && change.selectedAfterUndo == "b")
        try change.undo(through: editing)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.text, "as it was, byte for byte")

        // Taken out again, then set by someone else before U: theirs stays.
        try managers.setManager(of: "b", to: "")
        try FileManagerSaveTests.text.replacingOccurrences(of: "\"manager\": \"a\"", with: "\"manager\": \"ada@x.io\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let theirs = try String(contentsOfFile: path, encoding: .utf8)
        #expect(throws: EditFailure.self) { try change.undo(through: editing) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == theirs)
    }

    @Test("a vCard's and an LDIF file's form holds the fields a card or an entry has (told by name, or by content); a JSON file's every one")
    func fieldsKept() throws {
        let folder = NSTemporaryDirectory() + "roster-kept-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nEND:VCARD\r\n".write(toFile: folder + "/a.vcf", atomically: false, encoding: .utf8)
        try "dn: uid=a,dc=x\nuid: a\ncn: Ada\n".write(toFile: folder + "/people", atomically: false, encoding: .utf8)
        try Self.text.write(toFile: folder + "/p.json", atomically: false, encoding: .utf8)
        let contact: [EditableField] = [.text(.firstName), .text(.lastName), .text(.company), .text(.email), .text(.phone), .text(.address)]
        #expect(FileEditing(path: folder + "/a.vcf", format: nil).fieldsKept == contact)
        #expect(FileEditing(path: folder + "/people", format: nil).fieldsKept == contact, "LDIF told by its first line")
        #expect(FileEditing(path: folder + "/p.json", format: nil).fieldsKept == nil)
    }

    @Test("a pipe named as the file (a shell's <(…)) is not looked into: its bytes stay the loader's")
    func pipeNotRead() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let bytes = Array("BEGIN:VCARD\r\nFN:Ada\r\nEND:VCARD\r\n".utf8)
        #expect(write(ends[1], bytes, bytes.count) == bytes.count)
        close(ends[1])
        let editing = FileEditing(path: "/dev/fd/\(ends[0])", format: nil)
        #expect(editing.fieldsKept == nil && editing.readOnlyReason == nil)
        var read = [UInt8](repeating: 0, count: 256)
        #expect(Array(read[0..<Foundation.read(ends[0], &read, read.count)]) == bytes, "every byte still there")
    }
}
