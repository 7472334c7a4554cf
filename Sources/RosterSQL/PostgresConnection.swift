import RosterCore
import CLibpq
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a PostgreSQL server through libpq; what its failures
/// mean is in `PostgresConnection+Errors.swift`.
///
/// Not `Sendable`, on purpose: libpq allows one thread at a time on a
/// connection, so the compiler keeps each one in one isolation domain (make
/// it inside the actor or task that uses it, or hand it over as `sending`).
/// What other tasks may do to it goes through `cancelHandle`, which is
/// `Sendable`. Every call blocks its thread until the server answers: run
/// them off the main actor, and cancel through the handle.
///
/// Values are always bound (`PQexecParams`, `PQsendQueryParams`); the SQL
/// text holds only `$n` placeholders and identifiers quoted by `SQLText`.
public final class PostgresConnection {
    let connection: OpaquePointer
    /// Asks the server to stop whatever this connection is running.
    public let cancelHandle: PostgresCancelHandle

    /// Connects with any libpq connection string (`host=… dbname=…`) or URI
    /// (`postgres://user@host/db?sslmode=require`); what it leaves out comes
    /// from `PGHOST`, `PGDATABASE`, `~/.pgpass`, … exactly as for `psql`.
    ///
    /// When the server asks for a password that none of those gave,
    /// `askPassword` (if any) is asked once, with a prompt naming
    /// `user@host/db`, and the connection is tried again with that password
    /// as a separate parameter: it never becomes part of a connection
    /// string, a message or a title. `askPassword` throws to give up.
    public convenience init(_ conninfo: String, askPassword: ((_ prompt: String) throws(DatabaseError) -> String)? = nil) throws(DatabaseError) {
        var connection = try Self.open(conninfo, password: nil)
        if PQstatus(connection) != CONNECTION_OK, PQconnectionNeedsPassword(connection) == 1, let askPassword {
            let prompt = "Password for \(Self.account(connection)): "
            PQfinish(connection)
            connection = try Self.open(conninfo, password: try askPassword(prompt))
        }
        try self.init(opened: connection)
    }

    /// The connection's socket, for a listener to poll.
    public var socket: Int32 { PQsocket(connection) }

    /// Reads what the server sent without waiting: the payloads of the
    /// notifications that came (`LISTEN`), or nil when the connection is
    /// lost (also when what was read was the server saying it ends it:
    /// libpq has then closed the socket, and no more will come on it).
    public func takeNotifications() -> [String]? {
        var payloads: [String] = []
        while true {
            guard PQconsumeInput(connection) == 1, PQstatus(connection) == CONNECTION_OK else { return nil }
            while let notification = PQnotifies(connection) {
                payloads.append(String(cString: notification.pointee.extra))
                PQfreemem(notification)
            }
            // Read to the end of what came: the server's goodbye and the closed
            // socket may come together, and a poller may not say so twice.
            var byte: UInt8 = 0
            let pending = recv(PQsocket(connection), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if pending == 0 { return nil }
            if pending < 0 { return payloads }
        }
    }

    /// Takes over a connection libpq opened (or failed to).
    init(opened connection: OpaquePointer) throws(DatabaseError) {
        guard PQstatus(connection) == CONNECTION_OK else {
            let failure = Self.connectionError(connection)
            PQfinish(connection)
            throw failure
        }
        // Notices ("already exists, skipping") would go to stderr, under the
        // screen; nothing in Roster reads them.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        guard let cancel = PQgetCancel(connection) else {
            let failure = DatabaseError(.cannotConnect, "PostgreSQL: " + Self.lastMessage(connection))
            PQfinish(connection)
            throw failure
        }
        self.connection = connection
        cancelHandle = PostgresCancelHandle(cancel, socket: PQsocket(connection))
        try setUp()
    }

    /// What every new (or reset) session is given: UTF-8 (asked for in the
    /// connect itself, so normally no statement), and no JIT. Given up on
    /// with the connection if the server stops answering meanwhile.
    private func setUp() throws(DatabaseError) {
        try settingUp { connection throws(DatabaseError) in
            if PQparameterStatus(connection.connection, "client_encoding").map({ String(cString: $0) }) != "UTF8",
               PQsetClientEncoding(connection.connection, "UTF8") != 0 {
                throw DatabaseError(.cannotConnect, "PostgreSQL: " + Self.lastMessage(connection.connection))
            }
            connection.turnOffJIT()
        }
    }

    /// No JIT compilation for this session. Roster's statements are short,
    /// but a search of many terms is a large expression, and LLVM compiled
    /// 256 negated terms for over three minutes (measured on 100,000
    /// people, against 2.8 s without), deaf to the statement timeout and
    /// to cancelling all the while. A server without JIT (before 11) says
    /// it has no such setting, which changes nothing.
    private func turnOffJIT() {
        _ = try? execute("SELECT set_config('jit', 'off', false)")
    }

    deinit {
        PQfinish(connection)
    }

    /// How long a connection (and a reconnect, which reuses its
    /// parameters) may take to answer, unless the connection string or
    /// `PGCONNECT_TIMEOUT` says otherwise. libpq's own default is to wait
    /// for ever, which a host that drops packets turns into a hang.
    static let defaultConnectTimeout = "10"
    /// How long a cancel request may wait for the server to take it before
    /// the server counts as not answering.
    public static let cancelPatience: Duration = .seconds(5)

    /// A server that stops answering mid-query (a frozen host, a network
    /// partition) is given up on over TCP: keepalives probe an idle
    /// connection after 10 s, three misses 5 s apart end it, and data
    /// unacknowledged for 20 s ends it too (`tcp_user_timeout`). The
    /// connection string wins over these (they come before it).
    static let deadServerDefaults = [("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"),
                                     ("keepalives_count", "3"), ("tcp_user_timeout", "20000")]

    /// Starts a connection: `conninfo` expanded as `psql` would, and
    /// `password`, when given, as a parameter of its own that wins over it.
    /// The default connect timeout comes first, so the connection string's
    /// own `connect_timeout` wins over it (libpq keeps the last value).
    private static func open(_ conninfo: String, password: String?) throws(DatabaseError) -> OpaquePointer {
        // libpq's own complaint about a malformed target quotes it whole.
        if let reason = malformation(of: conninfo) { throw DatabaseError(.invalidTarget, reason) }
        rememberPasswords(in: conninfo)
        if let password { SecretRedaction.remember(password) }
        let timeout = getenv("PGCONNECT_TIMEOUT") == nil ? [("connect_timeout", defaultConnectTimeout)] : []
        // UTF-8 after the connection string: Roster reads and writes nothing else.
        let pairs = timeout + deadServerDefaults + [("dbname", conninfo), ("client_encoding", "UTF8")] + (password.map { [("password", $0)] } ?? [])
        // expand_dbname: a dbname holding `=` or a URI is a whole connection string.
        return try connect(pairs, expandingDatabaseName: true)
    }

    /// `PQconnectdbParams` of `pairs`, through copies that are wiped (a
    /// password among them) before they are freed.
    static func connect(_ pairs: [(String, String)], expandingDatabaseName: Bool) throws(DatabaseError) -> OpaquePointer {
        let keywordPointers = pairs.map { strdup($0.0) }
        let valuePointers = pairs.map { strdup($0.1) }
        defer {
            keywordPointers.forEach { free($0) }
            valuePointers.forEach { pointer in
                if let pointer { memset(pointer, 0, strlen(pointer)) }
                free(pointer)
            }
        }
        let keywordArray: [UnsafePointer<CChar>?] = keywordPointers.map { $0.map { UnsafePointer($0) } } + [nil]
        let valueArray: [UnsafePointer<CChar>?] = valuePointers.map { $0.map { UnsafePointer($0) } } + [nil]
        guard let connection = PQconnectdbParams(keywordArray, valueArray, expandingDatabaseName ? 1 : 0) else {
            throw DatabaseError(.cannotConnect, "PostgreSQL: out of memory while connecting")
        }
        return connection
    }

    /// `user@host/db` of a connection, as libpq resolved them (defaults
    /// and environment included); a socket directory shows as `local`.
    private static func account(_ connection: OpaquePointer) -> String {
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        let host = text(PQhost(connection))
        return text(PQuser(connection)) + "@" + (host.isEmpty || host.hasPrefix("/") ? "local" : host) + "/" + text(PQdb(connection))
    }

    /// A connection parameter as libpq resolved it (`connect_timeout`), if set.
    public func parameter(_ keyword: String) -> String? {
        guard let options = PQconninfo(connection) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// The server's version as a number: 150018 for 15.18.
    public var serverVersion: Int { Int(PQserverVersion(connection)) }

    /// Runs one statement with bound `parameters` (`$1`, `$2`, …) and
    /// returns all its rows: for statements that return few.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue] = []) throws(DatabaseError) -> [SQLRow] {
        try run(sql, parameters, none: []) { result in (0..<PQntuples(result)).map { Self.row(result, $0) } }
    }

    /// Runs one statement with bound `parameters`: a query's result read
    /// by `rows`, `none` for a command's.
    func run<Rows>(_ sql: String, _ parameters: [SQLValue], none: Rows, _ rows: (OpaquePointer?) -> Rows) throws(DatabaseError) -> Rows {
        MainThreadReads.check("a PostgreSQL statement")
        let result = Self.withParameters(parameters) { count, types, values, lengths, formats in
            PQexecParams(connection, sql, count, types, values, lengths, formats, 0)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK: return rows(result)
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: return none
        default: throw error(result)
        }
    }

    /// Runs one query with bound `parameters` and hands its rows to `body`
    /// one at a time as the server sends them (single-row mode), so memory
    /// stays flat however many there are. `body` returns false to stop
    /// early: the rest of the query is then cancelled and discarded.
    public func forEachRow(_ sql: String, _ parameters: [SQLValue] = [], _ body: (SQLRow) -> Bool) throws(DatabaseError) {
        MainThreadReads.check("a PostgreSQL query")
        let sent = Self.withParameters(parameters) { count, types, values, lengths, formats in
            PQsendQueryParams(connection, sql, count, types, values, lengths, formats, 0)
        }
        guard sent == 1 else { throw connectionFailure() }
        // Without it the whole result would arrive before the first row.
        guard PQsetSingleRowMode(connection) == 1 else {
            Self.drain(connection)
            throw DatabaseError(.failed, "PostgreSQL: could not stream the rows of a query")
        }
        var failure: DatabaseError?
        var stopped = false
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE:
                if !stopped, !body(Self.row(result, 0)) {
                    stopped = true
                    // A server that takes no cancel would keep the rest
                    // of the rows coming, or none, for ever.
                    if !cancelHandle.cancel(within: Self.cancelPatience) { cancelHandle.abandonConnection() }
                }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                break
            default:
                let error = error(result)
                // Stopping early cancels the query: that is no failure.
                if failure == nil, !(stopped && error.kind == .cancelled) { failure = error }
            }
        }
        if let failure { throw failure }
    }

    /// Loads rows with `COPY … FROM STDIN` (text format), the fastest way
    /// in: `statement` names the table and columns, each element of `rows`
    /// is one row's values in that order. Returns the rows copied.
    @discardableResult
    public func copy(_ statement: String, rows: some Sequence<[SQLValue]>) throws(DatabaseError) -> Int {
        let started = PQexec(connection, statement)
        let status = PQresultStatus(started)
        if status != PGRES_COPY_IN {
            defer { PQclear(started) }
            throw status == PGRES_FATAL_ERROR ? error(started) : DatabaseError(.failed, "PostgreSQL: \(statement) did not start a copy")
        }
        PQclear(started)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.copyChunk + 4096)
        var count = 0
        var sendFailed = false
        for row in rows {
            PostgresCopyEncoding.append(row, to: &buffer)
            count += 1
            if buffer.count >= Self.copyChunk {
                if !send(buffer) {
                    sendFailed = true
                    break
                }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !sendFailed, !buffer.isEmpty { sendFailed = !send(buffer) }
        _ = PQputCopyEnd(connection, sendFailed ? "the copy could not be sent" : nil)
        var failure: DatabaseError?
        while let result = PQgetResult(connection) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, failure == nil { failure = error(result) }
            PQclear(result)
        }
        if let failure { throw failure }
        if sendFailed { throw connectionFailure() }
        return count
    }

    /// Connects again with the same parameters (and password) after the
    /// server went away (`PQreset`); settings made with statements, such as
    /// the statement timeout, are the caller's to make again.
    public func reset() throws(DatabaseError) {
        PQreset(connection)
        guard PQstatus(connection) == CONNECTION_OK else { throw Self.connectionError(connection) }
        guard let cancel = PQgetCancel(connection) else {
            throw DatabaseError(.cannotConnect, "PostgreSQL: " + Self.lastMessage(connection))
        }
        // The new server process has a new cancel key.
        cancelHandle.replace(with: cancel, socket: PQsocket(connection))
        try setUp()
    }

    /// Stops any statement of this connection after `timeout` (nil: never),
    /// so that no query can hold the screen or the server for long.
    public func setStatementTimeout(_ timeout: Duration?) throws(DatabaseError) {
        let milliseconds = timeout.map { $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 } ?? 0
        try execute("SELECT set_config('statement_timeout', $1, false)", [.text(String(max(0, milliseconds)))])
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back
    /// if it throws.
    public func transaction<Result>(_ body: () throws(DatabaseError) -> Result) throws(DatabaseError) -> Result {
        try SQLTransaction.run(begin: "BEGIN", execute: { sql throws(DatabaseError) in try execute(sql) }, body)
    }

    // MARK: Parameters and rows

    private static let copyChunk = 256 << 10
    private static let byteaType: Oid = 17

    /// Lays `values` out as libpq wants them: text for everything but
    /// bytes, which go in binary (no escaping at all), typed `bytea`.
    private static func withParameters<R>(
        _ values: [SQLValue],
        _ body: (Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        var storage: [UInt8] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var types: [Oid] = []
        for value in values {
            var isBinary = false
            let bytes: [UInt8]?
            switch value {
            case .null: bytes = nil
            case .int(let number): bytes = Array(String(number).utf8)
            case .bool(let flag): bytes = [flag ? UInt8(ascii: "t") : UInt8(ascii: "f")]
            // PostgreSQL text cannot hold U+0000; libpq would cut it there.
            case .text(let text): bytes = text.utf8.filter { $0 != 0 }
            case .bytes(let raw):
                bytes = raw
                isBinary = true
            }
            offsets.append(bytes.map { _ in storage.count })
            lengths.append(Int32(bytes?.count ?? 0))
            formats.append(isBinary ? 1 : 0)
            types.append(isBinary ? byteaType : 0)
            if let bytes { storage += bytes + [0] }
        }
        return storage.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in offset.flatMap { start in base.map { $0 + start } } }
            return body(Int32(values.count), types, pointers, lengths, formats)
        }
    }

    private static func row(_ result: OpaquePointer?, _ row: Int32) -> SQLRow {
        SQLRow((0..<PQnfields(result)).map { column -> SQLValue in
            if PQgetisnull(result, row, column) == 1 { return .null }
            let length = Int(PQgetlength(result, row, column))
            let text = PQgetvalue(result, row, column).map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self)
            } ?? ""
            switch PQftype(result, column) {
            case 16: return .bool(text == "t")
            case 20, 21, 23, 26: return Int64(text).map(SQLValue.int) ?? .text(text)
            case 17: return .bytes(PostgresCopyEncoding.bytes(fromHex: text))
            default: return .text(text)
            }
        })
    }

    private func send(_ buffer: [UInt8]) -> Bool {
        buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) == 1 }
        }
    }

    /// Reads and discards whatever a query still has to say.
    private static func drain(_ connection: OpaquePointer) {
        while let result = PQgetResult(connection) { PQclear(result) }
    }
}
