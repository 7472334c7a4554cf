import Foundation
@testable import RosterLDAP
import TestServers
import Testing

/// Windows of a server-sorted list read by position (sssvlv): the list is
/// never read up to the window, and the server says how long it is.
@Suite struct LDAPWindowTests {
    private let byUID = [LDAPSortKey("uid")]

    @Test func aWindowByPositionComesWithItsPlaceAndTheCount() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let window = try await connection.window(server.everyone, sortedBy: byUID,
                                                 LDAPWindowRequest(.position(offset: 100, contentCount: 1200), before: 2, after: 3))
        #expect(window.entries.compactMap { $0.text("uid") } == (98...103).map(TestDirectoryLDIF.uid))
        #expect(window.targetPosition == 100)
        #expect(window.firstPosition == 98)
        #expect(window.contentCount == 1200)
    }

    @Test func theFirstWindowAndTheLastAreCutAtTheEnds() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let top = try await connection.window(server.everyone, sortedBy: byUID, LDAPWindowRequest(.position(offset: 1, contentCount: 0), before: 5, after: 2))
        #expect(top.entries.compactMap { $0.text("uid") } == (1...3).map(TestDirectoryLDIF.uid))
        #expect(top.firstPosition == 1)
        let bottom = try await connection.window(server.everyone, sortedBy: byUID,
                                                 LDAPWindowRequest(.position(offset: 1200, contentCount: 1200), before: 1, after: 5))
        #expect(bottom.entries.compactMap { $0.text("uid") } == (1199...1200).map(TestDirectoryLDIF.uid))
        #expect(bottom.firstPosition == 1199)
    }

    @Test func aWindowCanStartAtAValueAndFollowASearch() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let engineers = server.everyone.narrowed(by: .equals("title", "Engineer"))
        let window = try await connection.window(engineers, sortedBy: byUID, LDAPWindowRequest(.firstAtLeast("p000500"), after: 1))
        #expect(window.entries.compactMap { $0.text("uid") } == ["p000504", "p000511"])
        #expect(window.contentCount == (1...1200).count { $0 % 7 == 0 })
        #expect(window.targetPosition == (1...504).count { $0 % 7 == 0 })
    }

    @Test func reversedOrderAndAContextFromTheLastWindow() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let reversed = [LDAPSortKey("uid", reverse: true)]
        let first = try await connection.window(server.everyone, sortedBy: reversed, LDAPWindowRequest(.position(offset: 1, contentCount: 0), after: 1))
        #expect(first.entries.compactMap { $0.text("uid") } == ["p001200", "p001199"])
        for offset in stride(from: 3, through: 60, by: 3) {
            let next = try await connection.window(server.everyone, sortedBy: reversed,
                                                   LDAPWindowRequest(.position(offset: offset, contentCount: first.contentCount), after: 0,
                                                                     contextID: first.contextID))
            #expect(next.entries.compactMap { $0.text("uid") } == [TestDirectoryLDIF.uid(1201 - offset)])
        }
    }

    @Test func moreListsThanTheServerKeepsForAConnectionAreStillRead() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        // slapd keeps five sorted lists per connection (sssvlv-maxperconn).
        for (index, title) in ["Engineer", "Manager", "Analyst", "Designer", "Director", "Accountant", "Recruiter"].enumerated() {
            let search = server.everyone.narrowed(by: .equals("title", LDAPValue(title)))
            let window = try await connection.window(search, sortedBy: byUID, LDAPWindowRequest(.position(offset: 1, contentCount: 0), after: 0))
            #expect(window.entries.compactMap { $0.text("uid") } == [TestDirectoryLDIF.uid(index == 0 ? 7 : index)])
        }
    }

    @Test func anOrderTheServerCannotMakeIsUnsupported() async throws {
        let server = try await TestSlapd.shared()
        let connection = try await server.connect()
        let error = await #expect(throws: LDAPError.self) {
            try await connection.window(server.everyone, sortedBy: [LDAPSortKey("uid", orderingRule: nil)],
                                        LDAPWindowRequest(.position(offset: 1, contentCount: 0), after: 1))
        }
        #expect(error?.kind == .unsupported)
        #expect(error?.message == "the directory cannot sort by uid")
    }
}
