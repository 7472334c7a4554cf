import Foundation
import Testing

/// What the status line says, in the real binary in tmux at 80x24 and
/// 60x15: the reason first and a long file name shortened (never the
/// reason), the place back at the next key, the editor's failure in the
/// shell's words, who a delete would take, and what the title counts.
@Suite("End to end: messages give the reason first", .serialized, .blockingWork)
struct MessagesEndToEndTests {
    enum Size: String, CaseIterable, CustomTestStringConvertible {
        case standard = "80x24", small = "60x15"
        var rows: Int { self == .standard ? 24 : 15 }
        var columns: Int { self == .standard ? 80 : 60 }
        var testDescription: String { rawValue }
    }

    /// A copy of the bundled directory deep in folders of long names.
    static func deepCopy() throws -> (file: String, folder: String) {
        let folder = NSTemporaryDirectory() + "roster-e2e-messages-\(UUID().uuidString)"
        let deep = folder + "/a/folder/with/a/long/name/for/the/status/line"
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: EditingEndToEndTests.bundled, toPath: deep + "/people.json")
        return (deep + "/people.json", folder)
    }

    static func open(_ command: String, size: Size) throws -> TmuxSession {
        let session = try TmuxSession(command, rows: size.rows, columns: size.columns)
        #expect(session.waitFor(text: "1/400"))
        return session
    }

    @Test("a file that changed and cannot be read again: what happened and why first, never its long path; the place is back at the next key",
          arguments: Size.allCases)
    func rereadFailure(size: Size) throws {
        let (file, folder) = try Self.deepCopy()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try Self.open(TmuxSession.shellQuoted(rosterBinary) + " " + TmuxSession.shellQuoted(file), size: size)
        try "[{\"name\": ".write(toFile: file + ".new", atomically: false, encoding: .utf8)
        rename(file + ".new", file)
        #expect(session.waitFor("the message") { $0.contains("changed, but could not be read again") })
        let status = session.lines()[size.rows - 1]
        #expect(status.hasPrefix(" changed, but could not be read again: line "), "the reason first, the path last: \(status)")
        #expect(!status.contains("/a/folder/with"), "\(status)")
        session.send("j")
        #expect(session.waitFor(text: "2/400"), "the position is back at the next key")
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("v with an editor that is not installed: 'command not found', and where the editor came from", arguments: Size.allCases)
    func editorNotFound(size: Size) throws {
        let file = try EditingEndToEndTests.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try Self.open("env -u VISUAL EDITOR=nanox \(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(file))",
                                    size: size)
        session.send("v")
        #expect(session.waitFor(text: "nanox: command not found (from $EDITOR"))
        let status = session.lines()[size.rows - 1]
        if size == .standard {
            #expect(status.hasPrefix(" 1/400 · nanox: command not found (from $EDITOR; set VISUAL or EDITOR)"),
                    "a message that fits beside the position keeps it: \(status)")
        } else {
            #expect(status.hasPrefix(" nanox: command not found"), "\(status)")
        }
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("D on three marked people names them, as many as the line holds; the title counts companies, not the people without one",
          arguments: Size.allCases)
    func deleteNamesWho(size: Size) throws {
        let file = try EditingEndToEndTests.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try Self.open("\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(file))", size: size)
        if size == .standard {
            #expect(session.lines()[0].hasSuffix("400 people · 33 companies · 5 with no company"), "\(session.lines()[0])")
        }
        session.send("m", "m", "m", "D")
        #expect(session.waitFor(text: "Delete 3 people: "))
        let question = session.lines()[size.rows - 1]
        let expected = size == .standard ? " Delete 3 people: Frank Dillon, José Garza and Tammy Noble? (y/n)"
            : " Delete 3 people: Frank Dillon and 2 more? (y/n)"
        #expect(question.hasPrefix(expected), "\(question)")
        session.send("n")
        #expect(session.waitFor(text: "nobody deleted"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
