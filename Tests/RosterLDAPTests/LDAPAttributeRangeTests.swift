@testable import RosterLDAP
import Testing

/// Active Directory's attribute ranges (`member;range=0-1499`), followed
/// to the end. slapd never splits an attribute, so the server is a fake.
@Suite struct LDAPAttributeRangeTests {
    @Test func rangesAreReadFromTheDescription() {
        let range = LDAPAttributeRange("member;range=0-1499")
        #expect(range?.attribute == "member" && range?.first == 0 && range?.last == 1499)
        #expect(LDAPAttributeRange("member;Range=1500-*")?.last == nil)
        #expect(LDAPAttributeRange("member;range=1500-*")?.nextRequest == nil)
        #expect(LDAPAttributeRange("member;range=0-1499")?.nextRequest == "member;range=1500-*")
        #expect(LDAPAttributeRange("userCertificate;binary;range=0-9")?.attribute == "userCertificate;binary")
        #expect(LDAPAttributeRange("member") == nil)
        #expect(LDAPAttributeRange("range=0-5") == nil)
        #expect(LDAPAttributeRange("member;range=9-2") == nil)
        #expect(LDAPAttributeRange("member;range=x-*") == nil)
    }

    private static func values(_ range: ClosedRange<Int>) -> [LDAPValue] {
        range.map { LDAPValue("cn=m\($0)") }
    }

    @Test func thePartsAreFetchedAndJoinedInOrder() throws {
        let first = LDAPEntry(dn: "cn=group", attributes: [LDAPAttribute("cn", ["group"]), LDAPAttribute("member;range=0-2", Self.values(0...2))])
        var asked: [String] = []
        let whole = try LDAPAttributeRange.completed(first) { (dn: String, request: String) throws(LDAPError) -> LDAPEntry? in
            asked.append(request)
            #expect(dn == "cn=group")
            return request == "member;range=3-*"
                ? LDAPEntry(dn: dn, attributes: [LDAPAttribute("member;range=3-5", Self.values(3...5))])
                : LDAPEntry(dn: dn, attributes: [LDAPAttribute("member;range=6-*", Self.values(6...7))])
        }
        #expect(asked == ["member;range=3-*", "member;range=6-*"])
        #expect(whole == LDAPEntry(dn: "cn=group", attributes: [LDAPAttribute("cn", ["group"]), LDAPAttribute("member", Self.values(0...7))]))
    }

    @Test func aServerThatRepeatsARangeOrDropsTheAttributeStopsTheLoop() throws {
        let first = LDAPEntry(dn: "cn=g", attributes: [LDAPAttribute("member;range=0-1", Self.values(0...1))])
        var calls = 0
        let repeated = try LDAPAttributeRange.completed(first) { (dn: String, _: String) throws(LDAPError) -> LDAPEntry? in
            calls += 1
            return LDAPEntry(dn: dn, attributes: [LDAPAttribute("member;range=0-1", Self.values(0...1))])
        }
        #expect(calls == 1)
        #expect(repeated["member"] == Self.values(0...1))
        let gone = try LDAPAttributeRange.completed(first) { (_: String, _: String) throws(LDAPError) -> LDAPEntry? in nil }
        #expect(gone["member"] == Self.values(0...1))
    }
}
