import RosterCore
import CLibpq
#if canImport(Glibc)
import Glibc
#endif

/// What a PostgreSQL target says before any connection: whether libpq can
/// read it, its passwords (to mask them), and the connection it resolves
/// to, which names it in titles, messages, the remembered place and the
/// offline copy.
extension PostgresConnection {
    /// Why libpq cannot read `conninfo`, in Roster's words (libpq's own
    /// text quotes the target, password and all); nil when it can.
    public static func malformation(of conninfo: String) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &message) else {
            let said = message.map { String(cString: $0) } ?? ""
            if let message { PQfreemem(message) }
            return "not a valid PostgreSQL URI or connection string: " + reason(forParseFailure: said)
        }
        PQconninfoFree(options)
        return nil
    }

    /// libpq's parse failure, said without quoting anything of the target.
    static func reason(forParseFailure message: String) -> String {
        let reasons: [(String, String)] = [
            ("invalid percent-encoded token", "a % is not followed by two hex digits (write a % itself as %25)"),
            ("forbidden value %00", "it holds %00, which no setting may hold"),
            ("matching \"]\"", "an IPv6 host's [ has no closing ]"),
            ("IPv6 host address may not be empty", "an IPv6 host between [ and ] is empty"),
            ("unexpected character", "unexpected text after the host (':' starts a port, '/' the database)"),
            ("unterminated quoted string", "a quoted value has no closing quote"),
            ("missing \"=\"", "each setting is key=value"),
            ("invalid connection option", "it names a setting libpq does not know"),
            ("invalid URI query parameter", "it names a setting libpq does not know"),
        ]
        return reasons.first { message.contains($0.0) }?.1 ?? "libpq cannot read it"
    }

    /// Remembers every password `conninfo` and the environment carry, so
    /// that no message can show them (`SecretRedaction`).
    static func rememberPasswords(in conninfo: String) {
        if let password = settings(parsing: conninfo)["password"] { SecretRedaction.remember(password) }
        if let password = getenv("PGPASSWORD") { SecretRedaction.remember(String(cString: password)) }
    }

    /// `postgres://user@host:port/dbname` (with `?options=…`, `?hostaddr=…`
    /// when set) for messages, titles, the remembered place and the offline
    /// copy's name: the connection as libpq resolves it (service file,
    /// `PG*` variables and defaults included), so two targets that reach
    /// different places never share a name. Never the password. The
    /// default port, 5432, is left out.
    public static func describe(_ conninfo: String) -> String {
        let settings = resolvedSettings(conninfo) ?? Self.settings(parsing: conninfo)
        let user = settings["user"].map { $0 + "@" } ?? ""
        let port = settings["port"].flatMap { $0 == "5432" ? nil : ":" + $0 } ?? ""
        let database = "/" + (settings["dbname"] ?? "")
        var query: [String] = []
        var host = settings["host"] ?? ""
        // A socket directory is no host name: URIs carry it as ?host=.
        if host.hasPrefix("/") {
            query.append("host=" + host)
            host = ""
        } else if host.contains(":"), !host.contains(",") {
            host = "[" + host + "]"  // an IPv6 address, as a URI writes it
        }
        for key in ["hostaddr", "service", "options"] {
            if let value = settings[key], !value.isEmpty { query.append(key + "=" + value) }
        }
        let text = "postgres://" + user + host + port + database + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return SecretRedaction.redact(text)
    }

    /// The settings of `conninfo` as written (nothing resolved), empty
    /// when libpq cannot read it.
    static func settings(parsing conninfo: String) -> [String: String] {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &message) else {
            if let message { PQfreemem(message) }
            return [:]
        }
        defer { PQconninfoFree(options) }
        return settings(of: options)
    }

    /// The settings `conninfo` resolves to, without connecting: libpq
    /// applies the service file, the environment and its defaults, then
    /// stops at a session attribute it refuses, before any network. Nil
    /// when it cannot resolve them (a service that is not defined).
    static func resolvedSettings(_ conninfo: String) -> [String: String]? {
        guard malformation(of: conninfo) == nil else { return nil }
        let keywords: [UnsafeMutablePointer<CChar>?] = ["dbname", "target_session_attrs"].map { (text: String) in strdup(text) }
        let values: [UnsafeMutablePointer<CChar>?] = [conninfo, "roster-resolve-only"].map { (text: String) in strdup(text) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let keywordArray: [UnsafePointer<CChar>?] = keywords.map { $0.map { UnsafePointer($0) } } + [nil]
        let valueArray: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } } + [nil]
        guard let connection = PQconnectStartParams(keywordArray, valueArray, 1) else { return nil }
        defer { PQfinish(connection) }
        guard let options = PQconninfo(connection) else { return nil }
        defer { PQconninfoFree(options) }
        var settings = settings(of: options)
        settings["password"] = nil
        // A service that is not defined leaves nothing resolved.
        return settings["dbname"] == nil && settings["user"] == nil ? nil : settings
    }

    private static func settings(of options: UnsafeMutablePointer<PQconninfoOption>) -> [String: String] {
        var settings: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { settings[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return settings
    }
}
