/// A directory target as an LDAP URL (RFC 4516):
/// `ldap://host[:port]/BASE?attributes?scope?filter?extensions`, `ldaps://`
/// for TLS from the start, `ldapi://%2Fpath%2Fto%2Fsocket/BASE` for the
/// local socket. Extensions: `bindname=DN` (the DN to bind as) and
/// `StartTLS` (also `x-starttls`); a `!` before an extension makes it
/// critical (StartTLS must then work), and a critical one Roster does not
/// know is refused, as the RFC asks. A password is never part of a URL.
public struct LDAPURL: Sendable, Equatable {
    public enum Scheme: String, Sendable {
        case ldap, ldaps, ldapi
    }

    /// Whether to upgrade a plain `ldap://` connection with StartTLS.
    public enum StartTLS: Sendable, Equatable {
        case no
        /// Try it; carry on in the clear if the server does not offer it
        /// (as `ldapsearch -Z`).
        case ifOffered
        /// Fail without it (`!StartTLS`, as `ldapsearch -ZZ`).
        case required
    }

    public let scheme: Scheme
    /// The host name or address; for `ldapi`, the socket's path. Empty:
    /// the default (`ldap.conf`'s URI, else the local host).
    public let host: String
    public let port: Int?
    /// The search base; empty when the URL names none (see `LDAPDefaults`).
    public let base: String
    public let attributes: [String]
    public let scope: LDAPScope?
    /// The URL's own filter, as text (it narrows who is a person).
    public let filter: String?
    public let bindName: String?
    public let startTLS: StartTLS

    /// `text` as an LDAP URL, with the base and bind DN that `defaults`
    /// gives where the URL names none.
    public static func parse(_ text: String, defaults: LDAPDefaults = LDAPDefaults()) throws(LDAPURLError) -> LDAPURL {
        guard let parts = LDAPHandle.parseURL(text), let scheme = Scheme(rawValue: parts.scheme.lowercased()) else {
            if let scope = badScope(in: text) {
                throw LDAPURLError(text, "has a scope that is not base, one, sub or children ('\(scope)')")
            }
            throw LDAPURLError(text, "is not an LDAP URL (ldap://host/BASE, ldaps://…, ldapi://…)")
        }
        if let filter = parts.filter, !Self.parenthesesMatch(filter) {
            throw LDAPURLError(text, "has a filter whose parentheses do not match ('\(filter)'; RFC 4515 writes a parenthesis in a value as \\28 or \\29)")
        }
        var bindName: String?
        var startTLS = StartTLS.no
        for extensionText in parts.extensions {
            let isCritical = extensionText.hasPrefix("!")
            let body = isCritical ? String(extensionText.dropFirst()) : extensionText
            let (name, value) = Self.split(body)
            switch name.lowercased() {
            case "bindname", "e-bindname", "x-bindname": bindName = value
            case "starttls", "x-starttls": startTLS = isCritical ? .required : .ifOffered
            case let other where other.contains("pw") || other.contains("password"):
                throw LDAPURLError(text, "carries a password (\(name)): give it with --password-file or at the prompt")
            default:
                if isCritical { throw LDAPURLError(text, "asks for an extension Roster does not know (\(name))") }
            }
        }
        if scheme != .ldap, startTLS != .no {
            throw LDAPURLError(text, "asks for StartTLS on \(scheme.rawValue)://, which needs none")
        }
        // libldap fills in the scheme's port and the RFC's default scope
        // (base); Roster's own default for a URL that names none is the
        // whole subtree, so what was typed is looked at.
        let (portTyped, scopeTyped) = Self.typed(text)
        return LDAPURL(scheme: scheme, host: parts.host, port: portTyped && parts.port > 0 ? parts.port : nil,
                       base: parts.dn.isEmpty ? defaults.base ?? "" : parts.dn, attributes: parts.attributes,
                       scope: scopeTyped ? LDAPScope(rawValue: parts.scope) : nil, filter: parts.filter,
                       bindName: bindName ?? defaults.bindDN, startTLS: startTLS)
    }

    /// The scope `text` names (its third `?` part), when it is none of
    /// RFC 4516's; nil otherwise.
    static func badScope(in text: String) -> String? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let parts = text[schemeEnd.upperBound...].split(separator: "?", omittingEmptySubsequences: false)
        guard parts.count > 2, !parts[2].isEmpty else { return nil }
        let scope = String(parts[2])
        return ["base", "one", "sub", "children"].contains(scope.lowercased()) ? nil : scope
    }

    /// Whether a filter's parentheses open and close in turn (a value's
    /// own are escaped, `\28` `\29`, so every one left is the filter's).
    static func parenthesesMatch(_ filter: String) -> Bool {
        var depth = 0
        for character in filter.utf8 {
            if character == UInt8(ascii: "(") { depth += 1 }
            if character == UInt8(ascii: ")") {
                depth -= 1
                if depth < 0 { return false }
            }
        }
        return depth == 0
    }

    /// Whether `text` names a port, and a scope.
    private static func typed(_ text: String) -> (port: Bool, scope: Bool) {
        let afterScheme = text.range(of: "://").map { text[$0.upperBound...] } ?? Substring(text)
        let hostPort = afterScheme.prefix { $0 != "/" && $0 != "?" }
        let afterHost = hostPort.hasPrefix("[") ? hostPort.drop { $0 != "]" } : hostPort
        let port = afterHost.contains(":")
        let components = afterScheme.split(separator: "?", omittingEmptySubsequences: false)
        return (port, components.count > 2 && !components[2].isEmpty)
    }

    private static func split(_ text: String) -> (String, String?) {
        guard let equals = text.firstIndex(of: "=") else { return (text, nil) }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// What libldap connects to: scheme, host and port only (the socket's
    /// path percent-encoded for `ldapi`), or `ldap.conf`'s URIs when the URL
    /// names no host.
    public func connectionURI(defaults: LDAPDefaults = LDAPDefaults()) -> String {
        if host.isEmpty, scheme == .ldap, !defaults.uris.isEmpty { return defaults.uris.joined(separator: " ") }
        return scheme.rawValue + "://" + encodedHost + (port.map { ":\($0)" } ?? "")
    }

    /// The target as a person reads it: no secret (a URL has none), the
    /// base included.
    public var displayName: String {
        scheme.rawValue + "://" + encodedHost + (port.map { ":\($0)" } ?? "") + "/" + base
    }

    private var encodedHost: String {
        guard scheme == .ldapi else { return host.contains(":") ? "[\(host)]" : host }
        return host.utf8.map { byte in
            let character = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (character.isLetter || character.isNumber || "-._~".contains(character))
                ? String(character) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
    }
}

/// Why a target is not an LDAP URL Roster can use, naming it.
public struct LDAPURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    init(_ text: String, _ problem: String) {
        message = "\(text): \(problem)"
    }

    public var description: String { message }
}

/// The parts `ldap_url_parse` finds.
struct LDAPURLParts {
    let scheme: String
    let host: String
    let port: Int
    let dn: String
    let attributes: [String]
    let scope: Int32
    let filter: String?
    let extensions: [String]
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
