import RosterCore

/// How long a connection waits.
public struct LDAPConnectionOptions: Sendable {
    /// For the TCP connect (and TLS handshake).
    public var networkTimeout: Duration
    /// For each reply to an operation (a page, a window, a write); a
    /// synchronisation that persists has none.
    public var operationTimeout: Duration
    /// Names the connection's thread (`roster.ldap.<label>`), for a debugger.
    public var label: String

    public init(networkTimeout: Duration = .seconds(10), operationTimeout: Duration = .seconds(30), label: String = "connection") {
        self.networkTimeout = networkTimeout
        self.operationTimeout = operationTimeout
        self.label = label
    }
}

/// One connection to a directory server, bound, with a thread of its own.
///
/// Every operation is `async throws(LDAPError)` and runs on the
/// connection's lane (`LDAPLane`), one at a time, in the order asked;
/// cancelling the calling task abandons the operation at once. After the
/// connection is lost every operation fails with `.connectionLost` until
/// `reconnect()`, which binds again with the same credentials.
///
/// The operations live in extensions by kind: reading (`search`, `page`,
/// `readAll`, `window`, `read`, `rootDSE`), writing (`modify`, `add`,
/// `delete` with assertions and read-back), and changes
/// (`synchronize`, `persistentSearch`).
public final class LDAPConnection: Sendable {
    public let url: LDAPURL
    public let options: LDAPConnectionOptions
    let lane: LDAPLane
    private let credentials: LDAPCredentials
    private let uri: String
    private let boundIdentity: Locked<String>

    private init(url: LDAPURL, credentials: LDAPCredentials, options: LDAPConnectionOptions, defaults: LDAPDefaults) throws(LDAPError) {
        self.url = url
        self.credentials = credentials
        self.options = options
        uri = url.connectionURI(defaults: defaults)
        lane = try LDAPLane(label: options.label, operationTimeout: options.operationTimeout)
        boundIdentity = Locked(credentials.identity)
    }

    /// Connects to `url`'s server and binds with `credentials` (StartTLS
    /// first when the URL asks for it).
    public static func open(_ url: LDAPURL, credentials: LDAPCredentials = .anonymous, options: LDAPConnectionOptions = .init(),
                            defaults: LDAPDefaults = .init()) async throws(LDAPError) -> LDAPConnection {
        let connection = try LDAPConnection(url: url, credentials: credentials, options: options, defaults: defaults)
        try await connection.reconnect()
        return connection
    }

    deinit {
        lane.close()
    }

    /// Connects and binds again (after the connection was lost).
    public func reconnect() async throws(LDAPError) {
        let uri = uri, url = url, options = options, credentials = credentials
        let identity = boundIdentity
        try await lane.connect({ () throws(LDAPError) -> LDAPHandle in
            try Self.startSession(uri: uri, url: url, options: options)
        }, then: { context throws(LDAPError) in
            do throws(LDAPError) {
                try Self.bind(credentials, context)
                if case .external = credentials {
                    let said = try Self.whoAmI(context)
                    identity.withLock { $0 = said.isEmpty ? credentials.identity : said }
                }
            } catch where error.kind == .connectionLost {
                throw LDAPError(.cannotConnect, "the directory at \(url.displayName) could not be reached", detail: error.detail,
                                resultCode: error.resultCode)
            }
        })
    }

    /// Who the directory knows this connection as, for messages: the bind
    /// DN, the DN SASL EXTERNAL was mapped to, or "an anonymous connection".
    public var identity: String { boundIdentity.withLock { $0 } }

    /// Whether an operation is waiting for the server now (for tests that
    /// cancel one in the middle).
    var isWaitingOnServer: Bool { lane.isWaitingOnServer }

    /// Closes the connection (without waiting for the server).
    public func close() {
        lane.close()
    }

    /// The identity the server sees (RFC 4532 "Who am I?"): a DN without
    /// its `dn:` prefix, or empty for anonymous.
    public func whoAmI() async throws(LDAPError) -> String {
        try await lane.run(deadline: options.operationTimeout) { context throws(LDAPError) in try Self.whoAmI(context) }
    }

    // MARK: Connecting

    private static func startSession(uri: String, url: LDAPURL, options: LDAPConnectionOptions) throws(LDAPError) -> LDAPHandle {
        let handle = try LDAPHandle(uri: uri, networkTimeout: options.networkTimeout, operationTimeout: options.operationTimeout)
        guard url.startTLS != .no else { return handle }
        do {
            try handle.startTLS()
            return handle
        } catch where url.startTLS == .ifOffered {
            // As `ldapsearch -Z`: carry on in the clear, on a fresh session
            // (a failed StartTLS can leave the old one unusable).
            return try LDAPHandle(uri: uri, networkTimeout: options.networkTimeout, operationTimeout: options.operationTimeout)
        }
    }

    private static func bind(_ credentials: LDAPCredentials, _ context: LDAPJobContext) throws(LDAPError) {
        let request: LDAPRequest
        switch credentials {
        // An explicit anonymous bind, so that an unreachable server is
        // found now rather than at the first read.
        case .anonymous: request = .simpleBind(dn: "", password: [])
        case .simple(let dn, let password): request = .simpleBind(dn: dn, password: password.bytes)
        case .external: request = .saslBind(mechanism: "EXTERNAL")
        }
        let result = try context.collect(try context.send(request)) { _ throws(LDAPError) in }
        guard result.succeeded else { throw LDAPError.result(result, .binding(as: credentials.identity)) }
    }

    private static func whoAmI(_ context: LDAPJobContext) throws(LDAPError) -> String {
        let result = try context.collect(try context.send(.extended(oid: LDAPOID.whoAmI, value: nil))) { _ throws(LDAPError) in }
        guard result.succeeded else { throw LDAPError.result(result, .reading("who this connection is", by: "this connection")) }
        let said = String(decoding: result.responseValue ?? [], as: UTF8.self)
        return said.hasPrefix("dn:") ? String(said.dropFirst(3)) : said
    }
}
