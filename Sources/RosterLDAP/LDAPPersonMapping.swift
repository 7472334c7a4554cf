import RosterCore

/// How a directory entry reads as a person: which attributes fill which
/// of `Person`'s fields, as the list, searches, sorting and the person's
/// screen know them for every other source.
///
/// Names: `givenName` and `sn`; without either, `cn` (or `displayName`)
/// split before its last word. Company: `o`, else `ou`, else
/// `department`. The address is written `street, l, st, postalCode`, so
/// that its parts read as the city, state and zip columns read a file's.
/// The record id is `uid`, else `entryUUID`, else the DN: what a
/// remembered place and marks find a person by again.
public enum LDAPPersonMapping {
    /// The attributes a search asks for: every user attribute, and the
    /// operational ones that tell entries and their versions apart.
    public static let attributes = ["*", "entryUUID", "entryCSN"]

    /// Who is a person when the URL's filter says nothing.
    public static let defaultFilter = "(|(objectClass=inetOrgPerson)(objectClass=person)(objectClass=user))"

    /// `entry` as a person.
    public static func person(_ entry: LDAPEntry) -> Person {
        let (firstName, lastName) = names(entry)
        let company = first(entry, "o", "ou", "department")
        return Person(id: recordID(entry), guid: entry.text("entryUUID") ?? "", firstName: firstName, lastName: lastName,
                      company: company, email: first(entry, "mail"), phone: first(entry, "telephoneNumber", "mobile"),
                      address: address(entry))
    }

    /// The id a person is found by again: `uid`, `entryUUID`, else the DN.
    public static func recordID(_ entry: LDAPEntry) -> String {
        let id = first(entry, "uid", "entryUUID")
        return id.isEmpty ? entry.dn : id
    }

    /// First and last name: `givenName` and `sn`; without a given name,
    /// the common name (`displayName`, else `cn`) split before its
    /// surname, or its last word ("Ada King Lovelace": "Ada King", "Lovelace").
    static func names(_ entry: LDAPEntry) -> (String, String) {
        let given = first(entry, "givenName"), surname = first(entry, "sn")
        let common = first(entry, "displayName", "cn")
        guard given.isEmpty, !common.isEmpty else { return (given, surname) }
        if !surname.isEmpty {
            let suffix = " " + surname
            return common.hasSuffix(suffix) ? (String(common.dropLast(suffix.count)), surname) : ("", surname)
        }
        let words = common.split(separator: " ")
        guard words.count > 1, let last = words.last else { return ("", common) }
        return (words.dropLast().joined(separator: " "), String(last))
    }

    /// `street, l, st, postalCode`, the empty parts at the end left out;
    /// empty when the entry has none of them.
    static func address(_ entry: LDAPEntry) -> String {
        var parts = [first(entry, "street"), first(entry, "l"), first(entry, "st"), first(entry, "postalCode")]
        while parts.last?.isEmpty == true { parts.removeLast() }
        return parts.joined(separator: ", ")
    }

    /// The first text value of the first of `names` the entry has.
    static func first(_ entry: LDAPEntry, _ names: String...) -> String {
        for name in names {
            if let text = entry.text(name), !text.isEmpty { return text }
        }
        return ""
    }
}
