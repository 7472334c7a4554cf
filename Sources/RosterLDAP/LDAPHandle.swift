import CLDAP
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One libldap session: the only Swift file that calls OpenLDAP's client
/// library (as `PostgresConnection` is for libpq).
///
/// Every call happens on its connection's lane (`LDAPLane`), one at a time:
/// the handle sends operations without waiting (`send`) and takes what has
/// already arrived (`nextReply`, never blocking); the lane does the
/// waiting, on the socket and on its wake-up pipe together, so that a
/// cancel or a deadline stops a wait at once.
final class LDAPHandle {
    private let ld: OpaquePointer

    /// Sets up a session for `uri` (nothing is sent before the first
    /// operation connects): LDAPv3, no referral chasing (a referral is
    /// reported, not followed with our credentials), `networkTimeout` for
    /// the TCP connect, `operationTimeout` for the calls that wait
    /// themselves (StartTLS), and TCP keepalives so that a long
    /// synchronisation notices a network gone silent.
    init(uri: String, networkTimeout: Duration, operationTimeout: Duration) throws(LDAPError) {
        var handle: OpaquePointer?
        let code = ldap_initialize(&handle, uri)
        guard code == LDAP_SUCCESS, let handle else {
            throw LDAPError(.cannotConnect, "the directory's address cannot be used", detail: Self.describe(code), resultCode: code)
        }
        ld = handle
        var version = LDAP_VERSION3
        ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &version)
        ldap_set_option(ld, LDAP_OPT_REFERRALS, roster_ldap_option_off())
        ldap_set_option(ld, LDAP_OPT_RESTART, roster_ldap_option_on())
        var network = Self.timeval(networkTimeout)
        ldap_set_option(ld, LDAP_OPT_NETWORK_TIMEOUT, &network)
        var operation = Self.timeval(operationTimeout)
        ldap_set_option(ld, LDAP_OPT_TIMEOUT, &operation)
        for (option, value) in [(LDAP_OPT_X_KEEPALIVE_IDLE, 10), (LDAP_OPT_X_KEEPALIVE_PROBES, 3), (LDAP_OPT_X_KEEPALIVE_INTERVAL, 5)] {
            var setting = Int32(value)
            ldap_set_option(ld, option, &setting)
        }
    }

    deinit {
        ldap_unbind_ext(ld, nil, nil)
    }

    /// The connection's socket, once connected (-1 before).
    var descriptor: Int32 {
        var socket: Int32 = -1
        ldap_get_option(ld, LDAP_OPT_DESC, &socket)
        return socket
    }

    /// Upgrades the connection with StartTLS (RFC 4513), the TLS settings
    /// being `ldap.conf`'s. Waits itself, up to the operation timeout.
    func startTLS() throws(LDAPError) {
        let code = ldap_start_tls_s(ld, nil, nil)
        guard code == LDAP_SUCCESS else {
            throw LDAPError(.cannotConnect, "the directory could not start TLS", detail: failureDetail(code), resultCode: code)
        }
    }

    /// Sends `request` with `controls`; its message id.
    func send(_ request: LDAPRequest, controls: [LDAPControl]) throws(LDAPError) -> Int32 {
        let arena = CArena()
        let serverControls = arena.controls(controls)
        var id: Int32 = 0
        let code: Int32
        switch request {
        case .simpleBind(let dn, let password):
            var credential = arena.berval(password)
            code = ldap_sasl_bind(ld, dn, nil, &credential, serverControls, nil, &id)
        case .saslBind(let mechanism):
            // An empty initial response, not none: EXTERNAL then completes
            // in one round (none makes slapd ask for it: result 14).
            var empty = arena.berval([])
            code = ldap_sasl_bind(ld, nil, mechanism, &empty, serverControls, nil, &id)
        case .search(let search):
            let attributes = search.attributes.isEmpty ? nil : arena.strings(search.attributes)
            code = ldap_search_ext(ld, search.base, search.scope.rawValue, search.filter, attributes, 0, serverControls, nil, nil,
                                   Int32(clamping: search.sizeLimit), &id)
        case .modify(let dn, let modifications):
            code = ldap_modify_ext(ld, dn, arena.modifications(modifications.map { ($0.kind.rawValue, $0.attribute, $0.values) }),
                                   serverControls, nil, &id)
        case .add(let dn, let attributes):
            code = ldap_add_ext(ld, dn, arena.modifications(attributes.map { (LDAP_MOD_ADD, $0.name, $0.values) }),
                                serverControls, nil, &id)
        case .delete(let dn):
            code = ldap_delete_ext(ld, dn, serverControls, nil, &id)
        case .extended(let oid, let value):
            let data = value.map { arena.pointer(to: arena.berval($0)) }
            code = ldap_extended_operation(ld, oid, data, serverControls, nil, &id)
        }
        guard code == LDAP_SUCCESS else { throw failure(code) }
        return id
    }

    /// The next message for `id` that has already arrived (from the socket
    /// or libldap's buffers), or nil when none has yet.
    func nextReply(for id: Int32) throws(LDAPError) -> LDAPReply? {
        var noWait = Glibc.timeval(tv_sec: 0, tv_usec: 0)
        var message: OpaquePointer?
        let type = ldap_result(ld, id, LDAP_MSG_ONE, &noWait, &message)
        if type == 0 { return nil }
        guard type > 0, let message else { throw failure(resultCode()) }
        defer { ldap_msgfree(message) }
        switch type {
        case 0x64:
            // Controls first: reading the DN and attributes in place writes
            // NULs into the message's buffer, and the controls' own reader
            // (a copy from the start) would then find none.
            let controls = entryControls(message)
            return .entry(try entry(message), controls: controls)
        case 0x73:
            var references: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            ldap_parse_reference(ld, message, &references, nil, 0)
            defer { ldap_memvfree(UnsafeMutablePointer(OpaquePointer(references))) }
            return .reference(Self.strings(references))
        case 0x79:
            var name: UnsafeMutablePointer<CChar>?
            var value: UnsafeMutablePointer<berval>?
            var controls: UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>?
            ldap_parse_intermediate(ld, message, &name, &value, &controls, 0)
            defer {
                ldap_memfree(name)
                ber_bvfree(value)
            }
            return .intermediate(name: name.map { String(cString: $0) }, value: value.map { Self.bytes($0.pointee) },
                                 controls: Self.taking(controls))
        default:
            return .done(result(message, isExtended: type == 0x78))
        }
    }

    /// Tells the server to stop `id` and forgets its messages; no answer
    /// is waited for (an abandon has none).
    func abandon(_ id: Int32) {
        ldap_abandon_ext(ld, id, nil, nil)
    }

    private func result(_ message: OpaquePointer, isExtended: Bool) -> LDAPResult {
        var code: Int32 = 0
        var matched: UnsafeMutablePointer<CChar>?
        var diagnostic: UnsafeMutablePointer<CChar>?
        var referrals: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var controls: UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>?
        let parsed = ldap_parse_result(ld, message, &code, &matched, &diagnostic, &referrals, &controls, 0)
        defer {
            ldap_memfree(matched)
            ldap_memfree(diagnostic)
            ldap_memvfree(UnsafeMutablePointer(OpaquePointer(referrals)))
        }
        var responseValue: [UInt8]?
        if isExtended {
            var value: UnsafeMutablePointer<berval>?
            ldap_parse_extended_result(ld, message, nil, &value, 0)
            responseValue = value.map { Self.bytes($0.pointee) }
            ber_bvfree(value)
        }
        return LDAPResult(code: parsed == LDAP_SUCCESS ? code : parsed, matchedDN: matched.map { String(cString: $0) } ?? "",
                          diagnostic: diagnostic.map { String(cString: $0) } ?? "", referrals: Self.strings(referrals),
                          controls: Self.taking(controls), responseValue: responseValue)
    }

    /// The entry's DN and attributes, read straight from its BER (each
    /// value copied once, binary-safe).
    private func entry(_ message: OpaquePointer) throws(LDAPError) -> LDAPEntry {
        var ber: OpaquePointer?
        var dn = berval()
        guard ldap_get_dn_ber(ld, message, &ber, &dn) == LDAP_SUCCESS else { throw failure(resultCode()) }
        defer { ber_free(ber, 0) }
        var attributes: [LDAPAttribute] = []
        while true {
            var name = berval()
            var values: UnsafeMutablePointer<berval>?
            guard ldap_get_attribute_ber(ld, message, ber, &name, &values) == LDAP_SUCCESS, name.bv_val != nil else { break }
            var list: [LDAPValue] = []
            if let values {
                var index = 0
                while values[index].bv_val != nil {
                    list.append(LDAPValue(Self.bytes(values[index])))
                    index += 1
                }
                ber_memfree(values)
            }
            attributes.append(LDAPAttribute(String(decoding: Self.bytes(name), as: UTF8.self), list))
        }
        return LDAPEntry(dn: String(decoding: Self.bytes(dn), as: UTF8.self), attributes: attributes)
    }

    private func entryControls(_ message: OpaquePointer) -> [LDAPControl] {
        var controls: UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>?
        ldap_get_entry_controls(ld, message, &controls)
        return Self.taking(controls)
    }

    // MARK: Failures

    private func resultCode() -> Int32 {
        var code: Int32 = 0
        ldap_get_option(ld, LDAP_OPT_RESULT_CODE, &code)
        return code
    }

    /// The library's code and words, and the server's diagnostic if any.
    private func failureDetail(_ code: Int32) -> String {
        var diagnostic: UnsafeMutablePointer<CChar>?
        ldap_get_option(ld, LDAP_OPT_DIAGNOSTIC_MESSAGE, &diagnostic)
        defer { ldap_memfree(diagnostic) }
        let said = diagnostic.map { String(cString: $0) } ?? ""
        return Self.describe(code) + (said.isEmpty ? "" : ": " + said)
    }

    /// A failure of the library itself (no result from the server).
    private func failure(_ code: Int32) -> LDAPError {
        LDAPError.library(code: code, detail: failureDetail(code))
    }

    /// `code` in libldap's words, with the number.
    static func describe(_ code: Int32) -> String {
        String(cString: ldap_err2string(code)) + " (\(code))"
    }

    // MARK: Converting

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    private static func bytes(_ value: berval) -> [UInt8] {
        guard let base = value.bv_val, value.bv_len > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: Int(value.bv_len)))
    }

    private static func strings(_ list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        var strings: [String] = []
        var index = 0
        while let item = list[index] {
            strings.append(String(cString: item))
            index += 1
        }
        return strings
    }

    /// The controls as values; frees the library's list.
    private static func taking(_ list: UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>?) -> [LDAPControl] {
        guard let list else { return [] }
        defer { ldap_controls_free(list) }
        var controls: [LDAPControl] = []
        var index = 0
        while let control = list[index] {
            let value = control.pointee.ldctl_value
            controls.append(LDAPControl(oid: control.pointee.ldctl_oid.map { String(cString: $0) } ?? "",
                                        isCritical: control.pointee.ldctl_iscritical != 0,
                                        value: value.bv_val == nil ? nil : bytes(value)))
            index += 1
        }
        return controls
    }
}

// MARK: - Library-level parts that need no session

extension LDAPHandle {
    /// `text` split by `ldap_url_parse` (RFC 4516), percent-decoding done.
    static func parseURL(_ text: String) -> LDAPURLParts? {
        var description: UnsafeMutablePointer<LDAPURLDesc>?
        guard ldap_url_parse(text, &description) == LDAP_URL_SUCCESS, let parsed = description?.pointee else { return nil }
        defer { ldap_free_urldesc(description) }
        return LDAPURLParts(scheme: parsed.lud_scheme.map { String(cString: $0) } ?? "ldap",
                            host: parsed.lud_host.map { String(cString: $0) } ?? "", port: Int(parsed.lud_port),
                            dn: parsed.lud_dn.map { String(cString: $0) } ?? "", attributes: strings(parsed.lud_attrs),
                            scope: parsed.lud_scope, filter: parsed.lud_filter.map { String(cString: $0) },
                            extensions: strings(parsed.lud_exts))
    }

    /// What `ldap.conf`, `.ldaprc` and `LDAP*` variables set, as libldap
    /// itself read them: the default URIs and search base.
    static func configuredDefaults() -> (uris: [String], base: String?) {
        var uri: UnsafeMutablePointer<CChar>?
        var base: UnsafeMutablePointer<CChar>?
        ldap_get_option(nil, LDAP_OPT_URI, &uri)
        ldap_get_option(nil, LDAP_OPT_DEFBASE, &base)
        defer {
            ldap_memfree(uri)
            ldap_memfree(base)
        }
        let uris = uri.map { String(cString: $0).split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) } ?? []
        return (uris, base.map { String(cString: $0) })
    }
}

/// C memory for one call's arguments, freed with it.
private final class CArena {
    private var blocks: [UnsafeMutableRawPointer] = []

    deinit { blocks.forEach { $0.deallocate() } }

    private func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(count, 1))
        blocks.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }

    func string(_ text: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(text.utf8CString)
        let pointer = allocate(CChar.self, count: utf8.count)
        pointer.initialize(from: utf8, count: utf8.count)
        return pointer
    }

    /// A NULL-terminated array of strings.
    func strings(_ texts: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        list(texts.map { string($0) })
    }

    func list<T>(_ items: [UnsafeMutablePointer<T>]) -> UnsafeMutablePointer<UnsafeMutablePointer<T>?> {
        let pointer = allocate(UnsafeMutablePointer<T>?.self, count: items.count + 1)
        for (index, item) in items.enumerated() { pointer[index] = item }
        pointer[items.count] = nil
        return pointer
    }

    func pointer<T>(to value: T) -> UnsafeMutablePointer<T> {
        let pointer = allocate(T.self, count: 1)
        pointer.initialize(to: value)
        return pointer
    }

    func berval(_ bytes: [UInt8]) -> CLDAP.berval {
        let pointer = allocate(CChar.self, count: bytes.count)
        bytes.withUnsafeBytes { UnsafeMutableRawPointer(pointer).copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(pointer), byteCount: $0.count) }
        return CLDAP.berval(bv_len: ber_len_t(bytes.count), bv_val: pointer)
    }

    /// A NULL-terminated list of controls, or nil for none.
    func controls(_ controls: [LDAPControl]) -> UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>? {
        guard !controls.isEmpty else { return nil }
        return list(controls.map { control in
            pointer(to: CLDAP.LDAPControl(ldctl_oid: string(control.oid),
                                          ldctl_value: control.value.map { berval($0) } ?? CLDAP.berval(bv_len: 0, bv_val: nil),
                                          ldctl_iscritical: control.isCritical ? 1 : 0))
        })
    }

    /// A NULL-terminated `LDAPMod` list, every value as bytes.
    func modifications(_ items: [(Int32, String, [LDAPValue])]) -> UnsafeMutablePointer<UnsafeMutablePointer<LDAPMod>?> {
        list(items.map { operation, attribute, values in
            let bvalues = list(values.map { pointer(to: berval($0.bytes)) })
            return pointer(to: LDAPMod(mod_op: operation | LDAP_MOD_BVALUES, mod_type: string(attribute),
                                       mod_vals: mod_vals_u(modv_bvals: bvalues)))
        })
    }
}
