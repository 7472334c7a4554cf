import RosterCore
import CSQLite3

/// One SQLite database file, opened read-only or read-write: the only
/// file that imports `CSQLite3`.
///
/// Not `Sendable`, like `PostgresConnection`: one task at a time uses a
/// connection and its statements (it is opened `NOMUTEX`, so SQLite takes
/// no lock of its own), and the compiler keeps it so. Another task stops a
/// running statement through `interruptHandle`, which is `Sendable`.
public final class SQLiteConnection {
    public enum Access: Sendable {
        /// Never writes (browsing); a missing file is an error.
        case readOnly
        /// Creates the file if missing (import).
        case readWrite
    }

    let database: OpaquePointer
    /// Interrupts whatever this connection is running, from any thread.
    public let interruptHandle: SQLiteInterruptHandle
    /// The path as given, for messages.
    public let path: String
    /// The file opened (device and inode, taken at opening): another at
    /// `path` since is another program's (`isFileReplaced`).
    let openedFile: SQLiteFileIdentity?
    /// How long a statement waits on another writer's lock, unless told.
    public static let defaultBusyTimeout: Duration = .seconds(5)

    /// Opens `path` (a plain path, never a `file:` URI) and waits up to
    /// `busyTimeout` for another writer's lock before giving up.
    public init(path: String, access: Access, busyTimeout: Duration = defaultBusyTimeout) throws(DatabaseError) {
        var handle: OpaquePointer?
        let flags = (access == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw DatabaseError(.cannotConnect, "\(path): \(reason)", code: String(status))
        }
        database = handle
        self.path = path
        openedFile = SQLiteFileIdentity(path: path)
        interruptHandle = SQLiteInterruptHandle(handle)
        // The extended codes tell "no such table" from other errors.
        sqlite3_extended_result_codes(handle, 1)
        setBusyTimeout(busyTimeout)
    }

    deinit {
        // The handle must never interrupt a closed (freed) database.
        interruptHandle.detach()
        // close_v2: statements still alive are finalized when they go.
        sqlite3_close_v2(database)
    }

    /// Whether another file is at `path` now than the one this connection
    /// has open (a restore, `mv new.db people.db`): the connection goes on
    /// reading the file it opened, which no one else sees any more. A path
    /// that names nothing now is not another file.
    public var isFileReplaced: Bool {
        SQLiteFileIdentity(path: path).map { $0 != openedFile } ?? false
    }

    /// How long a statement waits for another connection's lock.
    public func setBusyTimeout(_ timeout: Duration) {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(database, Int32(clamping: milliseconds))
    }

    /// Runs SQL without values (schema statements, several separated by `;`).
    public func execute(_ sql: String) throws(DatabaseError) {
        MainThreadReads.check("an SQLite statement")
        let status = sqlite3_exec(database, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Compiles one statement with `?` placeholders, to bind and step.
    public func prepare(_ sql: String) throws(DatabaseError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        return SQLiteStatement(statement, connection: self)
    }

    /// Runs one statement with bound `parameters` and returns all its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(DatabaseError) -> [SQLRow] {
        var rows: [SQLRow] = []
        try forEachRow(sql, parameters) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    /// Hands each row of one query to `body` as SQLite steps to it; `body`
    /// returns false to stop early.
    public func forEachRow(_ sql: String, _ parameters: [SQLValue] = [], _ body: (SQLRow) -> Bool) throws(DatabaseError) {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        while try statement.step() {
            if !body(statement.row()) { return }
        }
    }

    /// Hands each row of one query to `body` as SQLite holds it: the text
    /// of a column (`SQLColumnText`), with no String made; for many rows.
    public func forEachTextRow(_ sql: String, _ parameters: [SQLValue], _ body: (SQLColumnText) -> Void) throws(DatabaseError) {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        while try statement.step() {
            body { column, use in use(statement.text(of: column)) }
        }
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`: the write lock is
    /// taken up front, so a busy database fails at once, not halfway);
    /// committed if it returns, rolled back if it throws.
    public func transaction<Result>(_ body: () throws(DatabaseError) -> Result) throws(DatabaseError) -> Result {
        try SQLTransaction.run(begin: "BEGIN IMMEDIATE", execute: execute, body)
    }

    /// Makes `name(…)` callable in this connection's SQL: `body` gets the
    /// arguments as text (nil for NULL) and returns the result (nil: NULL).
    /// Deterministic, so that SQLite may use it in indexes and plans.
    public func registerFunction(_ name: String, arity: Int32,
                                 _ body: @escaping @Sendable ([String?]) -> String?) throws(DatabaseError) {
        let box = Unmanaged.passRetained(SQLiteFunctionBox(body)).toOpaque()
        let status = sqlite3_create_function_v2(database, name, arity, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box, { context, count, values in
            guard let context, let box = sqlite3_user_data(context) else { return }
            let function = Unmanaged<SQLiteFunctionBox>.fromOpaque(box).takeUnretainedValue()
            let arguments = (0..<Int(count)).map { index -> String? in
                guard let value = values?[index], sqlite3_value_type(value) != SQLITE_NULL,
                      let text = sqlite3_value_text(value) else { return nil }
                return String(decoding: UnsafeRawBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
            }
            guard let result = function.body(arguments) else {
                sqlite3_result_null(context)
                return
            }
            sqlite3_result_text64(context, result, UInt64(result.utf8.count), roster_sqlite_transient(), UInt8(SQLITE_UTF8))
        }, nil, nil, { box in
            if let box { Unmanaged<SQLiteFunctionBox>.fromOpaque(box).release() }
        })
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// The rows the last INSERT, UPDATE or DELETE changed.
    public var changes: Int { Int(sqlite3_changes64(database)) }

    func error(_ status: Int32) -> DatabaseError {
        var message = String(cString: sqlite3_errmsg(database))
        let kind: DatabaseError.Kind
        if status & 0xFF == SQLITE_BUSY {
            // "database is locked" leaves the user guessing by whom.
            message += " (another program is writing to it; try again when it has finished)"
        }
        switch status & 0xFF {
        case SQLITE_INTERRUPT: kind = .cancelled
        case SQLITE_BUSY: kind = .busy
        case SQLITE_CANTOPEN: kind = .cannotConnect
        default: kind = message.hasPrefix("no such table") ? .missingTable : .failed
        }
        return DatabaseError(kind, "\(path): \(message)", code: String(status))
    }
}

/// A registered function's Swift body, kept alive by SQLite until the
/// connection closes.
private final class SQLiteFunctionBox {
    let body: @Sendable ([String?]) -> String?

    init(_ body: @escaping @Sendable ([String?]) -> String?) {
        self.body = body
    }
}

/// A compiled statement of a `SQLiteConnection`; used by the same task.
public final class SQLiteStatement {
    private let statement: OpaquePointer
    /// Keeps the database open while the statement lives.
    private let connection: SQLiteConnection

    fileprivate init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Resets the statement and binds `values` to its `?` placeholders in order.
    public func bind(_ values: [SQLValue]) throws(DatabaseError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .int(let number): status = sqlite3_bind_int64(statement, index, number)
            case .bool(let flag): status = sqlite3_bind_int64(statement, index, flag ? 1 : 0)
            case .text(let text):
                status = sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), roster_sqlite_transient(), UInt8(SQLITE_UTF8))
            case .bytes(let bytes):
                status = bytes.withUnsafeBytes {
                    // A zero-length blob is not NULL: give SQLite a valid pointer.
                    sqlite3_bind_blob64(statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64($0.count),
                                        roster_sqlite_transient())
                }
            }
            guard status == SQLITE_OK else { throw connection.error(status) }
        }
    }

    /// Steps to the next row: true when there is one, false when done.
    public func step() throws(DatabaseError) -> Bool {
        MainThreadReads.check("an SQLite statement")
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = connection.error(status)
            sqlite3_reset(statement)
            throw failure
        }
    }

    /// Binds `values` and steps to the end: for statements without rows.
    public func run(_ values: [SQLValue]) throws(DatabaseError) {
        try bind(values)
        while try step() {}
    }

    /// The current row, copied out.
    /// Column `column`'s text bytes in the current row (numbers as SQLite
    /// writes them), nil for NULL; valid until the next step.
    func text(of column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let start = sqlite3_column_text(statement, column) else { return nil }
        return UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, column)))
    }

    public func row() -> SQLRow {
        SQLRow((0..<sqlite3_column_count(statement)).map { column -> SQLValue in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_NULL: return .null
            case SQLITE_INTEGER: return .int(sqlite3_column_int64(statement, column))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(statement, column))
                guard let start = sqlite3_column_blob(statement, column) else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: start, count: count)))
            case SQLITE_FLOAT: return .text(String(sqlite3_column_double(statement, column)))
            default:
                let count = Int(sqlite3_column_bytes(statement, column))
                guard let start = sqlite3_column_text(statement, column) else { return .text("") }
                return .text(String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self))
            }
        })
    }
}

/// Interrupts the statement a `SQLiteConnection` is running, from any
/// thread (`sqlite3_interrupt` is made for that).
///
/// `Sendable`: the database pointer sits behind a lock, and the connection
/// clears it before closing, so a late interrupt does nothing rather than
/// touch freed memory.
public final class SQLiteInterruptHandle: Sendable {
    /// The pointer crosses threads only under the lock, and only to
    /// `sqlite3_interrupt`, the one call SQLite allows from anywhere.
    private struct Database: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let database: Locked<Database?>

    fileprivate init(_ database: OpaquePointer) {
        self.database = Locked(Database(pointer: database))
    }

    fileprivate func detach() {
        database.withLock { $0 = nil }
    }

    /// Makes the running statement fail with a `.cancelled` error (a
    /// statement started after it has stopped runs normally).
    public func interrupt() {
        database.withLock { database in
            if let database { sqlite3_interrupt(database.pointer) }
        }
    }
}
