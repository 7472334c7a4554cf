@testable import RosterLDAP
import Testing

/// Filters from typed terms: every value escaped (RFC 4515), the same
/// filter in BER for the Assertion control.
@Suite struct LDAPFilterTests {
    @Test func theFiveSpecialBytesAreEscaped() {
        #expect(LDAPFilter.equals("uid", "*)(uid=*").text == #"(uid=\2a\29\28uid=\2a)"#)
        #expect(LDAPFilter.equals("cn", "a\\b").text == #"(cn=a\5cb)"#)
        #expect(LDAPFilter.equals("cn", LDAPValue([0x61, 0x00, 0x62])).text == #"(cn=a\00b)"#)
        #expect(LDAPFilter.contains("cn", "(Star*)").text == #"(cn=*\28Star\2a\29*)"#)
    }

    @Test func textStaysTextAndBytesThatAreNotUTF8AreEscapedToo() {
        #expect(LDAPFilter.startsWith("cn", "José").text == "(cn=José*)")
        #expect(LDAPFilter.equals("photo", LDAPValue([0xFF, 0x41, 0xC3])).text == #"(photo=\ffA\c3)"#)
    }

    @Test func termsCombine() {
        let filter = LDAPFilter.and([.or([.equals("ou", "Sales"), .endsWith("mail", "@x.org")]), .not(.present("manager")),
                                     .greaterOrEqual("employeeNumber", "10"), .lessOrEqual("employeeNumber", "20")])
        #expect(filter.text == "(&(|(ou=Sales)(mail=*@x.org))(!(manager=*))(employeeNumber>=10)(employeeNumber<=20))")
        #expect(LDAPFilter.and([]).text == "(&)")
        #expect(LDAPFilter.everyone.text == "(objectClass=*)")
    }

    @Test func anEmptyValueInASubstringTestIsAPresenceTest() {
        #expect(LDAPFilter.contains("cn", "").text == "(cn=*)")
        #expect(LDAPFilter.startsWith("cn", "").encoded == LDAPFilter.present("cn").encoded)
    }

    @Test func theBEREncodingIsRFC4511s() {
        // equalityMatch [3] { "cn", "a" }
        #expect(LDAPFilter.equals("cn", "a").encoded == [0xA3, 0x07, 0x04, 0x02, 0x63, 0x6E, 0x04, 0x01, 0x61])
        // present [7] "cn"
        #expect(LDAPFilter.present("cn").encoded == [0x87, 0x02, 0x63, 0x6E])
        // substrings [4] { "cn", { any [1] "b" } }
        #expect(LDAPFilter.contains("cn", "b").encoded == [0xA4, 0x09, 0x04, 0x02, 0x63, 0x6E, 0x30, 0x03, 0x81, 0x01, 0x62])
        // and [0] { not [2] { present "x" } }
        #expect(LDAPFilter.and([.not(.present("x"))]).encoded == [0xA0, 0x05, 0xA2, 0x03, 0x87, 0x01, 0x78])
        // greaterOrEqual [5], lessOrEqual [6]: raw bytes, no escaping
        #expect(LDAPFilter.greaterOrEqual("n", "*").encoded == [0xA5, 0x06, 0x04, 0x01, 0x6E, 0x04, 0x01, 0x2A])
        #expect(LDAPFilter.lessOrEqual("n", "1").encoded.first == 0xA6)
    }

    @Test func aNarrowedSearchKeepsItsOwnFilter() {
        let search = LDAPSearch(base: "dc=x", filterText: "(objectClass=person)")
        #expect(search.narrowed(by: .equals("uid", "*")).filter == #"(&(objectClass=person)(uid=\2a))"#)
        #expect(LDAPSearch(base: "dc=x", filterText: "ou=Sales").narrowed(by: .present("mail")).filter == "(&(ou=Sales)(mail=*))")
    }
}
