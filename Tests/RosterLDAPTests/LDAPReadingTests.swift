import Foundation
@testable import RosterLDAP
import TestServers
import Testing

/// Reading from a real slapd whose size limit (500) is smaller than its
/// people (1,200): paging goes past the limit, a read that does not page
/// says it stopped short, and filters are escaped.
@Suite struct LDAPReadingTests {
    @Test func pagingReadsEveryonePastTheSizeLimit() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let pages = Inbox<Int>()
        let everyone = try await connection.readAll(server.everyone, pageSize: 200) { pages.append($0.count) }
        let uids = Set(everyone.compactMap { $0.text("uid") })
        #expect(everyone.count == 1200)
        #expect(uids == Set((1...1200).map(TestDirectoryLDIF.uid)))
        #expect(pages.values == [200, 200, 200, 200, 200, 200])
    }

    @Test func aPageLargerThanTheSizeLimitIsCappedByTheServerAndPagingStillEnds() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let everyone = try await connection.readAll(server.everyone, pageSize: 1000)
        #expect(everyone.count == 1200)
        #expect(Set(everyone.map(\.dn)).count == 1200)
    }

    @Test func aSearchWithoutPagingThatMeetsTheSizeLimitIsRefusedNotCut() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let error = await #expect(throws: LDAPError.self) { try await connection.search(server.everyone) }
        #expect(error?.kind == .sizeLimitExceeded)
        #expect(error?.message == "the directory stopped after 500 entries (its size limit): not everyone was read")
        // Under the limit, the whole answer.
        let engineers = try await connection.search(server.everyone.narrowed(by: .equals("title", "Engineer")))
        #expect(engineers.count == (1...1200).count { $0 % 7 == 0 })
    }

    @Test func aFilterValueIsOnlyEverAValue() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let everywhere = LDAPSearch(base: server.suffix, filter: .equals("uid", "*)(uid=*"), attributes: ["cn"])
        #expect(try await connection.search(everywhere).isEmpty)
        let inNames = LDAPSearch(base: server.suffix, filter: .contains("cn", "*)(uid=*"), attributes: ["cn"])
        #expect(try await connection.search(inNames).map { $0.text("cn") } == ["*)(uid=*"])
        let exact = LDAPSearch(base: server.suffix, filter: .equals("cn", "Paren (Star*) Back\\slash"), attributes: ["uid"])
        #expect(try await connection.search(exact).map { $0.text("uid") } == ["odd1"])
        let part = LDAPSearch(base: server.suffix, filter: .and([.contains("cn", "(Star*)"), .startsWith("sn", "Od")]), attributes: ["uid"])
        #expect(try await connection.search(part).map { $0.text("uid") } == ["odd1"])
    }

    @Test func valuesComeBackByteForByte() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let person = try #require(try await connection.read(TestDirectoryLDIF.dn(ofPerson: 3, suffix: server.suffix)))
        #expect(person.text("cn") == "Dmitri Abbott")
        #expect(person["givenName"] == [LDAPValue("Dmitri")])
        let chloe = try #require(try await connection.read(TestDirectoryLDIF.dn(ofPerson: 2, suffix: server.suffix), attributes: ["givenName"]))
        #expect(chloe["givenname"].first?.bytes == Array("Chloé".utf8))
        #expect(try await connection.read("uid=nobody," + server.peopleBase) == nil)
    }

    @Test func theRootDSESaysWhatTheServerOffers() async throws {
        let server = try await TestSlapd.shared()
        let root = try await (try await server.connect()).rootDSE()
        #expect(root.offersPagedResults && root.offersVirtualListView && root.offersContentSync)
        #expect(root.offersAssertion && root.offersPostRead)
        #expect(!root.offersPersistentSearch)
        #expect(root.namingContext(of: server.peopleBase) == server.suffix)
        // EXTERNAL is offered where it can work: on the local socket.
        #expect(!root.saslMechanisms.contains("EXTERNAL"))
        #expect(try await (try await server.connect(overSocket: true)).rootDSE().saslMechanisms.contains("EXTERNAL"))
    }
}
