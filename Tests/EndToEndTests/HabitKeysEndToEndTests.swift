import Foundation
import Testing
import TestTraits

/// The keys other programs taught, on the real binary in tmux at 80×24
/// and at 60×15: Ctrl-L, n and N, a key that does nothing, the sort menu
/// and the command line.
@Suite("Keys from other programs, end to end", .serialized, .blockingWork)
struct HabitKeysEndToEndTests {
    static let sizes = [(24, 80), (15, 60)]
    let binary = TmuxSession.shellQuoted(rosterBinary)
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/people.json")
        .standardized.path

    func bottom(_ session: TmuxSession) -> String {
        session.lines().last { !$0.isEmpty } ?? ""
    }

    @Test("Ctrl-L repaints a screen something else wrote on", arguments: sizes)
    func redraw(rows: Int, columns: Int) throws {
        let session = try TmuxSession(binary, rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/400"))
        let clean = session.screen()
        let tty = session.paneFlag("#{pane_tty}")
        let handle = try #require(FileHandle(forWritingAtPath: tty))
        // As another program (a `write`, a job in the background) would: at a place of its own.
        handle.write(Data("\u{1B}[5;3HGARBAGE-FROM-ELSEWHERE".utf8))
        try handle.close()
        #expect(session.waitFor(text: "GARBAGE-FROM-ELSEWHERE"))
        session.send("C-l")
        #expect(session.waitFor("the screen drawn whole again") { $0 == clean })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a key that does nothing says so, on the list and on the person's screen", arguments: sizes)
    func unusedKey(rows: Int, columns: Int) throws {
        let session = try TmuxSession(binary, rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/400"))
        session.send("x")
        #expect(session.waitFor(text: "x: no such key · ? help"))
        #expect(bottom(session).hasPrefix(" 1/400"), "the position stays")
        session.send("j")
        #expect(session.waitFor("the notice gone at the next key") { $0.contains("2/400") && !$0.contains("no such key") })
        session.send("Enter")
        #expect(session.waitFor(text: "First name"))
        session.send("C-x")
        #expect(session.waitFor(text: "Ctrl-X: no such key · ? help"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a message lasts until the next key, whatever it opens or closes; Esc and h on the whole list say why they do nothing",
          arguments: sizes)
    func messageUntilTheNextKey(rows: Int, columns: Int) throws {
        let session = try TmuxSession(binary, rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/400"))
        let quiet: (String) -> Bool = { $0.contains("1/400") && !$0.contains("read-only; to edit") && !$0.contains("no search yet") }
        for keys in [["o", "Escape"], [":", "Escape"], ["?", "q"]] {
            session.send("E")
            #expect(session.waitFor(text: "read-only; to edit"))
            session.send(keys[0])
            #expect(session.waitFor("\(keys[0]) open") { !$0.contains("read-only; to edit") })
            session.send(keys[1])
            #expect(session.waitFor("the message gone after \(keys) closed") { quiet(bottom(session)) && !$0.contains("List keys") })
        }
        session.send("n")
        #expect(session.waitFor(text: "no search yet"))
        session.send("Escape")
        #expect(session.waitFor(text: "Esc: nothing to close"))
        #expect(bottom(session).hasPrefix(" 1/400"), "the position stays")
        #expect(!session.screen().contains("no search yet"))
        session.send("h")
        #expect(session.waitFor(text: "h: already at the top level"))
        session.send("Left")
        #expect(session.waitFor(text: "←: already at the top level"))
        session.send("j")
        #expect(session.waitFor("the word gone at the next key") { $0.contains("2/400") && !$0.contains("top level") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("n and N: through the people a filter shows, then after Esc through the last search's matches", arguments: sizes)
    func nextMatch(rows: Int, columns: Int) throws {
        try nextMatch(in: binary, rows: rows, columns: columns)
    }

    @Test("n and N over an SQLite file: the match is found off the main thread (a debug build stops otherwise)")
    func nextMatchOverSQLite() throws {
        let database = NSTemporaryDirectory() + "roster-e2e-keys-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: database) }
        #expect(try runRoster(["import", Self.bundled, "--into", database]).status == 0)
        try nextMatch(in: binary + " " + TmuxSession.shellQuoted("sqlite:" + database), rows: 24, columns: 80)
    }

    private func nextMatch(in command: String, rows: Int, columns: Int) throws {
        let session = try TmuxSession(command, rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/400"))
        session.send("/")
        session.type("comgy")
        session.send("Enter")
        #expect(session.waitFor(text: "filter: comgy"))
        session.send("n")
        #expect(session.waitFor(text: "2/6"))
        session.send("N", "N")
        #expect(session.waitFor(text: "no more matches above"))
        session.send("G", "n")
        #expect(session.waitFor(text: "no more matches below"))
        session.send("Escape")
        #expect(session.waitFor("the filter cleared, the last match selected") { $0.contains("6/400") && !$0.contains("filter:") })
        session.send("N")
        #expect(session.waitFor(text: "'comgy': match 5 of 6"))
        #expect(session.waitFor(text: "5/400"))
        session.send("n", "n")
        #expect(session.waitFor(text: "no more matches below for 'comgy'"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("O B g: the top balances of all, the status bar naming the order", arguments: sizes)
    func topBalances(rows: Int, columns: Int) throws {
        let session = try TmuxSession(binary, rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/400"))
        session.send("O")
        #expect(session.waitFor(text: "b  balance"))
        session.send("B", "g")
        #expect(session.waitFor(text: "1/400 · "))
        // "(sorting…)" goes once the rows are in the new order.
        #expect(session.waitFor("the status bar naming the new order, sorted") { $0.contains("balance ↓, flat") && !$0.contains("sorting…") })
        let amounts = session.lines().dropFirst(2).dropLast().compactMap { line -> Int? in
            guard let range = line.range(of: #"\$[0-9,]+\.[0-9]{2}"#, options: .regularExpression) else { return nil }
            return Int(line[range].filter(\.isNumber))
        }
        #expect(amounts.count >= rows - 5)
        #expect(amounts == amounts.sorted(by: >))
        #expect(amounts.first == (try Self.largestBalance()))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    /// The largest balance in the bundled directory, in cents.
    static func largestBalance() throws -> Int? {
        let people = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundled))) as? [[String: Any]] ?? []
        return people.compactMap { ($0["balance"] as? String).flatMap { Int($0.filter(\.isNumber)) } }.max()
    }

    @Test("the command line: :sort balance desc, :filter company:acme, :42, Tab, an unknown command, :q", arguments: sizes)
    func commandLine(rows: Int, columns: Int) throws {
        let path = NSTemporaryDirectory() + "roster-e2e-commands-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let acme = Dictionary(uniqueKeysWithValues: [5, 50, 95].map { ($0, (first: "Ada\($0)", last: "Acme\($0)", company: "ACME")) })
        try generatedPeople(100, named: acme).write(toFile: path, atomically: true, encoding: .utf8)
        let session = try TmuxSession(binary + " " + TmuxSession.shellQuoted(path), rows: rows, columns: columns)
        #expect(session.waitFor(text: "1/100"))
        session.send(":")
        session.type("sort balance desc")
        session.send("Enter")
        #expect(session.waitFor(text: "balance ↓"))
        session.send(":")
        session.type("filter company:acme")
        session.send("Enter")
        #expect(session.waitFor(text: "filter: company:acme"))
        #expect(session.waitFor(text: "1/3 · ACME"))
        session.send(":", "Enter")
        session.send(":")
        session.type("f")
        session.send("Tab", "Enter")
        #expect(session.waitFor("the filter cleared") { $0.contains("/100") && !$0.contains("filter:") })
        session.send(":")
        session.type("42")
        session.send("Enter")
        #expect(session.waitFor(text: "42/100"))
        session.send(":")
        session.type("so")
        session.send("Tab")
        session.type("ag")
        session.send("Tab")
        #expect(session.waitFor(text: ":sort age "))
        session.send("C-u")
        session.type("srot age")
        session.send("Enter")
        #expect(session.waitFor(text: "no command 'srot'; did you mean sort?"))
        session.send("C-u")
        session.type("q")
        session.send("Enter")
        #expect(session.exitStatus() == 0)
    }

    @Test("the command line over the overview (Tab) and the counts (F): :3 the third row, the list's commands say where they work until the next key, :q quits")
    func tableCommandLine() throws {
        // A copy: a key that went astray must never edit the bundled file.
        let path = NSTemporaryDirectory() + "roster-e2e-table-commands-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: Self.bundled, toPath: path)
        let session = try TmuxSession(binary + " " + TmuxSession.shellQuoted(path))
        #expect(session.waitFor(text: "1/"))
        for (key, screen) in [("Tab", ": companies"), ("F", ": counts by")] {
            session.send(key)
            #expect(session.waitFor(text: screen))
            #expect(session.waitFor(text: " 1/"))
            session.send(":")
            session.type("3")
            session.send("Enter")
            #expect(session.waitFor("\(key): the third row") { $0.contains(" 3/") && !$0.contains(" 1/") })
            session.send(":")
            session.type("sort age")
            session.send("Enter")
            #expect(session.waitFor(text: "people list only: Tab goes back"))
            session.send("j")
            #expect(session.waitFor("\(key): the word gone at the next key, the row moved") {
                $0.contains(" 4/") && !$0.contains("people list only")
            })
            session.send("Tab")
            #expect(session.waitFor("\(key): the people list again") { !$0.contains(screen) })
        }
        session.send("F", ":")
        session.type("q")
        session.send("Enter")
        #expect(session.exitStatus() == 0)
    }
}
