import Foundation
@testable import RosterLDAP
import TestServers
import Testing

/// Binding against a real slapd: anonymous, a password, a wrong password,
/// SASL EXTERNAL over the local socket; and failures said in Roster's words.
@Suite struct LDAPBindTests {
    @Test func anonymousBindReadsAsAnonymous() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        #expect(try await connection.whoAmI() == "")
        #expect(connection.identity == "an anonymous connection")
    }

    @Test func aPasswordBindsAsItsDN() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect(as: .admin)
        #expect(try await connection.whoAmI() == server.adminDN)
    }

    @Test func aWrongPasswordIsAnAuthenticationErrorThatNeverSaysThePassword() async throws {
        let server = try await TestSlapd.shared()
        let wrong = "wrong-secret-\(UUID().uuidString)"
        let error = await #expect(throws: LDAPError.self) {
            try await LDAPConnection.open(try server.url(), credentials: .simple(dn: server.adminDN, password: LDAPPassword(Array(wrong.utf8))))
        }
        #expect(error?.kind == .authentication)
        #expect(error?.message == "the directory refused the password for \(server.adminDN)")
        #expect(error?.detail.contains("49") == true)
        #expect(error.map { "\($0.message) \($0.detail)".contains(wrong) } == false)
    }

    @Test func externalOverTheSocketIsTheUserTheServerMapsTheProcessTo() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect(as: .external)
        #expect(try await connection.whoAmI() == server.adminDN)
        #expect(connection.identity == server.adminDN)
    }

    @Test func startTLSRequiredOfAServerWithoutTLSIsRefusedAndAskedForIsLeftOut() async throws {
        let server = try await TestSlapd.shared()
        let required = try LDAPURL.parse(server.ldapURL + "/" + server.peopleBase + "????!StartTLS")
        let error = await #expect(throws: LDAPError.self) { try await LDAPConnection.open(required) }
        #expect(error?.kind == .cannotConnect)
        #expect(error?.message == "the directory could not start TLS")
        let asked = try LDAPURL.parse(server.ldapURL + "/" + server.peopleBase + "????x-starttls")
        #expect(try await LDAPConnection.open(asked).whoAmI() == "")
    }

    @Test func everyOperationRunsOnTheConnectionsOwnThread() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await LDAPConnection.open(try server.url(), options: LDAPConnectionOptions(label: "thread-test"))
        let label = try await connection.lane.run(deadline: nil) { _ throws(LDAPError) in LDAPLane.currentLabel }
        #expect(label == "roster.ldap.thread-test")
        #expect(LDAPLane.currentLabel == nil)
    }

    @Test func aServerThatIsNotThereCannotBeConnectedTo() async throws {
        var configuration = TestSlapd.Configuration()
        configuration.people = 0
        let server = try await TestSlapd.started(configuration)
        let url = try server.url()
        server.kill()
        let error = await #expect(throws: LDAPError.self) { try await LDAPConnection.open(url) }
        #expect(error?.kind == .cannotConnect)
        #expect(error?.message == "the directory at \(url.displayName) could not be reached")
    }
}
