import Foundation

/// The test directory's configuration and contents: a `slapd.conf` (no
/// cn=config) and the LDIF `slapadd` loads, both made here.
public enum TestDirectoryLDIF {
    /// The people `TestSlapd` loads: `count` inetOrgPerson entries under
    /// `ou=People`, the same for the same count. Person `i` (from 1) is
    /// `uid=p` + `i` zero-padded to 6 digits; everyone but the first has a
    /// manager (person `(i - 2) / 5 + 1`: an org chart five wide).
    public static func people(_ count: Int, suffix: String) -> String {
        guard count > 0 else { return "" }
        var text = ""
        text.reserveCapacity(count * 520)
        for index in 1...count {
            text += person(index, suffix: suffix)
        }
        return text
    }

    /// Person `index`'s DN.
    public static func dn(ofPerson index: Int, suffix: String) -> String {
        "uid=\(uid(index)),ou=People,\(suffix)"
    }

    public static func uid(_ index: Int) -> String {
        "p" + String(repeating: "0", count: max(0, 6 - String(index).count)) + String(index)
    }

    static let givenNames = ["Ada", "Brian", "Chloé", "Dmitri", "Eve", "Farah", "Grace", "Hiro", "Ines", "José", "Kofi", "Lena"]
    static let surnames = ["Abbott", "Baker", "Chen", "Diaz", "Eriksson", "Fischer", "García", "Hughes", "Ito", "Jones", "Kowalski",
                           "Larsen", "Müller", "Nakamura", "O'Brien", "Patel", "Quinn", "Rossi"]
    static let titles = ["Engineer", "Manager", "Analyst", "Designer", "Director", "Accountant", "Recruiter"]
    static let companies = ["Acme", "Globex", "Initech", "Umbrella", "Hooli"]
    static let departments = ["Engineering", "Sales", "Finance", "Support", "Research", "Legal"]
    static let places: [(city: String, state: String, zip: String)] = [
        ("Springfield", "IL", "62701"), ("Portland", "OR", "97201"), ("Austin", "TX", "73301"), ("Boston", "MA", "02101"),
    ]

    private static func person(_ index: Int, suffix: String) -> String {
        let given = givenNames[index % givenNames.count]
        let surname = surnames[(index / givenNames.count) % surnames.count] + (index > givenNames.count * surnames.count ? "\(index)" : "")
        let place = places[index % places.count]
        let department = departments[index % departments.count]
        var lines = [
            "dn: " + dn(ofPerson: index, suffix: suffix),
            "objectClass: inetOrgPerson",
            "uid: " + uid(index),
            "cn: \(given) \(surname)",
            "sn: " + surname,
            "givenName: " + given,
            "mail: \(uid(index))@example.org",
            "telephoneNumber: +1 555 \(String(format: "%07d", index))",
            "title: " + titles[index % titles.count],
            "o: " + companies[index % companies.count],
            "ou: " + department,
            "departmentNumber: D\(index % departments.count + 1)",
            "l: " + place.city,
            "st: " + place.state,
            "postalCode: " + place.zip,
            "employeeNumber: \(index)",
        ]
        if index > 1 { lines.append("manager: " + dn(ofPerson: (index - 2) / 5 + 1, suffix: suffix)) }
        return lines.map(ldifLine).joined(separator: "\n") + "\n\n"
    }

    /// `line` (`name: value`) with a value LDIF cannot hold as it is
    /// written base64 (`name:: …`): a value that is not plain ASCII, or
    /// starts with a space, a colon or `<`.
    public static func ldifLine(_ line: String) -> String {
        guard let colon = line.range(of: ": ") else { return line }
        let value = line[colon.upperBound...]
        let safe = value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } && !(value.first.map { " :<".contains($0) } ?? false)
        return safe ? line : line[..<colon.lowerBound] + ":: " + Data(value.utf8).base64EncodedString()
    }

    /// `ou=Others`, for entries that are not the generated people (so that
    /// `ou=People` holds only those), with people whose names a filter
    /// must escape: a name with `(`, `*`, `)` and `\`, and one that is a
    /// filter itself. Tests that add entries add them here.
    public static func oddNames(suffix: String) -> String {
        let names = [("odd1", "Paren (Star*) Back\\slash"), ("odd2", "*)(uid=*")]
        return "dn: ou=Others,\(suffix)\nobjectClass: organizationalUnit\nou: Others\n\n" + names.map { uid, name in
            ["dn: uid=\(uid),ou=Others,\(suffix)", "objectClass: inetOrgPerson", "uid: " + uid, "cn: " + name, "sn: Odd"]
                .map(ldifLine).joined(separator: "\n") + "\n\n"
        }.joined()
    }

    /// The entries above the people: the suffix, `ou=People`, and the two
    /// accounts (a writer and a reader).
    static func frame(suffix: String, adminPassword: String, readerPassword: String) -> String {
        let top = suffix.split(separator: ",").first.map { $0.split(separator: "=").last.map(String.init) ?? "example" } ?? "example"
        return [
            "dn: \(suffix)\nobjectClass: dcObject\nobjectClass: organization\ndc: \(top)\no: \(top)",
            "dn: ou=People,\(suffix)\nobjectClass: organizationalUnit\nou: People",
            "dn: cn=admin,\(suffix)\nobjectClass: person\ncn: admin\nsn: admin\nuserPassword: \(adminPassword)",
            "dn: cn=reader,\(suffix)\nobjectClass: person\ncn: reader\nsn: reader\nuserPassword: \(readerPassword)",
        ].joined(separator: "\n\n") + "\n\n"
    }

    /// A `slapd.conf`: one mdb database for `suffix` in `directory`, with
    /// content synchronisation (syncprov), server-side sorting and virtual
    /// list views (sssvlv), the indexes a search as you type uses, and the
    /// access rules the tests check: anyone reads, `cn=admin` writes,
    /// `cn=reader` only reads; the test process's own user, over `ldapi://`
    /// with SASL EXTERNAL, is `cn=admin`.
    static func configuration(suffix: String, directory: String, sizeLimit: Int, sessionLog: Int, reloadHint: Bool) -> String {
        let limit = sizeLimit > 0 ? "sizelimit size.soft=\(sizeLimit) size.hard=\(sizeLimit) size.prtotal=unlimited" : "sizelimit unlimited"
        return """
            include /etc/ldap/schema/core.schema
            include /etc/ldap/schema/cosine.schema
            include /etc/ldap/schema/inetorgperson.schema
            modulepath /usr/lib/ldap
            moduleload back_mdb
            moduleload syncprov
            moduleload sssvlv
            pidfile \(directory)/slapd.pid
            argsfile \(directory)/slapd.args
            \(limit)
            authz-regexp "gidNumber=[0-9]+[+]uidNumber=\(getuid()),cn=peercred,cn=external,cn=auth" "cn=admin,\(suffix)"
            database mdb
            suffix "\(suffix)"
            directory \(directory)/data
            maxsize 4294967296
            index objectClass eq
            index cn,sn,givenName,mail,uid eq,sub
            index entryCSN,entryUUID eq
            access to attrs=userPassword
              by dn.exact="cn=admin,\(suffix)" write
              by anonymous auth
              by self write
              by * none
            access to *
              by dn.exact="cn=admin,\(suffix)" write
              by * read
            overlay syncprov
            syncprov-checkpoint 100 10
            syncprov-sessionlog \(sessionLog)
            syncprov-reloadhint \(reloadHint ? "TRUE" : "FALSE")
            overlay sssvlv
            sssvlv-max 64
            sssvlv-maxperconn 5

            """
    }
}
