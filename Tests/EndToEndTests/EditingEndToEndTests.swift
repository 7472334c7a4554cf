import Foundation
import Testing

/// `E` in the real binary, in tmux: the form, the save, the list after it,
/// and the file as a diff would show it.
@Suite("End to end: editing a person on screen", .serialized, .blockingWork)
struct EditingEndToEndTests {
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/people.json")
        .standardized.path

    /// A copy of the bundled directory of its own.
    static func copy() throws -> String {
        let path = NSTemporaryDirectory() + "roster-e2e-edit-\(UUID().uuidString).json"
        try FileManager.default.copyItem(atPath: bundled, toPath: path)
        return path
    }

    /// Runs `test` on a copy of the bundled directory, a folder for an
    /// editor script's traces, and Roster on the copy in tmux (its first
    /// frame drawn) with `EDITOR` the shell script `editor` makes of that
    /// folder; the copy and the folder are removed after.
    static func withEditor(_ editor: (_ folder: String) -> String,
                           _ test: (_ file: String, _ folder: String, TmuxSession) throws -> Void) throws {
        let folder = NSTemporaryDirectory() + "roster-e2e-editor-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = try copy()
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: folder)
        }
        let script = folder + "/editor.sh"
        try editor(folder).write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let session = try TmuxSession("env EDITOR=\(TmuxSession.shellQuoted(script)) \(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(file))")
        #expect(session.waitFor(text: "1/400"))
        try test(file, folder, session)
    }

    /// Roster on `file` in tmux, its first frame drawn.
    static func open(_ file: String, rows: Int = 24, columns: Int = 80) throws -> TmuxSession {
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(file))", rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/400"))
        return session
    }

    /// The lines of `edited` that differ from the bundled file's.
    static func changedLines(_ edited: String) throws -> [String] {
        let before = try String(contentsOfFile: bundled, encoding: .utf8).components(separatedBy: "\n")
        let after = try String(contentsOfFile: edited, encoding: .utf8).components(separatedBy: "\n")
        #expect(before.count == after.count)
        return zip(before, after).filter { $0 != $1 }.map(\.1)
    }

    @Test("at 80x24: E, Tab to the email, a bad one is explained, a good one saved; the list shows it at the same person; one line of the file changed")
    func editAndSave() throws {
        let file = try Self.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try Self.open(file)
        session.send("j", "j", "E")
        #expect(session.waitFor(text: "Roster — Edit Tammy Noble"))
        #expect(session.waitFor(text: "Email           tammy.noble@comgy.co.uk"))
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type("tammy.example")
        #expect(session.waitFor(text: "↳ expected name@domain"))
        session.send("Enter")
        #expect(session.waitFor(text: "not saved: fix email first"))
        session.send("C-u")
        session.type("tammy@example.org")
        session.send("Enter")
        #expect(session.waitFor(text: "saved to roster-e2e-edit-"))
        session.send("k", "j")  // the message shows for one frame
        #expect(session.waitFor(text: "3/400 · COMGY"))
        #expect(session.screen().contains("Tammy Noble                  tammy@example.org"))
        #expect(try Self.changedLines(file) == ["  \"email\": \"tammy@example.org\","])
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("E from the person's screen opens the form at the field the cursor is on; the save comes back to that screen, showing the new value; one that leaves the search says so")
    func landing() throws {
        let file = try Self.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Wide, so that the status line has room for the position beside a message.
        let session = try Self.open(file, columns: 160)
        session.send("j", "Enter")
        #expect(session.waitFor(text: "Roster — José Garza"))
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit José Garza"))
        // The form opens at the field the person's screen's cursor is on: the email.
        session.send("C-u")
        session.type("jose@landed.example")
        session.send("Enter")
        #expect(session.waitFor("the person's screen, saved") { $0.contains("Roster — José Garza") && $0.contains("jose@landed.example") })
        session.send("Escape")
        #expect(session.waitFor(text: "Last name ↑"), "back on the list (the person's screen says 2/400 too)")
        session.send("/")
        session.type("garza")
        session.send("Enter")
        #expect(session.waitFor(text: "filter: garza"))
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit José Garza"))
        session.send("Tab", "C-u")
        session.type("Smith")
        session.send("Enter")
        #expect(session.waitFor(text: "they no longer match the search"))
        #expect(session.waitFor("nine Garzas left") { Self.position(in: $0)?.1 == 9 })
        // Another who leaves the search, from the third row: the selection stays on
        // that row (their neighbour now), not the top of the list.
        session.send("j", "j")
        #expect(session.waitFor("the third row") { Self.position(in: $0)?.0 == 3 })
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit"))
        session.send("Tab", "C-u")
        session.type("Smith")
        session.send("Tab", "Tab", "C-u")
        session.type("someone@example.org")
        session.send("Enter")
        #expect(session.waitFor(text: "they no longer match the search"))
        #expect(session.waitFor("the row they were on") { Self.position(in: $0).map { $0 == (3, 8) } ?? false })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    /// The status line's "row/count" (without thousands separators, as on
    /// a small list).
    static func position(in screen: String) -> (Int, Int)? {
        guard let status = screen.split(separator: "\n").last(where: { $0.contains(" · ") }),
              let match = status.firstMatch(of: /(\d+)\/(\d+) ·/) else { return nil }
        return (Int(match.1)!, Int(match.2)!)
    }

    @Test("from the person's screen E edits them too; Esc with a change asks, y throws it away and nothing is written")
    func fromDetailAndCancel() throws {
        let file = try Self.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(file))", rows: 12, columns: 50)
        #expect(session.waitFor(text: "1/400"))
        session.send("Enter")
        #expect(session.waitFor(text: "Frank Dillon"))
        session.send("E")
        #expect(session.waitFor(text: "Edit Frank Dillon"))
        session.type("x")
        session.send("Escape")
        #expect(session.waitFor(text: "Throw away 1 change? (y/n)"))
        session.send("y")
        // Back on the person's screen the editor was opened from.
        #expect(session.waitFor("the person's screen, unchanged") { $0.contains("frank.dillon@comgy.io") && !$0.contains("Throw away") })
        session.send("Escape")
        #expect(session.waitFor(text: "1/400"))
        #expect(try Self.changedLines(file).isEmpty)
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("over SQLite: a new company saved from the form shows as its own section, the person selected in it, and --list agrees")
    func overSQLite() throws {
        let database = NSTemporaryDirectory() + "roster-e2e-edit-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: database) }
        #expect(try runRoster(["import", Self.bundled, "--into", database]).status == 0)
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(database))")
        #expect(session.waitFor(text: "400 people · 33 companies"))
        session.send("j", "E")
        #expect(session.waitFor(text: "Edit José Garza"))
        session.send("Tab", "Tab", "C-u")
        session.type("Aardvark Inc")
        session.send("Enter")
        #expect(session.waitFor(text: "400 people · 34 companies"))
        #expect(session.waitFor(text: "saved to roster-e2e-edit-"))
        session.send("j", "k")  // the message shows for one frame
        #expect(session.waitFor(text: "1/400 · Aardvark Inc"))
        #expect(try runRoster(["--list", database, "--filter", "company:aardvark"]).output == "Aardvark Inc (1 person)\n  José Garza\tjose.garza@comgy.org\t$2,454.99\n")
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("over SQLite with a search on, a save of someone who still matches says saved, never that they left the search")
    func overSQLiteSearching() throws {
        let database = NSTemporaryDirectory() + "roster-e2e-edit-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: database) }
        #expect(try runRoster(["import", Self.bundled, "--into", database]).status == 0)
        let session = try TmuxSession("\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(database))")
        #expect(session.waitFor(text: "400 people · 33 companies"))
        session.send("/")
        session.type("comzen")
        session.send("Enter")
        #expect(session.waitFor(text: "filter: comzen"))
        session.send("j", "E")
        #expect(session.waitFor(text: "Roster — Edit "))
        session.send("Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "C-u")
        session.type("57")
        session.send("Enter")
        #expect(session.waitFor(text: "saved to roster-e2e-edit-"))
        #expect(!session.waitFor("a false word", timeout: 2, quietly: true) { $0.contains("no longer match") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("D asks, n deletes nobody, y deletes the marked people from the file, the selected one staying selected")
    func deleteMarked() throws {
        let file = try Self.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try Self.open(file)
        session.send("D")
        #expect(session.waitFor(text: "Delete Frank Dillon? (y/n)"))
        session.send("n")
        #expect(session.waitFor(text: "nobody deleted"))
        session.send("j", "m", "m", "D")
        #expect(session.waitFor(text: "Delete 2 people: José Garza and Tammy Noble? (y/n)"))
        session.send("y")
        #expect(session.waitFor(text: "398 people · 33 companies"))
        #expect(session.waitFor(text: "deleted from roster-e2e-edit-"))
        session.send("j", "k")
        #expect(session.waitFor(text: "2/398 · COMGY"))
        #expect(session.screen().contains("> Agnes Sanchez") || session.screen().contains("Agnes Sanchez"))
        let list = try runRoster(["--list", file, "--filter", "company:comgy"]).output
        #expect(!list.contains("José Garza") && !list.contains("Tammy Noble") && list.hasPrefix("COMGY (4 people)"), "\(list)")
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a adds a person in the selected person's company; the list shows them selected")
    func addPerson() throws {
        let file = try Self.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try Self.open(file)
        session.send("a")
        #expect(session.waitFor(text: "New person in COMGY"))
        session.type("Ada")
        session.send("Tab")
        session.type("Byron")
        session.send("Enter")
        #expect(session.waitFor(text: "401 people · 33 companies"))
        session.send("j", "k")
        #expect(session.waitFor(text: "1/401 · COMGY"))
        #expect(try runRoster(["--list", file, "--filter", "company:comgy"]).output.hasPrefix("COMGY (7 people)\n  Ada Byron\t\t\n"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("v: $EDITOR on the record; a try that does not read reopens it with the reason at the top; the next saves")
    func externalEditor() throws {
        // The first run breaks the JSON; the second keeps what it was given and fixes it, with a new email.
        try Self.withEditor({ folder in """
        #!/bin/sh
        if [ ! -f '\(folder)/first' ]; then touch '\(folder)/first'; sed -i 's/"age": \\([0-9]*\\),/"age": \\1/' "$1"
        else cp "$1" '\(folder)/second'; sed -i 's/"age": \\([0-9]*\\)$/"age": \\1,/; s/"email": "[^"]*"/"email": "v@example.org"/' "$1"; fi
        """ }) { file, folder, session in
            session.send("j", "v")
            #expect(session.waitFor(text: "saved to roster-e2e-edit-"))
            let second = try String(contentsOfFile: folder + "/second", encoding: .utf8)
            #expect(second.hasPrefix("// not saved: the record: line "), "\(second.prefix(120))")
            #expect(try Self.changedLines(file) == ["  \"email\": \"v@example.org\","])
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
    }

    @Test("v: an editor that leaves bytes that are not UTF-8 is reopened on the text, the place said; a deleted edit file says so")
    func externalEditorBadBytes() throws {
        // The first run puts a byte that is no UTF-8 in the email; the second keeps what it was given and fixes the email.
        try Self.withEditor({ folder in """
        #!/bin/sh
        if [ ! -f '\(folder)/first' ]; then touch '\(folder)/first'; sed -i 's/"email": "[^"]*"/"email": "bad\\xffbyte@example.org"/' "$1"
        elif [ ! -f '\(folder)/second' ]; then cp "$1" '\(folder)/second'; sed -i 's/"email": "[^"]*"/"email": "v@example.org"/' "$1"
        else rm "$1"; fi
        """ }) { file, folder, session in
            session.send("j", "v")
            #expect(session.waitFor(text: "saved to roster-e2e-edit-"))
            let second = try String(contentsOfFile: folder + "/second", encoding: .utf8)
            #expect(second.split(separator: "\n").first?.contains("is not UTF-8 (it shows as \u{FFFD})") == true, "\(second.prefix(120))")
            #expect(second.contains("\"email\": \"bad\u{FFFD}byte@example.org\""), "the text is kept")
            let line = try #require(second.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("bad\u{FFFD}byte") })
            #expect(second.hasPrefix("// not saved: line \(line + 1), byte 16 is not UTF-8"), "the place in the file as the editor left it")
            #expect(try Self.changedLines(file) == ["  \"email\": \"v@example.org\","])
            // The third run deletes the file: said as such, nothing saved.
            session.send("v")
            #expect(session.waitFor(text: "the edit file was deleted; nothing saved"))
            #expect(try Self.changedLines(file) == ["  \"email\": \"v@example.org\","])
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
    }

    @Test("U takes back the last change: an edit, and a delete, leave the file as it was, byte for byte")
    func undo() throws {
        let file = try Self.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try Self.open(file)
        session.send("U")
        #expect(session.waitFor(text: "nothing to undo"))
        session.send("j", "E", "Tab", "Tab", "Tab", "C-u")
        session.type("u@example.org")
        session.send("Enter")
        #expect(session.waitFor(text: "saved to roster-e2e-edit-"))
        session.send("U")
        #expect(session.waitFor(text: "undone: José Garza's email put back"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == String(contentsOfFile: Self.bundled, encoding: .utf8))
        session.send("D", "y")
        #expect(session.waitFor(text: "399 people"))
        session.send("U")
        #expect(session.waitFor(text: "undone: José Garza added back"))
        #expect(session.waitFor(text: "400 people · 33 companies"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == String(contentsOfFile: Self.bundled, encoding: .utf8),
                "the record's own text, where it was")
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a form opened while a save's re-read runs is never pulled away when it lands: what is typed there is saved too")
    func formOpenedDuringTheReread() throws {
        // Big enough that reading it again takes a moment.
        let path = NSTemporaryDirectory() + "roster-e2e-big-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let records = (0..<100_000).map { n in
            #"{"_id": "p\#(n)", "name": {"first": "F\#(n)", "last": "L\#(n)"}, "company": "C\#(n % 500)", "email": "p\#(n)@x.io"}"#
        }
        try ("[\n" + records.joined(separator: ",\n") + "\n]\n").write(toFile: path, atomically: false, encoding: .utf8)
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " " + TmuxSession.shellQuoted(path))
        #expect(session.waitFor(text: "1/100,000", timeout: 120))
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit"))
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type("first@save.example")
        session.send("Enter")
        #expect(session.waitFor(text: "saved; reading it again"))
        session.send("j", "E")
        #expect(session.waitFor(text: "Roster — Edit"))
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type("second@save.example")
        #expect(session.waitFor(text: "second@save.example"))
        // The re-read lands meanwhile: the form stays as typed.
        #expect(!session.waitFor("the form pulled away", timeout: 5, quietly: true) { !$0.contains("second@save.example") })
        session.send("Enter")
        #expect(session.waitFor(text: "saved to roster-e2e-big-", timeout: 120))
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("first@save.example"))
        #expect(saved.contains("second@save.example"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("j typed while a save is read again: the list stays where j went, and the next E edits that person")
    func movedDuringTheReread() throws {
        let path = NSTemporaryDirectory() + "roster-e2e-moved-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let records = (0..<100_000).map { n in
            #"{"_id": "p\#(n)", "name": {"first": "F\#(n)", "last": "L\#(n)"}, "company": "C\#(n % 500)", "email": "p\#(n)@x.io"}"#
        }
        try ("[\n" + records.joined(separator: ",\n") + "\n]\n").write(toFile: path, atomically: false, encoding: .utf8)
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " " + TmuxSession.shellQuoted(path))
        #expect(session.waitFor(text: "1/100,000", timeout: 120))
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit"))
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type("first@save.example")
        session.send("Enter")
        #expect(session.waitFor(text: "saved; reading it again"))
        session.send("j")
        #expect(session.waitFor(text: "saved to roster-e2e-moved-", timeout: 120))
        // The status bar says the message, not the position: E says whom the selection is on.
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit"))
        #expect(session.screen().contains("Edit F1000 L1000"), "the second person in the order, where j went, not the person saved")
        session.send("Escape", "q")
        #expect(session.exitStatus() == 0)
    }

    @Test("with the form changed, a terminal too small says so and q does not quit; grown again, the form is as typed")
    func tooSmallKeepsTheForm() throws {
        let file = try Self.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try Self.open(file)
        session.send("E")
        #expect(session.waitFor(text: "Edit Frank Dillon"))
        session.type("x")
        #expect(session.waitFor(text: "• First name      Frankx"))
        session.resize(rows: 8, columns: 30)
        #expect(session.waitFor(text: "unsaved changes: enlarge it"))
        session.send("q")
        session.resize(rows: 24, columns: 80)
        #expect(session.waitFor(text: "• First name      Frankx"))
        #expect(!session.screen().contains("roster exited"))
        session.send("Escape", "y", "q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a company's list (from the overview) edits as the main list does")
    func fromACompanysList() throws {
        let file = try Self.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try Self.open(file)
        session.send("Tab")
        #expect(session.waitFor(text: "1/34"))
        session.send("Enter")
        #expect(session.waitFor(text: "› COMGY"))
        session.send("E")
        #expect(session.waitFor(text: "Edit Frank Dillon"))
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type("frank@example.org")
        session.send("Enter")
        #expect(session.waitFor(text: "saved to roster-e2e-edit-"))
        #expect(try Self.changedLines(file) == ["  \"email\": \"frank@example.org\","])
        // Back in the company's list, at Frank; Esc goes to the overview as before.
        #expect(session.waitFor("the company's list again") { $0.contains("› COMGY") && $0.contains("frank@example.org") })
        session.send("j", "k")  // the message shows for one frame
        #expect(session.waitFor(text: "1/6 · COMGY"))
        session.send("Escape")
        #expect(session.waitFor(text: ": companies"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("v: quitting without saving after a try that did not read saves nothing and does not reopen the editor")
    func externalEditorGivenUp() throws {
        // Breaks the JSON the first time; then quits without writing, as :q! does.
        try Self.withEditor({ folder in """
        #!/bin/sh
        echo run >> '\(folder)/runs'
        if [ ! -f '\(folder)/first' ]; then touch '\(folder)/first'; sed -i 's/"age": \\([0-9]*\\),/"age": \\1/' "$1"; fi
        """ }) { file, folder, session throws in
            session.send("v")
            #expect(session.waitFor(text: "nothing saved"))
            #expect(try String(contentsOfFile: folder + "/runs", encoding: .utf8) == "run\nrun\n")
            #expect(try Self.changedLines(file).isEmpty)
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
    }

    @Test("standard input says at once why it is not edited")
    func readOnlyStandardInput() throws {
        let piped = try TmuxSession("cat \(TmuxSession.shellQuoted(Self.bundled)) | \(TmuxSession.shellQuoted(rosterBinary)) -")
        #expect(piped.waitFor(text: "1/400"))
        piped.send("E")
        #expect(piped.waitFor(text: "standard input cannot be edited"))
    }

    @Test("the sample is titled as the sample, and E, v, a, D say in one whole line how to get a copy to edit", arguments: [(24, 80), (15, 60)])
    func readOnlySample(rows: Int, columns: Int) throws {
        // Started as a path, as make run starts it: the command is named so (roster is not on PATH).
        let folder = (rosterBinary as NSString).deletingLastPathComponent
        let sample = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && ./roster", rows: rows, columns: columns)
        #expect(sample.waitFor(text: "1/400"))
        let title = columns >= 80 ? " Roster — sample directory (read-only)" : " Roster — sample (read-only)"
        #expect(sample.lines().first?.hasPrefix(title) == true, "\(sample.lines().first ?? "")")
        let reason = "read-only; to edit: ./roster init people.json"
        for (step, key) in ["E", "v", "a", "D"].enumerated() {
            // A move clears the last message, so each key's own is seen.
            sample.send("j")
            #expect(sample.waitFor(text: "\(step + 2)/400"))
            #expect(!sample.screen().contains(reason))
            sample.send(key)
            #expect(sample.waitFor("\(key)'s whole reason on the status line") { screen in
                screen.components(separatedBy: "\n").last { !$0.isEmpty }?.contains(reason) == true
            })
        }
        sample.send("q")
        #expect(sample.exitStatus() == 0)
    }
}
