import Foundation
import RosterSQL
import Testing
import TestServers

/// The database a row of the fault matrix runs on, as the test reaches
/// it: straight to the server (never through the relay Roster may go
/// through), or the SQLite file. The bundled directory is imported once
/// per engine and each row gets a copy of its own (`CREATE DATABASE …
/// TEMPLATE`, a copied file): a fault never reaches another row, and the
/// rows do not each pay for an import. `Roster` opens `target`.
final class FaultMatrixDatabase {
    enum Place {
        /// A database of its own on `server`; Roster through `relay` if there is one.
        case postgres(server: TestPostgres, database: String, relay: FreezingRelay?)
        case sqlite(path: String)
    }

    let place: Place
    /// Roster's caches and state, and the SQLite file, in a folder of the row's own.
    let folder = NSTemporaryDirectory() + "roster-e2e-matrix-\(UUID().uuidString.prefix(8))"

    init(for row: FaultMatrix.Row) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        switch row.engine {
        case .sqlite:
            place = .sqlite(path: folder + "/people.db")
            try FileManager.default.copyItem(atPath: try Self.sqliteBase.get(), toPath: folder + "/people.db")
        case .postgres where row.fault == .restarted:
            // A restart stops the server: one of the row's own, imported into.
            let server = try TestPostgres.privateServer()
            let database = try server.makeDatabase()
            try Self.importBundled(into: "postgres://postgres@/\(database)?host=\(server.socketDirectory)")
            try Self.makeGate(in: server.conninfo(database: database))
            place = .postgres(server: server, database: database, relay: nil)
        case .postgres:
            let server = try TestPostgres.server()
            let relay = [.frozen, .cut].contains(row.fault) ? try FreezingRelay(to: server.socketDirectory + "/.s.PGSQL.5432") : nil
            place = .postgres(server: server, database: try Self.copyOfPostgresBase(on: server), relay: relay)
        }
    }

    static let password = ["PGPASSWORD": TestPostgres.password]

    // MARK: One import per engine

    private static func importBundled(into target: String) throws {
        let imported = try runRoster(["import", EditingEndToEndTests.bundled, "--into", target], environment: password)
        guard imported.status == 0 else { throw FaultMatrixFailure("import into \(target): \(imported.error)") }
    }

    /// The bundled directory imported into an SQLite file, once a run,
    /// named by the run's process: the bases of runs that have ended (or of
    /// an older naming) are removed first, so that runs leave none behind.
    private static let sqliteBase = Result { () throws -> String in
        let folder = NSTemporaryDirectory(), prefix = "roster-e2e-matrix-base-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).dropLast(".db".count)
            let pid = name.hasSuffix(".db") && !digits.isEmpty && digits.allSatisfy(\.isNumber) ? pid_t(digits) : nil
            if pid.map({ kill($0, 0) != 0 && errno == ESRCH }) ?? true { try? FileManager.default.removeItem(atPath: folder + name) }
        }
        let path = folder + prefix + "\(getpid()).db"
        try? FileManager.default.removeItem(atPath: path)
        try importBundled(into: path)
        return path
    }

    /// The bundled directory imported, with the gate, into a database of
    /// the shared server that the rows' databases are copied from, once.
    private static let postgresBase = Result { () throws -> String in
        let server = try TestPostgres.server()
        let database = try server.makeDatabase()
        try importBundled(into: "postgres://postgres@/\(database)?host=\(server.socketDirectory)")
        try makeGate(in: server.conninfo(database: database))
        return database
    }

    /// One copy at a time: a database being copied from may have no other session.
    private static let copying = NSLock()

    private static func copyOfPostgresBase(on server: TestPostgres) throws -> String {
        let base = try postgresBase.get()
        let name = "roster_matrix_\(UUID().uuidString.prefix(8).lowercased())"
        copying.lock()
        defer { copying.unlock() }
        try PostgresConnection(server.conninfo(database: "postgres")).execute("CREATE DATABASE \(name) TEMPLATE \(base)")
        return name
    }

    var isPostgres: Bool {
        if case .postgres = place { return true }
        return false
    }

    /// What Roster opens: through the relay, if the row has one.
    var target: String {
        switch place {
        case .postgres(let server, let database, let relay): "postgres://postgres@/\(database)?host=\(relay?.directory ?? server.socketDirectory)"
        case .sqlite(let path): path
        }
    }

    /// The same directory, straight to the server: another writer's way in.
    var directTarget: String {
        switch place {
        case .postgres(let server, let database, _): "postgres://postgres@/\(database)?host=\(server.socketDirectory)"
        case .sqlite(let path): path
        }
    }

    /// The first column of the first row of `query`, as text.
    func text(_ query: String) throws -> String? {
        let rows: [SQLRow]
        switch place {
        case .postgres(let server, let database, _): rows = try PostgresConnection(server.conninfo(database: database)).execute(query)
        case .sqlite(let path): rows = try SQLiteConnection(path: path, access: .readOnly).query(query)
        }
        return rows.first.flatMap { $0.text(0) ?? $0.int(0).map(String.init) }
    }

    func integer(_ query: String) throws -> Int {
        Int(try text(query) ?? "") ?? -1
    }

    // MARK: The faults

    /// A lock another session holds until `end`.
    final class HeldLock {
        private let release: () throws -> Void

        init(release: @escaping () throws -> Void) {
            self.release = release
        }

        func end() throws { try release() }
    }

    /// `LOCK TABLE … ACCESS EXCLUSIVE` (every read waits), or SQLite's
    /// `BEGIN EXCLUSIVE` (readers wait too) or, `writersOnly`, `BEGIN
    /// IMMEDIATE` (its write lock: readers go on).
    func lock(writersOnly: Bool = false) throws -> HeldLock {
        switch place {
        case .postgres(let server, let database, _):
            let session = try PostgresConnection(server.conninfo(database: database))
            try session.execute("BEGIN")
            try session.execute("LOCK TABLE people IN ACCESS EXCLUSIVE MODE")
            return HeldLock { try session.execute("ROLLBACK") }
        case .sqlite(let path):
            let session = try SQLiteConnection(path: path, access: .readWrite)
            try session.execute(writersOnly ? "BEGIN IMMEDIATE" : "BEGIN EXCLUSIVE")
            return HeldLock { try session.execute("ROLLBACK") }
        }
    }

    /// Puts another file at the SQLite file's path, as a restore from a
    /// backup does: a copy of it, with `updates` (`_id`, `field=value`)
    /// made by `roster update`, renamed over it.
    func replaceFile(updating updates: [(id: String, assignment: String)]) throws {
        guard case .sqlite(let path) = place else { throw FaultMatrixFailure("only an SQLite file is replaced") }
        let copy = folder + "/replacement.db"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        for update in updates {
            let updated = try runRoster(["update", copy, update.id, update.assignment, "--quiet"])
            guard updated.status == 0 else { throw FaultMatrixFailure("roster update of the replacement: \(updated.error)") }
        }
        guard rename(copy, path) == 0 else { throw FaultMatrixFailure("rename: \(errno)") }
    }

    /// Ends every session Roster has on the database (`pg_terminate_backend`).
    func endRosterSessions() throws {
        guard case .postgres(let server, let database, _) = place else { return }
        _ = try server.terminateConnections(to: database)
    }

    // MARK: The gate

    /// A gate a save waits at, inside its transaction (PostgreSQL): while
    /// it is closed, an edit claiming its operation id (every save of the
    /// screens and of the outbox) waits there, so that a fault can be made
    /// at that moment, mid-save. Its state is a table row, so that it
    /// outlasts a restart.
    private static func makeGate(in conninfo: String) throws {
        let connection = try PostgresConnection(conninfo)
        for statement in [
            "CREATE TABLE IF NOT EXISTS people_applied (operation text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())",
            "CREATE TABLE roster_test_gate (closed boolean NOT NULL)",
            "INSERT INTO roster_test_gate VALUES (false)",
            """
            CREATE FUNCTION roster_test_gate() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                WHILE (SELECT closed FROM roster_test_gate) LOOP PERFORM pg_sleep(0.02); END LOOP;
                RETURN NEW;
            END $$
            """,
            "CREATE TRIGGER roster_test_gate BEFORE INSERT ON people_applied FOR EACH ROW EXECUTE FUNCTION roster_test_gate()",
        ] {
            try connection.execute(statement)
        }
    }

    func closeGate() throws { _ = try text("UPDATE roster_test_gate SET closed = true") }
    func openGate() throws { _ = try text("UPDATE roster_test_gate SET closed = false") }

    /// Ends the one session waiting at the gate (a save, or the outbox's
    /// sending, on a connection of its own), sparing the others.
    func endSessionAtGate() throws {
        _ = try text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'")
    }

    /// Whether a save is waiting at the gate.
    func isWaitingAtGate() -> Bool {
        ((try? integer("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'")) ?? 0) > 0
    }

    // MARK: What landed

    /// The phone of the person called `first last` in the table.
    func phone(of first: String, _ last: String) throws -> String? {
        try text("SELECT phone FROM people WHERE first_name = '\(first)' AND last_name = '\(last)'")
    }

    /// The change log's last number.
    func lastChange() throws -> Int {
        try integer("SELECT coalesce(max(seq), 0) FROM people_changes")
    }

    /// Updates of `first last` the change log holds after `seq`.
    func updates(of first: String, _ last: String, after seq: Int) throws -> Int {
        try integer("""
            SELECT count(*) FROM people_changes WHERE operation = 'update' AND seq > \(seq)
            AND person_key = (SELECT person_key FROM people WHERE first_name = '\(first)' AND last_name = '\(last)')
            """)
    }

    /// Operations the table has applied from an outbox or a screen's save (PostgreSQL).
    func appliedOperations() throws -> Int {
        isPostgres ? try integer("SELECT count(*) FROM people_applied") : 0
    }

    func remove() {
        if case .postgres(let server, let database, let relay) = place {
            relay?.stop()
            if server !== (try? TestPostgres.server()) {
                try? server.stop()
            } else {
                _ = try? PostgresConnection(server.conninfo(database: "postgres")).execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A step of the matrix's own that could not be taken (not a cell's failure).
struct FaultMatrixFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
