import RosterCore
import RosterLDAP
import Testing

/// How entries read as people, with entries made by hand (no server).
struct LDAPPersonMappingTests {
    static func entry(_ attributes: [(String, [String])], dn: String = "uid=ada,ou=People,dc=example,dc=org") -> LDAPEntry {
        LDAPEntry(dn: dn, attributes: attributes.map { LDAPAttribute($0.0, $0.1.map { LDAPValue($0) }) })
    }

    @Test func anInetOrgPersonFillsTheFieldsTheListShows() {
        let person = LDAPPersonMapping.person(Self.entry([
            ("uid", ["ada"]), ("cn", ["Ada Lovelace"]), ("givenName", ["Ada"]), ("sn", ["Lovelace"]), ("mail", ["ada@example.org"]),
            ("telephoneNumber", ["+44 20 7946 0000"]), ("mobile", ["+44 7700 900000"]), ("o", ["Analytical Engines"]),
            ("ou", ["Research"]), ("street", ["12 St James's Square"]), ("l", ["London"]), ("st", ["LND"]), ("postalCode", ["SW1Y 4JH"]),
            ("entryUUID", ["2039de48-8649-1041-8441-5f5c6fe2d14b"]),
        ]))
        #expect(person.id == "ada")
        #expect(person.guid == "2039de48-8649-1041-8441-5f5c6fe2d14b")
        #expect((person.firstName, person.lastName) == ("Ada", "Lovelace"))
        #expect(person.email == "ada@example.org")
        #expect(person.phone == "+44 20 7946 0000")
        #expect(person.company == "Analytical Engines")
        #expect(person.address == "12 St James's Square, London, LND, SW1Y 4JH")
        #expect(AddressPart.text(1, of: person.address) == "London")
    }

    @Test func attributeNamesMatchWithoutRegardToCase() {
        let person = LDAPPersonMapping.person(Self.entry([("GIVENNAME", ["Ada"]), ("SN", ["King"]), ("Mail", ["a@b.c"])]))
        #expect((person.firstName, person.lastName, person.email) == ("Ada", "King", "a@b.c"))
    }

    @Test func withoutGivenNameTheCommonNameIsSplitBeforeTheSurname() {
        let bySurname = LDAPPersonMapping.person(Self.entry([("cn", ["Ada King Lovelace"]), ("sn", ["King Lovelace"])]))
        #expect((bySurname.firstName, bySurname.lastName) == ("Ada", "King Lovelace"))
        let byLastWord = LDAPPersonMapping.person(Self.entry([("cn", ["Ada King Lovelace"])]))
        #expect((byLastWord.firstName, byLastWord.lastName) == ("Ada King", "Lovelace"))
        let oneWord = LDAPPersonMapping.person(Self.entry([("cn", ["Reception"])]))
        #expect((oneWord.firstName, oneWord.lastName) == ("", "Reception"))
        let display = LDAPPersonMapping.person(Self.entry([("displayName", ["Grace Hopper"]), ("cn", ["ghopper"])]))
        #expect((display.firstName, display.lastName) == ("Grace", "Hopper"))
    }

    @Test func theCompanyIsTheOrganisationElseTheUnitElseTheDepartment() {
        #expect(LDAPPersonMapping.person(Self.entry([("ou", ["Sales"]), ("department", ["EMEA"])])).company == "Sales")
        #expect(LDAPPersonMapping.person(Self.entry([("department", ["EMEA"])])).company == "EMEA")
        #expect(LDAPPersonMapping.person(Self.entry([("o", ["Acme"]), ("ou", ["Sales"])])).company == "Acme")
    }

    @Test func aMobileIsThePhoneWhenThereIsNoTelephoneNumber() {
        #expect(LDAPPersonMapping.person(Self.entry([("mobile", ["+1 555 0100"])])).phone == "+1 555 0100")
    }

    @Test func theAddressKeepsEachPartInItsPlaceAndDropsTheEmptyEnd() {
        let cityOnly = LDAPPersonMapping.person(Self.entry([("l", ["Springfield"])]))
        #expect(AddressPart.text(1, of: cityOnly.address) == "Springfield")
        #expect(AddressPart.text(0, of: cityOnly.address) == "")
        #expect(LDAPPersonMapping.person(Self.entry([("cn", ["x"])])).address == "")
    }

    @Test func theRecordIdIsTheUidElseTheEntryUUIDElseTheDN() {
        #expect(LDAPPersonMapping.recordID(Self.entry([("entryUUID", ["2039de48-8649-1041-8441-5f5c6fe2d14b"])]))
            == "2039de48-8649-1041-8441-5f5c6fe2d14b")
        #expect(LDAPPersonMapping.recordID(Self.entry([("cn", ["x"])], dn: "cn=x,dc=example,dc=org")) == "cn=x,dc=example,dc=org")
    }

    @Test func anEntryWithNoneOfTheFieldsIsStillAPersonWithAnId() {
        let person = LDAPPersonMapping.person(Self.entry([("objectClass", ["person"])], dn: "cn=nobody,dc=example,dc=org"))
        #expect(person.id == "cn=nobody,dc=example,dc=org")
        #expect(person.fullName.isEmpty)
    }
}
