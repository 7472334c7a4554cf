import TestServers
import RosterCore
import Foundation
import RosterSQL
import Testing
import TestTraits

/// A server that asks for a password (the test server's pg_hba is
/// scram-sha-256 for everyone): asked once, with the account named,
/// the password never in a message.
@Suite(.blockingWork) struct PasswordTests {
    /// A role of its own with `password`, allowed into a fresh database.
    private func account(password: String) throws -> (server: TestPostgres, conninfo: String, role: String, database: String) {
        let server = try TestPostgres.server()
        let database = try server.makeDatabase()
        let role = "reader_" + database
        let admin = try PostgresConnection(server.conninfo(database: database))
        try admin.execute("CREATE ROLE \(SQLText.identifier(role)) LOGIN PASSWORD '\(password)'")
        return (server, "host=\(server.socketDirectory) user=\(role) dbname=\(database) connect_timeout=10", role, database)
    }

    @Test func theRightPasswordIsAskedForOnceAndConnects() throws {
        let (_, conninfo, role, database) = try account(password: "open sesame")
        let prompts = Locked<[String]>([])
        let connection = try PostgresConnection(conninfo, askPassword: { prompt in
            prompts.withLock { $0.append(prompt) }
            return "open sesame"
        })
        #expect(try connection.execute("SELECT current_user::text").first?.text(0) == role)
        #expect(prompts.withLock { $0 } == ["Password for \(role)@local/\(database): "])
    }

    @Test func aWrongPasswordIsOneClearLineWithoutThePassword() throws {
        let (_, conninfo, role, _) = try account(password: "open sesame")
        var asked = 0
        let error = #expect(throws: DatabaseError.self) {
            try PostgresConnection(conninfo, askPassword: { _ in
                asked += 1
                return "hunter2"
            })
        }
        #expect(asked == 1)
        #expect(error?.kind == .authentication)
        #expect(error?.message == "PostgreSQL: password authentication failed for user \"\(role)\"")
        #expect(error?.message.contains("hunter2") == false)
    }

    @Test func withoutAPromptTheReasonIsOneLine() throws {
        let (_, conninfo, _, _) = try account(password: "open sesame")
        let error = #expect(throws: DatabaseError.self) { try PostgresConnection(conninfo) }
        #expect(error?.kind == .passwordRequired)
        #expect(error?.message == "PostgreSQL: fe_sendauth: no password supplied (the server asks for a password: "
            + "give it in ~/.pgpass, PGPASSWORD, or run roster on a terminal to be asked)")
    }

    @Test func givingUpAtThePromptEndsTheAttempt() throws {
        let (_, conninfo, _, _) = try account(password: "open sesame")
        let error = #expect(throws: DatabaseError.self) {
            try PostgresConnection(conninfo, askPassword: { _ throws(DatabaseError) in throw DatabaseError(.cancelled, "gave up") })
        }
        #expect(error == DatabaseError(.cancelled, "gave up"))
    }

    @Test func aPasswordInTheConnectionStringIsNeverAskedFor() throws {
        let (_, conninfo, _, _) = try account(password: "open sesame")
        let connection = try PostgresConnection(conninfo + " password='open sesame'", askPassword: { _ in
            Issue.record("asked for a password the connection string gave")
            return ""
        })
        #expect(try connection.execute("SELECT 1").first?.int(0) == 1)
    }
}
