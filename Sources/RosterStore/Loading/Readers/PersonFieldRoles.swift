#if !ROSTER_FUZZ
import RosterCore
#endif

/// What a field of a vCard or an LDIF entry is to a person, when it is
/// anything: the one table of names `PersonFieldSink` reads them by.
///
/// vCard: `UID` the id, `N` the name's parts (`FN` when there is no `N`),
/// `ORG` the company, `EMAIL` and `TEL` (the preferred one, else the
/// first), `ADR` (the preferred one) the address. LDIF: `dn` the id,
/// `givenName` and `sn` the name's parts (`cn`, else `displayName`, when
/// there are none), `o` the company, `mail`, `telephoneNumber` (else
/// `mobile`, else `homePhone`), and `street`, `l`, `st`, `postalCode`
/// the address. Names are compared ignoring case, as both formats do.
enum PersonFieldRole: Equatable {
    case id
    /// The whole name in one value (its last word is the last name); a
    /// lower rank wins (LDIF's `cn` over `displayName`).
    case wholeName(rank: Int)
    /// vCard's `N`: component 0 the family name, 1 the given name.
    case nameParts
    case givenName, familyName
    case company
    /// A lower rank wins; vCard's `PREF` gives it.
    case email(rank: Int)
    case phone(rank: Int)
    /// vCard's `ADR`: components 2 street, 3 locality, 4 region, 5 postal code.
    case addressParts
    case street, city, region, postalCode
}

enum PersonFieldRoles {
    /// The role of the field spelled `name` in `format`, or nil for one a person does not hold.
    static func role(of name: UnsafeBufferPointer<UInt8>, in format: InputFormat) -> PersonFieldRole? {
        format == .ldif ? ldifRole(of: name) : vCardRole(of: name)
    }

    private static func vCardRole(of name: UnsafeBufferPointer<UInt8>) -> PersonFieldRole? {
        switch name.count {
        case 1: return FieldBytes.equalsIgnoringCase(name, "N") ? .nameParts : nil
        case 2: return FieldBytes.equalsIgnoringCase(name, "FN") ? .wholeName(rank: 1) : nil
        case 3:
            if FieldBytes.equalsIgnoringCase(name, "TEL") { return .phone(rank: 0) }
            if FieldBytes.equalsIgnoringCase(name, "UID") { return .id }
            if FieldBytes.equalsIgnoringCase(name, "ORG") { return .company }
            if FieldBytes.equalsIgnoringCase(name, "ADR") { return .addressParts }
            return nil
        case 5: return FieldBytes.equalsIgnoringCase(name, "EMAIL") ? .email(rank: 0) : nil
        default: return nil
        }
    }

    /// LDAP's attribute names and their long forms (RFC 4519).
    private static let ldifNames: [(StaticString, PersonFieldRole)] = [
        ("dn", .id), ("cn", .wholeName(rank: 1)), ("commonName", .wholeName(rank: 1)), ("displayName", .wholeName(rank: 2)),
        ("givenName", .givenName), ("gn", .givenName), ("sn", .familyName), ("surname", .familyName),
        ("o", .company), ("organizationName", .company), ("mail", .email(rank: 1)), ("rfc822Mailbox", .email(rank: 1)),
        ("telephoneNumber", .phone(rank: 1)), ("mobile", .phone(rank: 2)), ("homePhone", .phone(rank: 3)),
        ("street", .street), ("streetAddress", .street), ("l", .city), ("localityName", .city),
        ("st", .region), ("stateOrProvinceName", .region), ("postalCode", .postalCode),
    ]

    private static func ldifRole(of name: UnsafeBufferPointer<UInt8>) -> PersonFieldRole? {
        for (spelling, role) in ldifNames where FieldBytes.equalsIgnoringCase(name, spelling) { return role }
        return nil
    }

    /// Why a record without a name is skipped, in the format's own words.
    static func noNameReason(_ format: InputFormat) -> String {
        format == .ldif ? "no name (needs cn, givenName or sn)" : "no name (needs FN or N)"
    }
}
