import Foundation
import RosterCore
@testable import RosterLDAP
import TestServers
import Testing

/// Writes against a real slapd: each carries the version it read (the
/// Assertion control on `entryCSN`) and reads back the new one (Post-Read);
/// a stale one is a conflict and changes nothing, and access control's
/// refusals are said in a line. Each test writes an entry of its own under
/// `ou=Others` of the shared server.
@Suite struct LDAPWritingTests {
    private static let counter = Locked(0)

    /// A fresh person of this test's own, added by the admin.
    private func newPerson(_ server: TestSlapd, _ admin: LDAPConnection) async throws -> (dn: String, version: LDAPVersion) {
        let number = Self.counter.withLock { counter in
            counter += 1
            return counter
        }
        let dn = "uid=w\(number)-\(getpid()),ou=Others,\(server.suffix)"
        let added = try await admin.add(dn, [LDAPAttribute("objectClass", ["inetOrgPerson"]), LDAPAttribute("cn", [LDAPValue("Writer \(number)")]),
                                             LDAPAttribute("sn", ["Writer"]), LDAPAttribute("title", ["Clerk"])])
        let version = try #require(added.flatMap(LDAPVersion.init(of:)))
        #expect(version.attribute == "entryCSN")
        #expect(added.flatMap(LDAPEntryUUID.init(of:)) != nil)
        return (dn, version)
    }

    @Test func aModifyCarryingItsVersionSavesAndReadsBackTheNewVersion() async throws {
        let server = try await TestSlapd.shared()
        let admin = try await server.connect(as: .admin)
        let (dn, version) = try await newPerson(server, admin)
        let after = try await admin.modify(dn, [.replace("title", with: ["Chief Clerk"]), LDAPModification(.add, "mail", ["a@x.org", "b@x.org"])],
                                           ifVersion: version)
        let newVersion = try #require(after.flatMap(LDAPVersion.init(of:)))
        #expect(newVersion != version)
        let stored = try #require(try await admin.read(dn, attributes: ["title", "mail", "entryCSN"]))
        #expect(stored["title"] == ["Chief Clerk"])
        #expect(stored["mail"] == ["a@x.org", "b@x.org"])
        #expect(LDAPVersion(of: stored) == newVersion)
    }

    @Test func aStaleVersionIsAConflictAndChangesNothing() async throws {
        let server = try await TestSlapd.shared()
        let admin = try await server.connect(as: .admin)
        let other = try await server.connect(as: .external)
        let (dn, readVersion) = try await newPerson(server, admin)
        try await other.modify(dn, [.replace("title", with: ["Theirs"])])
        let error = await #expect(throws: LDAPError.self) {
            try await admin.modify(dn, [.replace("title", with: ["Mine"])], ifVersion: readVersion)
        }
        #expect(error?.kind == .assertionFailed)
        #expect(error?.message == "\(dn) was changed by someone else since it was read")
        #expect(try await admin.read(dn, attributes: ["title"])?["title"] == ["Theirs"])
        let deleteError = await #expect(throws: LDAPError.self) { try await admin.delete(dn, ifVersion: readVersion) }
        #expect(deleteError?.kind == .assertionFailed)
        #expect(try await admin.read(dn) != nil)
    }

    @Test func aDeleteWithTheCurrentVersionDeletes() async throws {
        let server = try await TestSlapd.shared()
        let admin = try await server.connect(as: .admin)
        let (dn, version) = try await newPerson(server, admin)
        try await admin.delete(dn, ifVersion: version)
        #expect(try await admin.read(dn) == nil)
        let again = await #expect(throws: LDAPError.self) { try await admin.delete(dn) }
        #expect(again?.kind == .noSuchObject)
        #expect(again?.message == "\(dn) is not in the directory")
    }

    @Test func anAnonymousWriteIsRefusedInOneLineAndChangesNothing() async throws {
        let server = try await TestSlapd.shared()
        let admin = try await server.connect(as: .admin)
        let (dn, version) = try await newPerson(server, admin)
        let anonymous = try await server.connect()
        let error = await #expect(throws: LDAPError.self) {
            try await anonymous.modify(dn, [.replace("title", with: ["Hacked"])], ifVersion: version)
        }
        #expect(error?.kind == .insufficientAccess)
        #expect(error?.message == "the directory does not let an anonymous connection change title")
        let reader = try await server.connect(as: .reader)
        let readerError = await #expect(throws: LDAPError.self) {
            try await reader.modify(dn, [.replace("title", with: ["Hacked"]), .replace("sn", with: ["X"])])
        }
        #expect(readerError?.message == "the directory does not let \(server.readerDN) change title, sn")
        let addError = await #expect(throws: LDAPError.self) {
            try await reader.add("uid=intruder,ou=Others,\(server.suffix)", [LDAPAttribute("objectClass", ["inetOrgPerson"]),
                                                                           LDAPAttribute("cn", ["I"]), LDAPAttribute("sn", ["I"])])
        }
        #expect(addError?.message == "the directory does not let \(server.readerDN) add uid=intruder,ou=Others,\(server.suffix)")
        #expect(try await admin.read(dn, attributes: ["title"])?["title"] == ["Clerk"])
    }

    @Test func binaryValuesGoAndComeBackByteForByte() async throws {
        let server = try await TestSlapd.shared()
        let admin = try await server.connect(as: .admin)
        let (dn, _) = try await newPerson(server, admin)
        let photo = LDAPValue([0x00, 0xFF, 0x28, 0x2A, 0x29, 0x5C, 0x00, 0x80])
        try await admin.modify(dn, [.replace("jpegPhoto", with: [photo])])
        #expect(try await admin.read(dn, attributes: ["jpegPhoto"])?["jpegPhoto"] == [photo])
        // A value with NUL and bytes past ASCII, escaped in a filter
        // (userPassword matches octet by octet; only the admin may read it).
        try await admin.modify(dn, [.replace("userPassword", with: [photo])])
        let found = try await admin.search(LDAPSearch(base: server.suffix, filter: .equals("userPassword", photo), attributes: ["1.1"]))
        #expect(found.map(\.dn) == [dn])
    }
}
