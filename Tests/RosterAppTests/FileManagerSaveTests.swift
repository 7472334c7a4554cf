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
}
