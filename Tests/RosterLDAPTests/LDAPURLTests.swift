import Foundation
@testable import RosterLDAP
import Testing

/// LDAP URLs (RFC 4516) as a user types them, and OpenLDAP's own defaults.
@Suite struct LDAPURLTests {
    @Test func aFullURLSaysWhereWhatAndHow() throws {
        let url = try LDAPURL.parse("ldap://ldap.example.org:1389/ou=People,dc=example,dc=org?cn,mail?one?(title=Engineer)?bindname=cn=admin%2Cdc=example%2Cdc=org")
        #expect(url.scheme == .ldap)
        #expect(url.host == "ldap.example.org")
        #expect(url.port == 1389)
        #expect(url.base == "ou=People,dc=example,dc=org")
        #expect(url.attributes == ["cn", "mail"])
        #expect(url.scope == .oneLevel)
        #expect(url.filter == "(title=Engineer)")
        #expect(url.bindName == "cn=admin,dc=example,dc=org")
        #expect(url.startTLS == .no)
        #expect(url.connectionURI() == "ldap://ldap.example.org:1389")
        #expect(url.displayName == "ldap://ldap.example.org:1389/ou=People,dc=example,dc=org")
    }

    @Test func aBareURLLeavesScopeAndFilterToRoster() throws {
        let url = try LDAPURL.parse("ldaps://directory.example.org/dc=example,dc=org")
        #expect(url.scheme == .ldaps)
        #expect(url.port == nil)
        #expect(url.scope == nil)
        #expect(url.filter == nil)
        #expect(url.attributes.isEmpty)
        #expect(url.connectionURI() == "ldaps://directory.example.org")
        let six = try LDAPURL.parse("ldap://[::1]/dc=x")
        #expect(six.host == "::1" && six.port == nil)
        #expect(six.connectionURI() == "ldap://[::1]")
        #expect(try LDAPURL.parse("ldap://[::1]:1389/dc=x").port == 1389)
    }

    @Test func theLocalSocketsPathIsPercentEncoded() throws {
        let url = try LDAPURL.parse("ldapi://%2Fvar%2Frun%2Fslapd%2Fldapi/dc=example,dc=org")
        #expect(url.scheme == .ldapi)
        #expect(url.host == "/var/run/slapd/ldapi")
        #expect(url.connectionURI() == "ldapi://%2Fvar%2Frun%2Fslapd%2Fldapi")
    }

    @Test func startTLSIsAskedForOrRequired() throws {
        #expect(try LDAPURL.parse("ldap://h/dc=x????x-starttls").startTLS == .ifOffered)
        #expect(try LDAPURL.parse("ldap://h/dc=x????!StartTLS").startTLS == .required)
        #expect(throws: LDAPURLError.self) { try LDAPURL.parse("ldaps://h/dc=x????!StartTLS") }
    }

    @Test func anUnknownCriticalExtensionOrAPasswordIsRefusedNamingIt() throws {
        let unknown = #expect(throws: LDAPURLError.self) { try LDAPURL.parse("ldap://h/dc=x????!x-frobnicate=1") }
        #expect(unknown?.message == "ldap://h/dc=x????!x-frobnicate=1: asks for an extension Roster does not know (x-frobnicate)")
        #expect(try LDAPURL.parse("ldap://h/dc=x????x-frobnicate=1").base == "dc=x")
        let password = #expect(throws: LDAPURLError.self) { try LDAPURL.parse("ldap://h/dc=x????x-bindpw=hunter2") }
        #expect(password?.message.contains("x-bindpw") == true)
        #expect(throws: LDAPURLError.self) { try LDAPURL.parse("https://example.org/") }
        let scope = #expect(throws: LDAPURLError.self) { try LDAPURL.parse("ldap://h/dc=x?a?nonsense") }
        #expect(scope?.message == "ldap://h/dc=x?a?nonsense: has a scope that is not base, one, sub or children ('nonsense')")
    }

    @Test func aFilterWhoseParenthesesDoNotMatchIsRefusedNamingIt() throws {
        let open = #expect(throws: LDAPURLError.self) { try LDAPURL.parse("ldap://h/dc=x??sub?(o=NASA") }
        #expect(open?.message.hasPrefix("ldap://h/dc=x??sub?(o=NASA: has a filter whose parentheses do not match ('(o=NASA'") == true)
        #expect(throws: LDAPURLError.self) { try LDAPURL.parse("ldap://h/dc=x??sub?(o=NASA))(") }
        #expect(try LDAPURL.parse("ldap://h/dc=x??sub?(&(o=NASA)(cn=a\\28b\\29))").filter == "(&(o=NASA)(cn=a\\28b\\29))")
        #expect(try LDAPURL.parse("ldap://h/dc=x??sub?o=NASA").filter == "o=NASA")
    }

    @Test func whatTheURLLeavesOutComesFromTheDefaults() throws {
        let defaults = LDAPDefaults(uris: ["ldap://one.example.org", "ldap://two.example.org"], base: "dc=example,dc=org",
                                    bindDN: "cn=me,dc=example,dc=org")
        let url = try LDAPURL.parse("ldap:///", defaults: defaults)
        #expect(url.base == "dc=example,dc=org")
        #expect(url.bindName == "cn=me,dc=example,dc=org")
        #expect(url.connectionURI(defaults: defaults) == "ldap://one.example.org ldap://two.example.org")
        let named = try LDAPURL.parse("ldap://h/ou=Other????bindname=cn=you", defaults: defaults)
        #expect(named.base == "ou=Other")
        #expect(named.bindName == "cn=you")
        #expect(named.connectionURI(defaults: defaults) == "ldap://h")
    }

    @Test func bindDNIsReadFromAnLdaprcAsOpenLDAPReadsIt() throws {
        #expect(LDAPDefaults.bindDN(inText: "# mine\nBASE dc=x\n  binddn\tcn=me,dc=x  \nURI ldap://h\n") == "cn=me,dc=x")
        #expect(LDAPDefaults.bindDN(inText: "#BINDDN cn=no\nBINDDNX cn=no\n") == nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ldaprc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "BINDDN cn=home\n".write(toFile: folder + "/home/.ldaprc", atomically: true, encoding: .utf8)
        let fromHome = LDAPDefaults.configured(environment: ["HOME": folder + "/home"], currentDirectory: folder)
        #expect(fromHome.bindDN == "cn=home")
        try "BINDDN cn=here\n".write(toFile: folder + "/ldaprc", atomically: true, encoding: .utf8)
        #expect(LDAPDefaults.configured(environment: ["HOME": folder + "/home"], currentDirectory: folder).bindDN == "cn=here")
        #expect(LDAPDefaults.configured(environment: ["HOME": folder + "/home", "LDAPBINDDN": "cn=env"], currentDirectory: folder).bindDN
                == "cn=env")
    }
}
