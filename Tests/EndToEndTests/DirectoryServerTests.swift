import Foundation
import Testing
import TestServers
import TestTraits

/// `roster ldap://…` as a user runs it, against a real slapd the tests
/// start themselves (`TestSlapd`: 1,200 people under `ou=People`, a size
/// limit of 500 that only paging gets past, syncprov for the live feed).
@Suite("a company directory server (LDAP), end to end", .blockingWork)
struct DirectoryServerEndToEndTests {
    /// The people's URL on `server`.
    static func peopleURL(_ server: TestSlapd) -> String {
        "\(server.ldapURL)/\(server.peopleBase)"
    }

    /// Runs `ldapmodify` as the administrator with `ldif`: another client.
    static func ldapModify(_ server: TestSlapd, _ ldif: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldapmodify")
        process.arguments = ["-x", "-H", server.ldapURL, "-D", server.adminDN, "-y", server.adminPasswordFile]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(ldif.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ldapmodify failed")
    }

    @Test("--list reads everyone past the server's size limit, page by page, grouped by organisation")
    func listPagesPastTheSizeLimit() async throws {
        let server = try await TestSlapd.shared()
        let listed = try runRoster(["--list", Self.peopleURL(server)])
        #expect(listed.status == 0, "\(listed.error)")
        #expect(listed.error.isEmpty)
        // 1,200 people in five organisations, 240 each: well past the limit of 500.
        #expect(listed.output.contains("Acme (240 people)") && listed.output.contains("Hooli (240 people)"), "\(listed.output.prefix(600))")
        #expect(listed.output.components(separatedBy: "@example.org").count - 1 == 1200)
        let filtered = try runRoster(["--list", "--filter", "p000007", Self.peopleURL(server)])
        #expect(filtered.output.contains("p000007@example.org"))
        #expect(filtered.output.components(separatedBy: "@example.org").count - 1 == 1)
    }

    @Test("the app shows everyone past the size limit: the pages after the first come in the background, with no key")
    func browsePagesPastTheSizeLimit() async throws {
        let server = try await TestSlapd.shared()
        let session = try TmuxSession("\(rosterBinary) --no-state \(TmuxSession.shellQuoted(Self.peopleURL(server)))")
        #expect(session.waitFor("everyone, grouped") { $0.contains("1,200 people · 5 companies") && $0.contains("Acme (240)") })
        #expect(session.screen().contains("127.0.0.1:\(server.port)") || session.screen().contains("ou=People,dc=example,dc=org"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a bad URL, an unreachable server, a refused password: one line naming the target, never the password")
    func failuresAreOneLine() async throws {
        let server = try await TestSlapd.shared()
        let malformed = try runRoster(["--list", "ldap://127.0.0.1/ou=People?a?bogus"])
        #expect(malformed.status == 2)
        #expect(malformed.error.split(separator: "\n").count == 1 && malformed.error.contains("has a scope that is not base, one, sub or children ('bogus')"),
                "\(malformed.error)")
        let unbalanced = try runRoster(["--list", "ldap://127.0.0.1/ou=People??sub?(o=NASA"])
        #expect(unbalanced.status == 2 && unbalanced.error.contains("has a filter whose parentheses do not match"), "\(unbalanced.error)")
        let unreachable = try runRoster(["--list", "ldap://127.0.0.1:1/ou=People,dc=example,dc=org"])
        #expect(unreachable.status == 1)
        #expect(unreachable.error == "roster: the directory at ldap://127.0.0.1:1/ou=People,dc=example,dc=org could not be reached\n",
                "\(unreachable.error)")
        let wrong = NSTemporaryDirectory() + "roster-e2e-ldap-\(UUID().uuidString).password"
        try "not-the-secret-hunter2\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        chmod(wrong, 0o600)
        defer { try? FileManager.default.removeItem(atPath: wrong) }
        // The DN's commas are escaped: an URL's extensions are separated by commas.
        let url = Self.peopleURL(server) + "????bindname=" + server.adminDN.replacingOccurrences(of: ",", with: "%2C")
        let refused = try runRoster(["--list", "--password-file", wrong, url])
        #expect(refused.status == 1)
        #expect(refused.error.split(separator: "\n").count == 1 && refused.error.contains("refused the password for \(server.adminDN)"),
                "\(refused.error)")
        #expect(!refused.error.contains("hunter2"))
        let bound = try runRoster(["--list", "--password-file", server.adminPasswordFile, url])
        #expect(bound.status == 0 && bound.output.contains("Acme (240 people)"), "\(bound.error)")
        // Off a terminal nobody can be asked.
        let unasked = try runRoster(["--list", url])
        #expect(unasked.status == 1)
        #expect(unasked.error.contains("needs a password: give --password-file FILE"), "\(unasked.error)")
        let elsewhere = try runRoster(["--list", "--password-file", server.adminPasswordFile, "people.db"])
        #expect(elsewhere.status == 2 && elsewhere.error.contains("--password-file is for directory servers"), "\(elsewhere.error)")
    }

    @Test("binding as a DN asks for the password on the terminal, echo off, before the screen starts")
    func passwordAskedOnTheTerminal() async throws {
        let server = try await TestSlapd.shared()
        let url = Self.peopleURL(server) + "????bindname=" + server.adminDN.replacingOccurrences(of: ",", with: "%2C")
        let session = try TmuxSession("\(rosterBinary) --no-state \(TmuxSession.shellQuoted(url))")
        #expect(session.waitFor(text: "Password for \(server.adminDN) at ldap://"))
        session.type(TestSlapd.adminPassword)
        #expect(!session.screen().contains(TestSlapd.adminPassword))
        session.send("Enter")
        #expect(session.waitFor("everyone, as the administrator") { $0.contains("1,200 people · 5 companies") })
        #expect(!session.screen().contains(TestSlapd.adminPassword))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("browsing: people grouped by organisation, / narrows them, another client's change shows without a key, a restarted server heals")
    func browseLiveAndHeal() async throws {
        var configuration = TestSlapd.Configuration()
        configuration.people = 300
        let server = try await TestSlapd.started(configuration)
        let session = try TmuxSession("\(rosterBinary) --no-state \(TmuxSession.shellQuoted(Self.peopleURL(server)))")
        #expect(session.waitFor("the first frame, grouped, the title naming the directory") {
            $0.contains("300 people · 5 companies") && $0.contains("Acme (60)") && $0.contains(server.peopleBase.suffix(20))
        })
        session.send("/")
        session.type("p000007")
        #expect(session.waitFor("the one match") { $0.contains("1 of 300 people") && $0.contains("p000007@example.org") })
        session.send("Enter")
        session.send("Escape")
        #expect(session.waitFor(text: "300 people"))
        session.send("g")
        #expect(session.waitFor(text: "Farah Abbott"))
        // Another client renames a person on the first screen: shown with no key pressed.
        try Self.ldapModify(server, """
            dn: uid=p000005,ou=People,\(server.suffix)
            changetype: modify
            replace: sn
            sn: Aardvark
            """)
        #expect(session.waitFor("the change, read live", timeout: 5) { $0.contains("Farah Aardvark") && $0.contains("300 people") })
        server.kill()
        #expect(session.waitFor("the title saying the connection is lost") {
            ($0.components(separatedBy: "\n").first ?? "").contains("connection lost")
        })
        try await server.restarted()
        #expect(session.waitFor("healed with no key") { !($0.components(separatedBy: "\n").first ?? "").contains("connection lost") })
        try Self.ldapModify(server, """
            dn: uid=p000010,ou=People,\(server.suffix)
            changetype: modify
            replace: sn
            sn: Aaronson
            """)
        #expect(session.waitFor("a change after the restart, read live") { $0.contains("Kofi Aaronson") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    /// Roster on `url` in tmux, its second person's form open.
    static func openForm(_ url: String, passwordFile: String? = nil) throws -> TmuxSession {
        let bind = passwordFile.map { "--password-file \(TmuxSession.shellQuoted($0)) " } ?? ""
        let session = try TmuxSession("\(rosterBinary) --no-state \(bind)\(TmuxSession.shellQuoted(url))")
        #expect(session.waitFor(text: "300 people"))
        session.send("j", "E")
        #expect(session.waitFor(text: "Roster — Edit "))
        return session
    }

    /// The email set to `email` from the form's first field, then Enter.
    static func change(_ session: TmuxSession, email: String) {
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type(email)
        session.send("Enter")
    }

    @Test("edits: a save is a modify that lands, a stale one is the conflict screen, an anonymous one is refused in one line")
    func editsCarryTheirVersion() async throws {
        var configuration = TestSlapd.Configuration()
        configuration.people = 300
        let server = try await TestSlapd.started(configuration)
        let url = Self.peopleURL(server) + "????bindname=" + server.adminDN.replacingOccurrences(of: ",", with: "%2C")
        let a = try Self.openForm(url, passwordFile: server.adminPasswordFile)
        let b = try Self.openForm(url, passwordFile: server.adminPasswordFile)
        Self.change(a, email: "from.a@example.org")
        // Said, and still said once A's own feed has told of it: its own save is no change by someone else.
        #expect(a.waitFor("the save, landed") { $0.contains("saved to") && $0.contains("from.a@example.org") })
        #expect(!a.waitFor("the save's message replaced by its own echo", timeout: 1.5, quietly: true) { !$0.contains("saved to") })
        Self.change(b, email: "from.b@example.org")
        #expect(b.waitFor("the conflict screen, yours and theirs") {
            $0.contains("Changed meanwhile:") && $0.contains("from.b@example.org") && $0.contains("from.a@example.org")
        })
        let listed = try runRoster(["--list", Self.peopleURL(server)])
        #expect(listed.output.components(separatedBy: "from.a@example.org").count == 2 && !listed.output.contains("from.b@example.org"))
        let anonymous = try Self.openForm(Self.peopleURL(server))
        Self.change(anonymous, email: "from.nobody@example.org")
        #expect(anonymous.waitFor(text: "does not let an anonymous connection change mail"))
        for session in [a, b, anonymous] {
            session.send("Escape", "Escape", "q")
        }
    }
}
