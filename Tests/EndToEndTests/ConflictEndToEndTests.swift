import Foundation
import Testing
import TestServers

/// Two real Rosters, in tmux, editing the same person in one source (a
/// real PostgreSQL, a SQLite file, a JSON file), and a file changed by
/// `sed -i` while Roster has it open: the second save is never an
/// overwrite but the conflict screen, and the user's choice is what lands.
@Suite("End to end: two people editing the same person", .serialized, .blockingWork)
struct ConflictEndToEndTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case postgres, sqlite, json
        var testDescription: String { rawValue }
    }

    /// A source of `kind` holding the bundled directory, the environment
    /// Roster needs to reach it, and how to remove it.
    static func source(_ kind: Kind) throws -> (target: String, environment: String, cleanUp: () -> Void) {
        switch kind {
        case .json:
            let file = try EditingEndToEndTests.copy()
            return (file, "", { try? FileManager.default.removeItem(atPath: file) })
        case .sqlite:
            let database = NSTemporaryDirectory() + "roster-e2e-conflict-\(UUID().uuidString).db"
            #expect(try runRoster(["import", EditingEndToEndTests.bundled, "--into", database]).status == 0)
            return (database, "", { try? FileManager.default.removeItem(atPath: database) })
        case .postgres:
            let server = try TestPostgres.server()
            let target = "postgres://postgres@/\(try server.makeDatabase())?host=\(server.socketDirectory)"
            let imported = try runRoster(["import", EditingEndToEndTests.bundled, "--into", target],
                                         environment: ["PGPASSWORD": TestPostgres.password])
            #expect(imported.status == 0, "\(imported.error)")
            return (target, "PGPASSWORD=\(TestPostgres.password) ", {})
        }
    }

    /// Roster on `target` in tmux, at its first frame, with the second person's form open.
    static func openForm(_ target: String, environment: String) throws -> TmuxSession {
        let session = try TmuxSession("env \(environment)\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(target))")
        #expect(session.waitFor(text: "/400"))
        session.send("j", "E")
        #expect(session.waitFor(text: "Roster — Edit "))
        return session
    }

    /// The person the form edits, from its title.
    static func name(in session: TmuxSession) -> String {
        let title = session.lines().first ?? ""
        guard let range = title.range(of: "Roster — Edit ") else { return "" }
        return String(title[range.upperBound...]).trimmingCharacters(in: .whitespaces)
    }

    /// From the form's first field: the email set to `email` and, when
    /// given, the balance to `balance`; then Enter.
    static func change(_ session: TmuxSession, email: String, balance: String? = nil) {
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type(email)
        if let balance {
            session.send("Tab", "Tab", "Tab", "Tab", "C-u")
            session.type(balance)
        }
        session.send("Enter")
    }

    /// The person's line in `--list`, found by name.
    static func listed(_ name: String, in target: String, environment: String) throws -> String {
        let listed = try runRoster(["--list", target], environment: environment.isEmpty ? [:] : ["PGPASSWORD": TestPostgres.password])
        return listed.output.components(separatedBy: "\n").first { $0.hasPrefix("  \(name)\t") } ?? "(\(name) not listed)"
    }

    @Test("A and B edit the same person; A saves; B's save shows A's email as theirs; B keeps theirs, B's balance lands with it",
          arguments: Kind.allCases)
    func twoRosters(kind: Kind) throws {
        let (target, environment, cleanUp) = try Self.source(kind)
        defer { cleanUp() }
        let a = try Self.openForm(target, environment: environment)
        let b = try Self.openForm(target, environment: environment)
        let name = Self.name(in: a)
        #expect(!name.isEmpty && Self.name(in: b) == name)

        Self.change(a, email: "from.a@example.org")
        #expect(a.waitFor(text: "saved"))
        Self.change(b, email: "from.b@example.org", balance: "12.50")
        // The whole conflict screen, not only its title: a capture can come
        // while the terminal is still being drawn, top line first.
        #expect(b.waitFor("the conflict screen, yours and theirs side by side") {
            $0.contains("Changed meanwhile: \(name)") && $0.contains("from.b@example.org") && $0.contains("from.a@example.org")
                && $0.contains("1 field to choose for")
        })
        // Whose theirs is, as far as the source knows: a file's time, a row's version and the time its change log gives.
        let whose = b.lines().first { $0.hasPrefix("Theirs: ") } ?? b.screen()
        switch kind {
        case .json: #expect(whose.hasPrefix("Theirs: \((target as NSString).lastPathComponent), saved"), "\(whose)")
        case .sqlite, .postgres: #expect(whose.hasPrefix("Theirs: table people at version 1, saved 20"), "\(whose)")
        }
        #expect(b.screen().contains("by another"), "\(b.screen())")
        #expect(b.screen().contains("m keeps yours, t takes theirs"), "the legend in words")
        b.send("Enter")
        #expect(b.waitFor(text: "choose for 1 field first"))
        b.send("t")
        #expect(b.waitFor(text: "every field chosen"))
        b.send("Enter")
        #expect(Self.mergeSaved(b))
        #expect(try Self.listed(name, in: target, environment: environment) == "  \(name)\tfrom.a@example.org\t$12.50")
        for session in [a, b] {
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
    }

    /// The conflict screen gone and the save said: its own legend says
    /// "saved" too ("Theirs: people.json, saved 14:02:31"), so that word
    /// alone could pass before the merge is written.
    static func mergeSaved(_ session: TmuxSession) -> Bool {
        session.waitFor("the merge saved, the conflict screen closed") { !$0.contains("Changed meanwhile") && $0.contains("saved to") }
    }

    @Test("a file changed by sed -i while the form is open: m keeps yours over theirs, and sed's other change stays")
    func changedBySed() throws {
        let (file, _, cleanUp) = try Self.source(.json)
        defer { cleanUp() }
        let session = try Self.openForm(file, environment: "")
        let name = Self.name(in: session)
        let email = try #require(session.lines().first { $0.contains("Email") }?.split(separator: " ").last.map(String.init))
        let phone = try #require(session.lines().first { $0.contains("Phone") }.map { String($0.dropFirst(18)).trimmingCharacters(in: .whitespaces) })
        #expect(!phone.isEmpty)
        // Another program changes the same email, and the phone, by replacing the file.
        try FileWatchTests.sed("s/\"\(email)\"/\"by.sed@example.org\"/", "s/\"\(phone)\"/\"+1 (555) 000-1111\"/", on: file)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("by.sed@example.org"))

        Self.change(session, email: "mine@example.org", balance: "7")
        #expect(session.waitFor("the conflict screen with sed's email") {
            $0.contains("Changed meanwhile: \(name)") && $0.contains("by.sed@example.org") && $0.contains("to choose for")
        })
        #expect(session.screen().contains("Theirs: \((file as NSString).lastPathComponent), saved"), "whose theirs is: \(session.screen())")
        session.send("m", "Enter")
        #expect(Self.mergeSaved(session))
        #expect(try Self.listed(name, in: file, environment: "") == "  \(name)\tmine@example.org\t$7.00")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("by.sed@example.org"))
        #expect(text.contains("\"+1 (555) 000-1111\""), "their phone, changed on their side only, stays")
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
