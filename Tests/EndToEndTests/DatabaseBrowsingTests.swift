import Foundation
import Testing
import TestTraits

/// `roster DATABASE` as a user runs it, on an SQLite file made by
/// `roster import` (PostgreSQL is the same code over libpq: RosterSQLTests
/// compare its `--list` with the file's on a real server).
@Suite("browsing a database, end to end", .blockingWork)
struct DatabaseBrowsingEndToEndTests {
    /// The bundled directory imported into a fresh SQLite file.
    func importedBundledDirectory() throws -> (database: String, file: String) {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/people.json")
            .standardized.path
        let database = NSTemporaryDirectory() + "roster-e2e-browse-\(UUID().uuidString).db"
        let imported = try runRoster(["import", file, "--into", database])
        #expect(imported.status == 0, "\(imported.error)")
        return (database, file)
    }

    @Test("--list and --export over SQLite equal those over the original file, byte for byte")
    func listEqualsTheFile() throws {
        let (database, file) = try importedBundledDirectory()
        defer { try? FileManager.default.removeItem(atPath: database) }
        for extra in [[], ["--sort", "balance:desc"], ["--filter", "an -age>30"], ["--export", "csv"], ["--export", "json"]] {
            let fromFile = try runRoster(["--list"] + extra + [file])
            let fromDatabase = try runRoster(["--list"] + extra + ["sqlite:" + database])
            #expect(fromFile.status == 0 && fromDatabase.status == 0)
            #expect(fromFile.output.count > 1000)
            #expect(fromDatabase.output == fromFile.output, "\(extra)")
            #expect(fromDatabase.error.isEmpty)
        }
    }

    @Test("a file whose name holds '=' is read as a file, not a connection string")
    func fileWithEqualsSign() throws {
        let (database, file) = try importedBundledDirectory()
        defer { try? FileManager.default.removeItem(atPath: database) }
        let odd = NSTemporaryDirectory() + "roster-e2e-a=b-\(UUID().uuidString).json"
        try FileManager.default.copyItem(atPath: file, toPath: odd)
        defer { try? FileManager.default.removeItem(atPath: odd) }
        let listed = try runRoster(["--list", odd])
        #expect(listed.status == 0)
        #expect(listed.output == (try runRoster(["--list", database])).output)
    }

    @Test("a database that cannot be opened is one line naming it, status 1, never the password")
    func failuresAreOneLine() throws {
        let missing = try runRoster(["--list", "/nonexistent/people.db"])
        #expect(missing.status == 1)
        #expect(missing.error == "roster: /nonexistent/people.db: no such file; make one with: roster import FILE --into /nonexistent/people.db\n")
        let (database, _) = try importedBundledDirectory()
        defer { try? FileManager.default.removeItem(atPath: database) }
        let noTable = try runRoster(["--list", database, "--table", "staff"])
        #expect(noTable.status == 1)
        #expect(noTable.error == "roster: \(database): there is no table staff; make it with: roster import FILE --into \(database) --table staff\n")
        #expect(noTable.error.split(separator: "\n").count == 1)
        let refused = try runRoster(["--list", "host=/nonexistent-roster-socket dbname=x user=u password=hunter2"])
        #expect(refused.status == 1)
        #expect(refused.error.hasPrefix("roster: postgres://u@/x?host=/nonexistent-roster-socket: cannot open: PostgreSQL: connection to server"))
        #expect(!refused.error.contains("hunter2"))
        #expect(refused.error.split(separator: "\n").count == 1)
    }

    @Test("browsing a .db: the first frame shows people, / narrows them, Enter opens the detail, q restores the terminal")
    func browse() throws {
        let (database, _) = try importedBundledDirectory()
        defer { try? FileManager.default.removeItem(atPath: database) }
        let session = try TmuxSession("\(rosterBinary) \(TmuxSession.shellQuoted(database))")
        #expect(session.waitFor("the first frame: the title keeps the end of the path") {
            $0.contains("400 people · 33 companies") && $0.contains(String(database.suffix(12))) && $0.contains("COMGY (6)")
        })
        // The rows are read in the background: drawn 'loading…' for a moment.
        #expect(session.waitFor(text: "Frank Dillon"))
        session.send("/")
        session.type("jose")
        #expect(session.waitFor("the three matches, their rows read") { $0.contains("3 of 400 people") && $0.contains("José Mays") })
        #expect(!session.screen().contains("Frank Dillon"))
        session.send("Enter")
        #expect(session.waitFor(text: "filter: jose"))
        session.send("Enter")
        // The detail's own line: the list showed the email already.
        #expect(session.waitFor(text: "Address  971 Vermont Street, Concho, Maine, 4742"))
        session.send("q")
        #expect(session.exitStatus() == 0)
        #expect(session.waitFor(text: "roster exited 0"))
        #expect(!session.screen().contains("Frank Dillon"))
    }
}
