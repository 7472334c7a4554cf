import Foundation
import Testing
import TestServers
import TestTraits

/// Edits made on the offline copy while a PostgreSQL server cannot be
/// reached, by the real binary in tmux: kept in the outbox across a quit
/// and a kill -9, sent once each when the server is back, and a person
/// someone else changed meanwhile opened on the conflict screen.
///
/// The server is taken away and brought back through the folder the
/// target names as its host: it holds a link to the server's socket,
/// removed (connection refused, as a server that is down) and made again.
@Suite("End to end: edits made offline", .serialized, .blockingWork)
struct OutboxEndToEndTests {
    /// The folder Roster reaches the server through, and whether it leads there.
    struct Door {
        let folder = NSTemporaryDirectory() + "roster-e2e-door-\(UUID().uuidString.prefix(8))"
        let socket: String

        init(to server: TestPostgres) throws {
            socket = server.socketDirectory + "/.s.PGSQL.5432"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            open()
        }

        func open() { symlink(socket, folder + "/.s.PGSQL.5432") }
        func close() { unlink(folder + "/.s.PGSQL.5432") }
        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// The `_id` of the bundled directory's person called `name`.
    static func recordID(of name: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: EditingEndToEndTests.bundled))
        let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let record = records.first { record in
            let parts = record["name"] as? [String: String]
            return "\(parts?["first"] ?? "") \(parts?["last"] ?? "")" == name
        }
        return try #require(record?["_id"] as? String)
    }

    /// Opens the form of the person `down` rows below the first, sets the
    /// email to `email` and saves; returns the person's name.
    static func edit(_ session: TmuxSession, down: Int, email: String) -> String {
        for _ in 0..<down { session.send("j") }
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit "))
        let name = ConflictEndToEndTests.name(in: session)
        ConflictEndToEndTests.change(session, email: email)
        return name
    }

    @Test("offline: edits are kept through a quit and a kill -9, sent once each when the server is back; a conflict opens its screen")
    func offlineEditsAreSentOnce() throws {
        let server = try TestPostgres.server()
        let database = try server.makeDatabase()
        let door = try Door(to: server)
        defer { door.remove() }
        let target = "postgres://postgres@/\(database)?host=\(door.folder)"
        let direct = "postgres://postgres@/\(database)?host=\(server.socketDirectory)"
        let password = ["PGPASSWORD": TestPostgres.password]
        #expect(try runRoster(["import", EditingEndToEndTests.bundled, "--into", direct], environment: password).status == 0)
        let homes = NSTemporaryDirectory() + "roster-e2e-outbox-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: homes) }
        let command = "env PGPASSWORD=\(TestPostgres.password) XDG_CACHE_HOME=\(homes)/cache XDG_STATE_HOME=\(homes)/state "
            + "\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(target))"

        // Online once: the offline copy is kept when Roster quits.
        let online = try TmuxSession(command)
        #expect(online.waitFor(text: "/400"))
        online.send("q")
        #expect(online.exitStatus() == 0)

        // The server goes away: the copy opens, and takes edits.
        door.close()
        let offline = try TmuxSession(command)
        #expect(offline.waitFor(text: "offline as of"))
        #expect(offline.waitFor(text: "/400"))
        let first = Self.edit(offline, down: 1, email: "offline.one@example.org")
        #expect(offline.waitFor(text: "saved offline; 1 edit unsent ⇡"))
        #expect(offline.waitFor(text: "⇡ \(first)"))
        let second = Self.edit(offline, down: 1, email: "offline.two@example.org")
        #expect(offline.waitFor(text: "saved offline; 2 edits unsent ⇡"))
        offline.send("q")
        #expect(offline.exitStatus() == 0)
        #expect(offline.waitFor(text: "2 edits made offline not sent yet; kept"))

        // Killed with a third edit unsent: it was on disk before the screen said saved.
        let killed = try TmuxSession(command)
        #expect(killed.waitFor(text: "2 unsent ⇡"))
        let third = Self.edit(killed, down: 3, email: "offline.three@example.org")
        #expect(killed.waitFor(text: "saved offline; 3 edits unsent ⇡"))
        kill(try #require(rosterPID(under: killed.panePID())), SIGKILL)
        #expect(killed.exitStatus() == 128 + SIGKILL)
        let outbox = try FileManager.default.contentsOfDirectory(atPath: homes + "/state/roster").filter { $0.hasPrefix("outbox-") }
        #expect(outbox.count == 1)
        let outboxPath = homes + "/state/roster/" + (outbox.first ?? "")
        let attributes = try FileManager.default.attributesOfItem(atPath: outboxPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: outboxPath, encoding: .utf8).split(separator: "\n").count == 3)
        #expect(!(try String(contentsOfFile: outboxPath, encoding: .utf8)).contains(TestPostgres.password))

        // Meanwhile someone changes the first person's email on the server.
        let changed = try runRoster(["update", direct, try Self.recordID(of: first), "email=from.server@example.org"], environment: password)
        #expect(changed.status == 0, "\(changed.error)")

        // The server is back. The first Roster dies right after an edit's commit, before crossing it off (the reply lost).
        door.open()
        let cut = try TmuxSession("env ROSTER_CRASH_AT=after-send " + command)
        #expect(cut.exitStatus(timeout: 60) == 128 + SIGKILL)
        #expect(try server.integer("SELECT count(*) FROM people_applied", in: database) == 1)
        #expect(try String(contentsOfFile: outboxPath, encoding: .utf8).split(separator: "\n").count == 3, "nothing crossed off")

        // The next one sends them all, that one recognised; the conflict screen opens for the first person.
        let back = try TmuxSession(command)
        #expect(back.waitFor("the conflict screen, the offline edit beside the server's") {
            $0.contains("Changed meanwhile: \(first) — your edit made offline") && $0.contains("offline.one@example.org")
                && $0.contains("from.server@example.org")
        })
        back.send("m", "Enter")
        // The database's name (not the socket folder's), and what the sending did, said once the screen closed.
        #expect(back.waitFor(text: "saved to \(database); earlier: 2 offline edits sent"))
        #expect(back.waitFor("the outbox emptied") { _ in !FileManager.default.fileExists(atPath: outboxPath) })
        back.send("q")
        #expect(back.exitStatus() == 0)

        let listed = { (name: String) in try ConflictEndToEndTests.listed(name, in: direct, environment: "PGPASSWORD") }
        #expect(try listed(first).contains("offline.one@example.org"))
        #expect(try listed(second).contains("offline.two@example.org"))
        #expect(try listed(third).contains("offline.three@example.org"))
        // Each sent operation applied once; the settled conflict was saved as a screen's save is.
        #expect(try server.integer("SELECT count(*) FROM people_applied", in: database) == 2)
        #expect(try server.integer("SELECT count(*) FROM people_changes WHERE operation = 'update'", in: database) == 4)
        #expect(!FileManager.default.fileExists(atPath: outboxPath))

        // Offline again, two edits, one of them also made on the server; the server back while Roster
        // is open: r goes live and sends one; theirs chosen on the conflict screen settles the other.
        door.close()
        let again = try TmuxSession(command, columns: 160)
        #expect(again.waitFor(text: "offline as of"))
        let fourth = Self.edit(again, down: 1, email: "offline.four@example.org")
        #expect(again.waitFor(text: "saved offline; 1 edit unsent ⇡"))
        let fifth = Self.edit(again, down: 1, email: "offline.five@example.org")
        #expect(again.waitFor(text: "saved offline; 2 edits unsent ⇡"))
        let theirs = try runRoster(["update", direct, try Self.recordID(of: fifth), "email=five.server@example.org"], environment: password)
        #expect(theirs.status == 0, "\(theirs.error)")
        // A search on: going live and sending keep it, and the place.
        let lastName = String(fifth.split(separator: " ").last ?? "")
        again.send("/")
        again.type(lastName)
        again.send("Enter")
        #expect(again.waitFor(text: "filter: \(lastName)"))
        door.open()
        again.send("r")
        #expect(again.waitFor(text: "Changed meanwhile: \(fifth) — your edit made offline"))
        again.send("t", "Enter")
        #expect(again.waitFor(text: "filter: \(lastName)"), "the search kept through going live and the sending")
        #expect(again.waitFor("the outbox emptied") { _ in !FileManager.default.fileExists(atPath: outboxPath) })
        #expect(!again.screen().contains("offline as of"))
        again.send("q")
        #expect(again.exitStatus() == 0)
        #expect(try listed(fourth).contains("offline.four@example.org"))
        #expect(try listed(fifth).contains("five.server@example.org"), "theirs, as chosen")
        #expect(try server.integer("SELECT count(*) FROM people_applied", in: database) == 3)
    }
}
