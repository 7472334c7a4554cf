import Foundation
import Testing
import TestTraits

/// Keys typed ahead act on what they were typed for, and a database that
/// stops answering never keeps Ctrl-C or SIGTERM from ending Roster.
@Suite("End to end: keys typed ahead, a stuck database", .blockingWork)
struct NeverWaitTests {
    let binary = TmuxSession.shellQuoted(rosterBinary)

    static func temporaryFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "roster-e2e-wait-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("/jose⏎M in one burst marks exactly the 3 people shown")
    func markTypedAheadOfASearch() throws {
        let session = try TmuxSession("\(binary) --no-state")
        #expect(session.waitFor(text: "1/400"))
        for _ in 0..<3 {
            session.sendBurst(["/", "j", "o", "s", "e", "Enter", "M"])
            #expect(session.waitFor(text: "1/3 · 3 marked"))
            #expect(!session.screen().contains("400 marked"))
            session.sendBurst(["u", "Escape"])
            #expect(session.waitFor("everyone, nobody marked") { $0.contains("/400 ·") && !$0.contains("marked") })
        }
    }

    @Test("/company:comgy⏎e⏎ in one burst exports COMGY's 6 people, not everyone")
    func exportTypedAheadOfASearch() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state")
        #expect(session.waitFor(text: "1/400"))
        session.sendBurst(["/"] + "company:comgy".map(String.init) + ["Enter", "e", "Enter"])
        #expect(session.waitFor(text: "wrote 6 people to people.csv"))
        let csv = try String(contentsOfFile: folder + "/people.csv", encoding: .utf8)
        #expect(csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 7)
    }

    /// People in the generated file typed at: enough that each search in
    /// the test build takes longer than the 30 ms between keys (the issue's
    /// 600,000 is for a release build: `ROSTER_TYPEAHEAD_PEOPLE=600000`).
    static let typedAheadPeople = ProcessInfo.processInfo.environment["ROSTER_TYPEAHEAD_PEOPLE"].flatMap(Int.init) ?? 100_000

    /// Sends `keys` one at a time, 30 ms apart: a fast typist, each key
    /// arriving while the search the one before started is still running.
    /// (The pause is the typing, not a wait for the app.)
    func typeAtTypingSpeed(_ session: TmuxSession, _ keys: [String]) {
        for key in keys {
            session.send(key)
            usleep(30_000)
        }
    }

    @Test("typed 30 ms a key over a large file, /zamora⏎M marks exactly the 3 shown and /company:zeta⏎e⏎ exports ZETA's 5")
    func typedAheadAtTypingSpeed() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let count = Self.typedAheadPeople
        var named: [Int: (first: String, last: String, company: String)] = [:]
        for third in 0..<3 { named[count / 3 * third + 7] = ("Jose", "Zamora", "COMPANY1") }
        for fifth in 0..<5 { named[count / 5 * fifth + 11] = ("Zed", "Last\(fifth)", "ZETA") }
        try generatedPeople(count, named: named).write(toFile: folder + "/people.json", atomically: false, encoding: .utf8)
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state people.json")
        #expect(session.waitFor(text: "1/\(count.formatted(.number.locale(Locale(identifier: "en_US"))))", timeout: 300))
        typeAtTypingSpeed(session, ["/"] + "zamora".map(String.init) + ["Enter", "M"])
        #expect(session.waitFor(text: "1/3 · 3 marked", timeout: 60))
        #expect(!session.screen().contains(",000 marked"))
        typeAtTypingSpeed(session, ["u", "Escape"])
        #expect(session.waitFor("everyone, nobody marked", timeout: 60) { $0.contains("1/\(count / 1000)") && !$0.contains("marked") })
        typeAtTypingSpeed(session, ["/"] + "company:zeta".map(String.init) + ["Enter", "e", "Enter"])
        #expect(session.waitFor(text: "wrote 5 people to people.csv", timeout: 60))
        let csv = try String(contentsOfFile: folder + "/people.csv", encoding: .utf8)
        #expect(csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 6)
    }

    /// The bundled directory imported into `folder`/people.db.
    func importBundled(in folder: String) throws -> String {
        let database = folder + "/people.db"
        let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/people.json")
            .standardized.path
        #expect(try runRoster(["import", bundled, "--into", database]).status == 0)
        return database
    }

    /// The bundled directory imported into `folder`/people.db, browsed in
    /// tmux from `folder`.
    func browseImported(in folder: String) throws -> (session: TmuxSession, database: String) {
        let database = try importBundled(in: folder)
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state people.db")
        #expect(session.waitFor(text: "1/400"))
        return (session, database)
    }

    @Test("opened on a file another program is writing: the loading screen says so and answers ? and Esc; the list comes once it is free")
    func openedWhileLocked() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let holder = try SQLiteLockHolder(try importBundled(in: folder))
        defer { holder.release() }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state people.db")
        #expect(session.waitFor(text: "waiting: another program is writing to it", timeout: 30))
        session.send("?")
        #expect(session.waitFor(text: "Keys while loading"))
        session.send("Escape")
        #expect(session.waitFor("the loading screen again") { $0.contains("Loading people.db…") && !$0.contains("Keys while loading") })
        holder.release()
        #expect(session.waitFor(text: "1/400", timeout: 30))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("q while the table waits on another program's lock quits at once, terminal restored")
    func quitWhileOpeningLocked() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let holder = try SQLiteLockHolder(try importBundled(in: folder))
        defer { holder.release() }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state people.db")
        #expect(session.waitFor(text: "Loading people.db…"))
        let clock = ContinuousClock()
        let sent = clock.now
        session.send("q")
        #expect(session.exitStatus() == 0)
        // The read on its own thread is left waiting on the lock (120 s).
        #expect(clock.now - sent < TestPace.scaled(.seconds(5)), "q does not wait for the read")
        #expect(session.paneFlag("#{alternate_on}") == "0")
        #expect(session.paneFlag("#{cursor_flag}") == "1")
    }


    /// An SQLite file another process holds with `BEGIN EXCLUSIVE`: the
    /// rows `G` needs wait on the lock, in the background; the screen goes
    /// to the end at once, draws the rows as loading and keeps answering.
    func lockedDatabase(_ send: (TmuxSession) -> Void, expecting status: Int32) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (session, database) = try browseImported(in: folder)
        let holder = try SQLiteLockHolder(database)
        defer { holder.release() }
        session.send("G")
        // The end of the list is not read yet (it waits on the lock): the
        // frame for G comes anyway, its rows said to be loading.
        #expect(session.waitFor("the frame for G") { $0.contains("400/400") && $0.contains("loading…") })
        session.send("?")
        #expect(session.waitFor(text: "Roster — List keys"))
        session.send("Escape")
        #expect(session.waitFor("the list again") { $0.contains("400/400") && !$0.contains("List keys") })
        #expect(session.screen().contains("loading…"), "the lock is still held: nothing made up in the rows' place")
        let clock = ContinuousClock()
        let sent = clock.now
        send(session)
        #expect(session.exitStatus() == status)
        // The watchdog's grace is 0.7 s (about 0.2 s measured by hand);
        // without it Roster waits on the lock for as long as it is held (120 s).
        #expect(clock.now - sent < TestPace.scaled(.seconds(5)), "a stuck main thread still ends within the watchdog's grace")
        #expect(session.paneFlag("#{alternate_on}") == "0")
        #expect(session.paneFlag("#{cursor_flag}") == "1")
    }

    @Test("rows that waited on another program's lock fill in by themselves once it is released, no key pressed")
    func lockReleasedFillsTheRows() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (session, database) = try browseImported(in: folder)
        let holder = try SQLiteLockHolder(database)
        session.send("G")
        #expect(session.waitFor("the rows given up on after the lock's timeout", timeout: 60) { $0.contains("400/400") && $0.contains("not loaded") })
        holder.release()
        #expect(session.waitFor("the rows, read again on their own", timeout: 60) {
            $0.contains("400/400") && !$0.contains("not loaded") && !$0.contains("loading…") && $0.contains("@")
        })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("an export that cannot read the people says so, and the earlier file keeps its bytes")
    func exportThatCannotReadKeepsTheOldFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "the earlier export".write(toFile: folder + "/out.csv", atomically: false, encoding: .utf8)
        let (session, database) = try browseImported(in: folder)
        let holder = try SQLiteLockHolder(database)
        defer { holder.release() }
        session.send("e", "C-u")
        session.type("out.csv")
        session.send("Enter")
        #expect(session.waitFor(text: "(y/n)"))
        session.send("y")
        #expect(session.waitFor(text: "could not be read", timeout: 40))
        #expect(try String(contentsOfFile: folder + "/out.csv", encoding: .utf8) == "the earlier export")
        #expect(!session.screen().contains("wrote"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["out.csv", "people.db"])
    }

    @Test("Ctrl-C ends Roster at once while the database holds the screen, terminal restored")
    func interruptWhileStuck() throws {
        try lockedDatabase({ $0.send("C-c") }, expecting: 130)
    }

    @Test("SIGTERM ends Roster at once while the database holds the screen, terminal restored")
    func terminateWhileStuck() throws {
        try lockedDatabase({ session in
            if let pid = rosterPID(under: session.panePID()) { kill(pid, SIGTERM) }
        }, expecting: 143)
    }
}
