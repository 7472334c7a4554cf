import Foundation
import RosterSQL
import Testing
import TestServers
import TestTraits

/// Issue 34, items 1 to 3, by the real binary in tmux over a real
/// PostgreSQL whose connections are ended (`pg_terminate_backend`) or
/// which is restarted: the title says the connection is lost, the screen
/// heals with no key pressed and shows what changed meanwhile, `r` never
/// calls a broken connection fine, a form open across a restart saves,
/// an edit made while the connection is lost goes to the outbox and lands
/// once, and the offline copy is what was last seen.
@Suite("End to end: a broken connection heals by itself", .serialized, .blockingWork)
struct ConnectionHealsTests {
    /// The bundled directory imported into a new database of `server`,
    /// and Roster's caches and state in a folder of their own.
    struct Directory {
        let server: TestPostgres
        let database: String
        let homes = NSTemporaryDirectory() + "roster-e2e-heal-\(UUID().uuidString.prefix(8))"

        init(on server: TestPostgres) throws {
            self.server = server
            database = try server.makeDatabase()
            let imported = try runRoster(["import", EditingEndToEndTests.bundled, "--into", target], environment: Self.password)
            #expect(imported.status == 0, "\(imported.error)")
        }

        static let password = ["PGPASSWORD": TestPostgres.password]
        var target: String { "postgres://postgres@/\(database)?host=\(server.socketDirectory)" }

        /// Roster on the directory in tmux, at its first frame, its listener ready.
        func roster() throws -> TmuxSession {
            let session = try TmuxSession("env PGPASSWORD=\(TestPostgres.password) XDG_CACHE_HOME=\(homes)/cache XDG_STATE_HOME=\(homes)/state "
                                          + "\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(target))", columns: 120)
            #expect(session.waitFor(text: "1/400", timeout: 30))
            #expect(session.waitFor("the change listener ready", timeout: 30) { _ in (try? server.listeners(in: database)) == 1 })
            return session
        }

        /// `roster update` of the bundled person called `name`, as another program.
        func update(_ name: String, _ assignment: String) throws {
            let updated = try runRoster(["update", target, try OutboxEndToEndTests.recordID(of: name), assignment], environment: Self.password)
            #expect(updated.status == 0, "\(updated.error)")
        }

        /// The first column of `query` in the database, as text.
        func text(_ query: String) throws -> String? {
            try PostgresConnectionText.first(query, conninfo: server.conninfo(database: database))
        }

        func removeHomes() { try? FileManager.default.removeItem(atPath: homes) }
    }

    /// The title line says the connection is lost.
    static func saysLost(_ screen: String) -> Bool {
        (screen.components(separatedBy: "\n").first ?? "").contains("connection lost")
    }

    @Test("every backend ended: the title says connection lost, it heals with no key within 5 s, and a change made meanwhile shows, on the list and the person's screen alike")
    func endedBackendsHeal() throws {
        let directory = try Directory(on: try TestPostgres.server())
        defer { directory.removeHomes() }
        let session = try directory.roster()
        #expect(try directory.server.terminateConnections(to: directory.database) == 3, "browsing, searching, listening")
        #expect(session.waitFor("the title saying the connection is lost", timeout: 5) { Self.saysLost($0) })
        try directory.update("Frank Dillon", "phone=+1 (555) 010-0101")
        let clock = ContinuousClock()
        let changed = clock.now
        #expect(session.waitFor("the change shown, the title back to normal, no key pressed", timeout: 30) {
            $0.contains("+1 (555) 010-0101") && !Self.saysLost($0)
        })
        let shown = clock.now - changed
        #expect(shown < TestPace.scaled(.seconds(5)), "shown \(shown) after the change, the server answering all along")
        print("issue 34: a change made while the connection was lost shown \(shown) after it was made")
        session.send("Enter")
        #expect(session.waitFor("the person's screen showing what the list shows") { $0.contains("Phone") && $0.contains("+1 (555) 010-0101") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("r over connections ended with nothing read since: it never says fine, it reconnects and reads again; over a fine one it says so and reads again")
    func rNeverSaysFineOverABreak() throws {
        let directory = try Directory(on: try TestPostgres.server())
        defer { directory.removeHomes() }
        let session = try directory.roster()
        // The listener is spared (nothing hears of the break), and the change is made behind Roster's back (no log, no notice).
        #expect(try directory.server.terminateConnections(to: directory.database, sparingListeners: true) == 2)
        _ = try directory.text("UPDATE people SET phone = '+1 (555) 040-0404' WHERE first_name = 'Frank' AND last_name = 'Dillon' RETURNING 1")
        #expect(!Self.saysLost(session.screen()), "nothing has noticed")
        session.send("r")
        #expect(session.waitFor("reconnected, and read again") { $0.contains("reconnected; read again") && $0.contains("+1 (555) 040-0404") })
        #expect(!session.screen().contains("fine"))
        _ = try directory.text("UPDATE people SET phone = '+1 (555) 050-0505' WHERE first_name = 'Frank' AND last_name = 'Dillon' RETURNING 1")
        session.send("r")
        #expect(session.waitFor("fine, after a read that worked, and read again") {
            $0.contains("the connection was fine; read again") && $0.contains("+1 (555) 050-0505")
        })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a search typed while the list is being read again (a reconnect's, r's) is the one shown once that read lands")
    func searchTypedDuringAReread() throws {
        let directory = try Directory(on: try TestPostgres.server())
        defer { directory.removeHomes() }
        let session = try directory.roster()
        // The summary locked: r's read of the table waits on it, and the search goes on meanwhile.
        let locker = try PostgresConnection(directory.server.conninfo(database: directory.database))
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE people_companies IN ACCESS EXCLUSIVE MODE")
        session.send("r")
        #expect(session.waitFor("the read waiting on the lock") { _ in
            (try? directory.text("SELECT count(*) FROM pg_locks WHERE NOT granted")) != "0"
        })
        session.send("/")
        session.type("garza")
        session.send("Enter")
        try locker.execute("ROLLBACK")
        #expect(session.waitFor("the search typed meanwhile, shown once the read landed") {
            $0.contains("1/10 ·") && $0.contains("filter: garza") && $0.contains("read again")
        })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a restarted server: the copy is what was last seen, a form open across the restart saves, an edit made while lost is kept offline and lands once within 5 s")
    func restartedServer() throws {
        let server = try TestPostgres.privateServer()
        defer { try? server.stop() }
        let directory = try Directory(on: server)
        defer { directory.removeHomes() }
        let session = try directory.roster()

        // Item 3: a colleague's change, read while online, is in the offline copy.
        try directory.update("José Garza", "email=jose.colleague@example.org")
        #expect(session.waitFor(text: "jose.colleague@example.org"))
        let cache = directory.homes + "/cache/roster"
        #expect(session.waitFor("the offline copy taken again from what was read", timeout: 30) { _ in
            let copies = (try? FileManager.default.contentsOfDirectory(atPath: cache))?.filter { $0.hasPrefix("directory-") && $0.hasSuffix(".jsonl") } ?? []
            return copies.contains { (try? String(contentsOfFile: cache + "/" + $0, encoding: .utf8))?.contains("jose.colleague@example.org") == true }
        })

        // Item 2: a form open across a restart saves once the server answers, once.
        session.send("E")
        #expect(session.waitFor(text: "Roster — Edit Frank Dillon"))
        session.send("Tab", "Tab", "Tab", "Tab", "C-u")
        session.type("+1 (555) 020-0202")
        try server.stop()
        try server.startAgain()
        session.send("Enter")
        #expect(session.waitFor("the form's save on the list", timeout: 30) {
            $0.contains("+1 (555) 020-0202") && !$0.contains("Roster — Edit") && !$0.contains("unsent")
        })
        #expect(try directory.text("SELECT phone FROM people WHERE first_name = 'Frank' AND last_name = 'Dillon'") == "+1 (555) 020-0202")

        // Item 2: an edit made while the connection is lost is kept offline, against what was last seen.
        try server.stop()
        #expect(session.waitFor("the title saying the connection is lost", timeout: 10) { Self.saysLost($0) })
        session.send("j", "E")
        #expect(session.waitFor("José's form, as last seen") { $0.contains("Roster — Edit José Garza") && $0.contains("jose.colleague@example.org") })
        session.send("Tab", "Tab", "Tab", "Tab", "C-u")
        session.type("+1 (555) 030-0303")
        session.send("Enter")
        #expect(session.waitFor(text: "saved offline; 1 edit unsent ⇡"))
        #expect(session.waitFor(text: "⇡ José Garza"))
        let clock = ContinuousClock()
        try server.startAgain()
        let answering = clock.now
        #expect(session.waitFor("the edit sent and shown, no key pressed", timeout: 30) {
            $0.contains("+1 (555) 030-0303") && $0.contains("1 offline edit sent") && !Self.saysLost($0) && !$0.contains("⇡ José")
        })
        let healed = clock.now - answering
        #expect(healed < TestPace.scaled(.seconds(5)), "shown \(healed) after the server answered")
        print("issue 34: an edit kept offline shown sent \(healed) after the restarted server answered")
        let jose = "FROM people WHERE first_name = 'José' AND last_name = 'Garza'"
        #expect(try directory.text("SELECT phone || ' ' || email \(jose)") == "+1 (555) 030-0303 jose.colleague@example.org")
        #expect(try directory.text("SELECT phone FROM people WHERE first_name = 'Frank' AND last_name = 'Dillon'") == "+1 (555) 020-0202")
        #expect(try directory.text("""
            SELECT count(*) FROM people_changes WHERE operation = 'update' AND person_key = (SELECT person_key \(jose))
            """) == "2", "the colleague's and the one kept offline: applied once")
        let log = try directory.text("SELECT string_agg(operation || ' ' || coalesce(person_key, '-') || ' ' || coalesce(version, -1), ', ' ORDER BY seq) FROM people_changes") ?? ""
        let frank = "FROM people WHERE first_name = 'Frank' AND last_name = 'Dillon'"
        #expect(try directory.text("""
            SELECT count(*) FROM people_changes WHERE operation = 'update' AND person_key = (SELECT person_key \(frank))
            """) == "1", "the form's save across the restart: once (\(log))")
        session.send("q")
        #expect(session.exitStatus() == 0)
        let state = (try? FileManager.default.contentsOfDirectory(atPath: directory.homes + "/state/roster")) ?? []
        #expect(!state.contains { $0.hasPrefix("outbox-") }, "nothing left unsent")
    }
}

/// One statement's first value as text, for checking a database.
enum PostgresConnectionText {
    static func first(_ query: String, conninfo: String) throws -> String? {
        let rows = try PostgresConnection(conninfo).execute(query)
        return rows.first.flatMap { $0.text(0) ?? $0.int(0).map(String.init) }
    }
}
