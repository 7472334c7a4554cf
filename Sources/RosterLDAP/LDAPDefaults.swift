import Foundation

/// OpenLDAP's own client defaults, read as `ldapsearch` reads them: `URI`
/// and `BASE` from `ldap.conf`, `.ldaprc` and `LDAPURI`/`LDAPBASE` (libldap
/// reads those itself), and `BINDDN` from the user's `ldaprc`/`.ldaprc`
/// (home, then the working directory; `LDAPRC` names another) or
/// `LDAPBINDDN`, which libldap reads but does not hand out. The TLS settings
/// stay with libldap, which applies them to every connection.
public struct LDAPDefaults: Sendable, Equatable {
    public var uris: [String]
    public var base: String?
    public var bindDN: String?

    /// No defaults at all (tests; a URL that names everything).
    public init(uris: [String] = [], base: String? = nil, bindDN: String? = nil) {
        self.uris = uris
        self.base = base
        self.bindDN = bindDN
    }

    /// What this user's configuration says.
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  currentDirectory: String = FileManager.default.currentDirectoryPath) -> LDAPDefaults {
        let library = LDAPHandle.configuredDefaults()
        let bindDN = environment["LDAPBINDDN"]
            ?? userFiles(environment: environment, currentDirectory: currentDirectory).reversed().lazy.compactMap(bindDN(in:)).first
        return LDAPDefaults(uris: library.uris, base: library.base, bindDN: bindDN)
    }

    /// The user files ldap.conf(5) names, in the order they are read (a
    /// later one wins).
    static func userFiles(environment: [String: String], currentDirectory: String) -> [String] {
        var names = ["ldaprc", ".ldaprc"]
        if let other = environment["LDAPRC"], !other.isEmpty { names += [other, "." + other] }
        var files: [String] = []
        if let home = environment["HOME"], !home.isEmpty { files += names.map { home + "/" + $0 } }
        files += names.map { currentDirectory + "/" + $0 }
        return files
    }

    /// The `BINDDN` line's value in the file at `path`, if it has one.
    static func bindDN(in path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return bindDN(inText: text)
    }

    static func bindDN(inText text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.hasPrefix("#") else { continue }
            let keyEnd = trimmed.firstIndex { $0 == " " || $0 == "\t" } ?? trimmed.endIndex
            guard trimmed[..<keyEnd].uppercased() == "BINDDN" else { continue }
            let value = trimmed[keyEnd...].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { return value }
        }
        return nil
    }
}
