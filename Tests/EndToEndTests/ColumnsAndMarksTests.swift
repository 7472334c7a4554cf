import Foundation
import Testing
import TestTraits

/// Issue 12's columns and marks in the real binary.
@Suite("End to end: columns and marks", .serialized, .blockingWork)
struct ColumnsAndMarksEndToEndTests {
    let binary = TmuxSession.shellQuoted(rosterBinary)

    @Test("C hides a column; quit and relaunch: the columns are remembered")
    func columnsRemembered() throws {
        let stateHome = NSTemporaryDirectory() + "roster-state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        let command = "env XDG_STATE_HOME=\(stateHome) \(binary)"
        do {
            let session = try TmuxSession(command, rows: 30, columns: 120)
            #expect(session.waitFor(text: "1/400"))
            #expect(session.lines()[1].contains("Email"))
            session.send("C")
            #expect(session.waitFor(text: "Esc put back"))
            session.send("Space")  // the cursor starts on Email
            #expect(session.waitFor(text: "[ ] Email"))
            session.send("Enter")
            #expect(session.waitFor("the chooser closed, Email gone") { !$0.contains("Esc put back") && !$0.contains("Email") })
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
        let state = try String(contentsOfFile: stateHome + "/roster/state.json", encoding: .utf8)
        #expect(state.contains("\"-email\""))
        let session = try TmuxSession(command, rows: 30, columns: 120)
        #expect(session.waitFor(text: "1/400"))
        #expect(session.lines()[1].contains("Phone") && !session.lines()[1].contains("Email"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("s in the chooser sorts by a hidden column: it shows, titled State ↑, its values ascend; S turns it round")
    func sortByHiddenColumn() throws {
        let session = try TmuxSession(binary + " --no-state")
        #expect(session.waitFor(text: "1/400"))
        #expect(!session.lines()[1].contains("State"))
        session.send("C")
        #expect(session.waitFor(text: "Esc put back"))
        for _ in 0..<7 { session.send("Down") }  // email, age, active, phone, company, city, balance, state
        session.send("s")
        #expect(session.waitFor(text: "(sorted on: shown)"))
        session.send("Enter")
        // The status bar says the order as soon as s is pressed: wait for the box to go.
        #expect(session.waitFor("the chooser closed, sorted by state") { !$0.contains("Esc put back") && !$0.contains("sorting") && $0.contains("State ↑") })
        let header = session.lines()[1]
        let column = try #require(header.range(of: "State ↑")).lowerBound
        let offset = header.distance(from: header.startIndex, to: column)
        // The first company's people, rows 3 on, until the next header or the status bar.
        let rows = session.lines().dropFirst(3).prefix { $0.hasPrefix("  ") }
        let states = rows.compactMap { line -> String? in
            let characters = Array(line)
            guard characters.count > offset else { return nil }
            return String(characters[offset...]).trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").first
        }.filter { !$0.isEmpty }
        #expect(states.count >= 2, "\(session.screen())")
        #expect(states.map { $0.lowercased() } == states.map { $0.lowercased() }.sorted(), "\(states)")
        session.send("S")
        #expect(session.waitFor("sorted by state, the other way") { !$0.contains("sorting") && $0.contains("state ↓") })
        #expect(session.lines()[1].contains("State ↓"))
        session.send("q")
        #expect(session.exitStatus() == 0)
        let usage = try runRoster(["--list", "--sort", "shoe"])
        #expect(usage.status == 2 && usage.error.contains("--sort takes a column"))
    }

    @Test("mark two people: the status bar counts them, e exports exactly them, u unmarks")
    func markAndExport() throws {
        let folder = NSTemporaryDirectory() + "roster-marks-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary) --no-state")
        #expect(session.waitFor(text: "1/400"))
        let lines = session.lines()
        // Rows 3 and 5: the first and third person of the first company.
        let names = [lines[3], lines[5]].map { $0.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").first ?? "" }
        session.send("m")
        #expect(session.waitFor(text: "2/400 · 1 marked"))
        session.send("j", "m")
        #expect(session.waitFor(text: "4/400 · 2 marked"))
        #expect(session.lines()[3].hasPrefix("● ") && session.lines()[5].hasPrefix("● ") && session.lines()[4].hasPrefix("  "))
        session.send("e")
        #expect(session.waitFor(text: "export to: people.csv"))
        session.send("Enter")
        #expect(session.waitFor(text: "wrote 2 marked to people.csv"))
        let csv = try String(contentsOfFile: folder + "/people.csv", encoding: .utf8)
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 3)
        let exported = rows.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: " ") }
        #expect(exported == names)
        session.send("u")
        #expect(session.waitFor("no marks") { !$0.contains("marked") && !$0.contains("●") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}

/// Copying the marked people through OSC 52, into tmux's buffer.
@Suite("End to end: copying marked people", .serialized, .blockingWork)
struct CopyMarkedEndToEndTests {
    @Test("y copies the marked people as an address list; Y as vCards")
    func copyMarked() throws {
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " --no-state")
        #expect(session.waitFor(text: "1/400"))
        _ = try session.tmux(["set-option", "-g", "set-clipboard", "on"])
        session.send("m", "m")
        #expect(session.waitFor(text: "2 marked"))
        session.send("y")
        #expect(session.waitFor(text: "copied 2 addresses"))
        let addresses = try session.tmux(["show-buffer"])
        #expect(addresses.components(separatedBy: ">, ").count == 2)
        #expect(addresses.hasPrefix("Frank Dillon <") && addresses.hasSuffix(">"))
        session.send("Y")
        #expect(session.waitFor(text: "copied 2 vCards"))
        let cards = try session.tmux(["show-buffer"])
        #expect(cards.components(separatedBy: "BEGIN:VCARD").count == 3)
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
