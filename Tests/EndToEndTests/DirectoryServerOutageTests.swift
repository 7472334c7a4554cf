import Foundation
import Testing
import TestServers
import TestTraits

/// A directory server that goes away and comes back while a screen is open
/// over the list, by the real binary in tmux against a slapd of the test's
/// own: the screen stays, with what was typed in it.
@Suite("a directory server's outage under an open screen, end to end", .serialized, .blockingWork)
struct DirectoryServerOutageTests {
    /// Roster's connections to `server` that are up (the screen's, the change feed's).
    static func connections(to server: TestSlapd) -> Int {
        let table = readWhole("/proc/net/tcp")
        let remote = "0100007F:" + String(format: "%04X", server.port)
        // sl, local address, remote address, state (01: established).
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[2] == remote && fields[3] == "01"
        }.count
    }

    /// A file of /proc read to its end. `String(contentsOfFile:)` trusts the
    /// size /proc reports (0) and keeps only the first read's page: with
    /// the whole suite's connections open, the table's first 4 KB missed
    /// Roster's connections, and the test waited for them in vain.
    static func readWhole(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isForm(_ screen: String) -> Bool { screen.contains("Roster — Edit ") }

    @Test("a form open across a restart stays with what was typed (a save tried meanwhile refused), and saves once the server is back; a person's screen stays too")
    func formStaysAcrossARestart() async throws {
        var configuration = TestSlapd.Configuration()
        configuration.people = 300
        let server = try await TestSlapd.started(configuration)
        defer { server.stop() }
        let url = DirectoryServerEndToEndTests.peopleURL(server) + "????bindname=" + server.adminDN.replacingOccurrences(of: ",", with: "%2C")
        let session = try DirectoryServerEndToEndTests.openForm(url, passwordFile: server.adminPasswordFile)
        #expect(session.waitFor("the screen's connection and the feed's") { _ in Self.connections(to: server) >= 2 })
        session.send("Tab", "Tab", "Tab", "C-u")
        session.type("typed.meanwhile@example.org")
        server.kill()
        session.send("Enter")
        #expect(session.waitFor("the save refused, the form still open") {
            $0.contains("not saved") && Self.isForm($0) && $0.contains("typed.meanwhile@example.org")
        })
        try await server.restarted()
        #expect(session.waitFor("connected again", timeout: 30) { _ in Self.connections(to: server) >= 1 })
        #expect(!session.waitFor("the form closed by the reconnect's read", timeout: 3, quietly: true) { !Self.isForm($0) })
        #expect(Self.isForm(session.screen()) && session.screen().contains("typed.meanwhile@example.org"))
        session.send("Enter")
        #expect(session.waitFor("the save, landed") { $0.contains("saved to") && $0.contains("typed.meanwhile@example.org") })
        let listed = try runRoster(["--list", DirectoryServerEndToEndTests.peopleURL(server)])
        #expect(listed.output.components(separatedBy: "typed.meanwhile@example.org").count == 2, "saved once, in the directory")

        // The person's screen stays open across a restart too.
        session.send("Enter")
        #expect(session.waitFor(text: "typed.meanwhile@example.org"))
        let person = session.screen()
        #expect(!person.contains("saved to"), "the person's screen, not the list")
        server.kill()
        #expect(session.waitFor("the feed's connection gone") { _ in Self.connections(to: server) == 0 })
        try await server.restarted()
        #expect(session.waitFor("connected again", timeout: 30) { _ in Self.connections(to: server) >= 1 })
        #expect(!session.waitFor("the person's screen closed by the reconnect's read", timeout: 3, quietly: true) {
            $0.contains("people · 5 companies")
        })
        session.send("Escape")
        // Read again once back on the list (the reconnect's read, or the feed's reading of everyone after it, whichever lands last).
        #expect(session.waitFor("back on the list, read again", timeout: 30) {
            $0.contains("300 people") && ($0.contains("reconnected; read again") || $0.contains("read everyone in the directory"))
        })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
