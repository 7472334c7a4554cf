import Foundation
import RosterSQL
import Testing
import TestServers

/// Another program's change to the file on screen shows by itself, the
/// place kept; never under a form or prompt the user is typing in.
@Suite("End to end: a file changed on disk", .serialized, .blockingWork)
struct FileWatchTests {
    /// `sed -i` of `expressions` on `file`: another program replacing it by rename.
    static func sed(_ expressions: String..., on file: String) throws {
        let sed = Process()
        sed.executableURL = URL(fileURLWithPath: "/bin/sed")
        sed.arguments = ["-i"] + expressions.flatMap { ["-e", $0] } + [file]
        try sed.run()
        sed.waitUntilExit()
        #expect(sed.terminationStatus == 0)
    }

    @Test("sed -i changes the selected person's email: the list shows it without a key, says so, and keeps the selection")
    func changedBySed() throws {
        let file = try EditingEndToEndTests.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try EditingEndToEndTests.open(file)
        session.send("j", "j")
        #expect(session.waitFor(text: "3/400 · COMGY"))
        try Self.sed("s/tammy.noble@comgy.co.uk/tammy@changed.example/", on: file)
        #expect(session.waitFor(text: "tammy@changed.example"))
        #expect(session.waitFor(text: "changed on disk; read again"))
        session.send("k", "j")  // the message shows for one frame
        #expect(session.waitFor(text: "3/400 · COMGY"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("marks stay on the people marked when someone else deletes a person before them (marks go by _id, not by place)")
    func marksFollowPeople() throws {
        let file = try EditingEndToEndTests.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try EditingEndToEndTests.open(file)
        session.send("j", "m")  // José Garza, the second; m moves on to Tammy Noble
        #expect(session.waitFor(text: "3/400 · 1 marked"))
        #expect(session.lines()[4].hasPrefix("● José Garza"))
        // Frank Dillon, the first, is deleted by a script.
        #expect(try runRoster(["delete", file, "d12482a030f9d00c67de36e4"]).status == 0)
        #expect(session.waitFor(text: "399 people"))
        #expect(session.waitFor("José still marked, no one else") { screen in
            let lines = screen.components(separatedBy: "\n")
            return lines.contains { $0.hasPrefix("● José Garza") } && lines.filter { $0.hasPrefix("● ") }.count == 1
        })
        session.send("j", "k")  // the message shows for one frame
        #expect(session.waitFor(text: "1 marked"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("the person's screen follows another program's change by itself: the new value, said, the screen still theirs; Esc at them")
    func personsScreenFollows() throws {
        let file = try EditingEndToEndTests.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try EditingEndToEndTests.open(file)
        session.send("j", "j", "Enter")
        #expect(session.waitFor(text: "tammy.noble@comgy.co.uk"))
        try Self.sed("s/tammy.noble@comgy.co.uk/tammy@changed.example/", on: file)
        #expect(session.waitFor("her screen, with the new email, saying why") { screen in
            screen.hasPrefix(" Roster — Tammy Noble") && screen.contains("tammy@changed.example") && screen.contains("changed on disk; read again")
        })
        session.send("Escape")
        #expect(session.waitFor(text: "3/400 · COMGY"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("someone else deletes the person on screen: the list comes back (from her screen, by itself) at her row, now her neighbour's, not at the top",
          arguments: [false, true])
    func deletedWhileShown(inDetail: Bool) throws {
        let file = try EditingEndToEndTests.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try EditingEndToEndTests.open(file)
        session.send("j", "j", "j", "j")
        #expect(session.waitFor(text: "5/400 · COMGY"))
        if inDetail {
            session.send("Enter")
            #expect(session.waitFor(text: "zoe.sharp@comgy.biz"))
        }
        #expect(try runRoster(["delete", file, "3d99ea73078ac71484308829"]).status == 0)  // Zoë Sharp
        #expect(session.waitFor(text: "399 people"))
        #expect(session.waitFor(text: "5/399 · COMGY"))
        #expect(session.waitFor(text: "changed on disk; read again"), "said, not lost to the move to her row")
        #expect(session.lines().contains { $0.hasPrefix("  Renée Vega") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("two Rosters on one table (SQLite, PostgreSQL): A saves, B shows it without a key, selection kept; A does not read its own save twice",
          arguments: [ConflictEndToEndTests.Kind.sqlite, .postgres])
    func sharedTable(kind: ConflictEndToEndTests.Kind) throws {
        let (database, environment, cleanUp) = try ConflictEndToEndTests.source(kind)
        defer { cleanUp() }
        let a = try ConflictEndToEndTests.openForm(database, environment: environment)
        let b = try TmuxSession("env \(environment)\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(database))")
        #expect(b.waitFor(text: "/400"))
        b.send("j", "j")
        #expect(b.waitFor(text: "3/400"))
        if kind == .postgres {
            // Both Rosters listen (on a connection each, made after the first frame) before A saves.
            let server = try TestPostgres.server()
            // postgres://postgres@/NAME?host=/socket/folder
            let name = String(database.components(separatedBy: "@/").last?.split(separator: "?").first ?? "")
            let deadline = Date().addingTimeInterval(15)
            while try server.listeners(in: name) < 2, Date() < deadline { usleep(50_000) }
            #expect(try server.listeners(in: name) == 2)
        }
        ConflictEndToEndTests.change(a, email: "from.a@example.org")
        #expect(a.waitFor(text: "saved"))
        #expect(b.waitFor(text: "from.a@example.org"), "B shows A's save by itself")
        #expect(b.waitFor(text: "changed in the database; read again"))
        b.send("j", "k")  // the message shows for one frame
        #expect(b.waitFor(text: "3/400"))
        // A's own save is not taken for someone else's.
        #expect(!a.waitFor("read again for nothing", timeout: 1.5, quietly: true) { $0.contains("changed in the database") })
        for session in [a, b] {
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
    }

    @Test("PostgreSQL: B's listening connection is ended while three saves are made; B connects again and shows all three, without a key")
    func catchesUpAfterLosingItsListener() throws {
        let (database, environment, cleanUp) = try ConflictEndToEndTests.source(.postgres)
        defer { cleanUp() }
        let b = try TmuxSession("env \(environment)\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(database))")
        #expect(b.waitFor(text: "/400"))
        let server = try TestPostgres.server()
        let name = String(database.components(separatedBy: "@/").last?.split(separator: "?").first ?? "")
        let deadline = Date().addingTimeInterval(15)
        while try server.listeners(in: name) < 1, Date() < deadline { usleep(50_000) }
        #expect(try server.endListeners(in: name) == 1)
        for (id, email) in [("d12482a030f9d00c67de36e4", "frank@caught.up"), ("af7247c92d019ddfc91742fc", "jose@caught.up"),
                            ("b887fa693025b403d9eaf72b", "tammy@caught.up")] {
            let updated = try runRoster(["update", database, id, "email=\(email)"], environment: ["PGPASSWORD": TestPostgres.password])
            #expect(updated.status == 0, "\(updated.error)")
        }
        #expect(b.waitFor("all three saves shown") { screen in
            ["frank@caught.up", "jose@caught.up", "tammy@caught.up"].allSatisfy { screen.contains($0) }
        })
        #expect(b.screen().contains("1/400"), "the selection kept")
        b.send("q")
        #expect(b.exitStatus() == 0)
    }

    @Test("a change while the form is open leaves the form alone; back on the list it is read again; a save of ours is not read twice")
    func notUnderTheForm() throws {
        let file = try EditingEndToEndTests.copy()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try EditingEndToEndTests.open(file)
        session.send("j", "j", "E")
        #expect(session.waitFor(text: "Roster — Edit Tammy Noble"))
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type("typed@form.example")
        // Shown first (a slow, sanitized build may draw it a moment later), then kept.
        #expect(session.waitFor(text: "typed@form.example"))
        try Self.sed("s/frank.dillon@comgy.io/frank@changed.example/", on: file)
        // The form keeps what was typed, whatever the file does meanwhile.
        #expect(!session.waitFor("the form stays", timeout: 1.5, quietly: true) { !$0.contains("typed@form.example") })
        session.send("Enter")
        #expect(session.waitFor(text: "saved to roster-e2e-edit-"))
        #expect(session.waitFor(text: "frank@changed.example"), "the save read the file again, with sed's change")
        #expect(session.screen().contains("typed@form.example"))
        // Our own save is not taken for another program's change.
        #expect(!session.waitFor("read again for nothing", timeout: 1.5, quietly: true) { $0.contains("changed on disk") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    /// When another program's save follows one of Roster's own: right
    /// after it, and inside the time Roster's own change events and re-read
    /// take (a file's events are gathered for 150 ms; SQLite is asked
    /// twice a second).
    struct FollowingSave: CustomTestStringConvertible, Sendable {
        let kind: ConflictEndToEndTests.Kind
        let milliseconds: Int
        var testDescription: String { "\(kind.rawValue), \(milliseconds) ms after" }
    }

    @Test("another program saves just after Roster's own save: its change shows by itself, never taken for Roster's own",
          arguments: [FollowingSave(kind: .json, milliseconds: 0), FollowingSave(kind: .json, milliseconds: 60),
                      FollowingSave(kind: .json, milliseconds: 120), FollowingSave(kind: .sqlite, milliseconds: 0),
                      FollowingSave(kind: .sqlite, milliseconds: 150), FollowingSave(kind: .sqlite, milliseconds: 350)])
    func anotherSaveJustAfterOurs(_ following: FollowingSave) throws {
        let (target, environment, cleanUp) = try ConflictEndToEndTests.source(following.kind)
        defer { cleanUp() }
        let session = try ConflictEndToEndTests.openForm(target, environment: environment)
        ConflictEndToEndTests.change(session, email: "ours@roster.example")
        // Roster's save has landed on disk: the other program's comes `milliseconds` after it.
        let landed: () -> Bool
        let otherSave: () throws -> Void
        switch following.kind {
        case .json:
            landed = { ((try? String(contentsOfFile: target, encoding: .utf8)) ?? "").contains("ours@roster.example") }
            otherSave = { try Self.sed("s/frank.dillon@comgy.io/frank@other.example/", on: target) }
        default:
            landed = {
                let rows = try? SQLiteConnection(path: target, access: .readOnly)
                    .query("SELECT count(*) FROM people WHERE email = 'ours@roster.example'")
                return rows?.first?.int(0) == 1
            }
            otherSave = {
                try SQLiteConnection(path: target, access: .readWrite)
                    .execute("UPDATE people SET email = 'frank@other.example' WHERE email = 'frank.dillon@comgy.io'")
            }
        }
        let deadline = Date().addingTimeInterval(15)
        while !landed(), Date() < deadline { usleep(1_000) }
        #expect(landed(), "Roster saved")
        usleep(useconds_t(following.milliseconds * 1_000))
        try otherSave()
        #expect(session.waitFor(text: "ours@roster.example"))
        #expect(session.waitFor(text: "frank@other.example"), "the other program's save shows without a key")
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
