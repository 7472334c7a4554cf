#if !ROSTER_FUZZ
import RosterCore
#endif

/// The columns of the CSV files other programs export, as a person's
/// fields: Google Contacts (both its older `Given Name`/`Family Name`
/// header and its newer `First Name`/`Last Name` one), Outlook, LinkedIn's
/// connections and Thunderbird, and common names of other tools (`first`,
/// `surname`, `fullName`, `org`). Matched as every header cell is, ignoring
/// case, spaces, `_`, `-` and `.`. The rank orders several columns of one
/// field: `E-mail 1 - Value` before `E-mail 2 - Value`, Outlook's
/// `Business Phone` before its `Mobile Phone`.
///
/// Outlook's `Title` is an honorific (Mr., Dr.), and LinkedIn's `Position`
/// a job title: a person has a field for neither, so both are left alone.
extension PersonColumn {
    static let aliases: [(name: String, column: PersonColumn)] = {
        var table: [(String, PersonColumn)] = []
        func add(_ field: TextField, _ names: String...) {
            for (rank, name) in names.enumerated() { table.append((name, .alias(field, rank: rank + 1))) }
        }
        add(.firstName, "Given Name", "given", "givenName")
        add(.lastName, "Family Name", "surname", "sn")
        table += [("first", .alias(.firstName, rank: 1)), ("last", .alias(.lastName, rank: 1))]
        add(.company, "Organization 1 - Name", "Organization Name", "Organization", "org", "Company Name")
        add(.email, "E-mail 1 - Value", "E-mail Address", "Email Address", "Primary Email", "mail", "workEmail",
            "E-mail 2 - Value", "E-mail 2 Address", "Secondary Email", "E-mail 3 - Value", "E-mail 3 Address")
        add(.phone, "Phone 1 - Value", "Primary Phone", "Business Phone", "Work Phone", "telephoneNumber", "Mobile Phone",
            "Mobile Number", "mobile", "Phone 2 - Value", "Home Phone", "Business Phone 2", "Phone 3 - Value")
        add(.id, "uid", "employeeId")
        table += ["Display Name", "Full Name", "fullName", "cn"].map { ($0, .fallbackName) }
        let parts: [(Int, [String])] = [
            (0, ["Business Street", "Address 1 - Street", "Work Address", "street"]),
            (1, ["Business City", "Address 1 - City", "Work City", "city"]),
            (2, ["Business State", "Address 1 - Region", "Work State", "state", "region"]),
            (3, ["Business Postal Code", "Address 1 - Postal Code", "Work ZipCode", "postal code", "zip"]),
        ]
        for (part, names) in parts { table += names.map { ($0, .addressPart(part)) } }
        return table
    }()

    /// Whether a row before the header is a note, not the header: one
    /// cell, naming no column, with a space or `:` in it (LinkedIn's
    /// `Notes:` and the sentence after it). Such rows are passed over.
    static func isPreamble(_ cells: [String]) -> Bool {
        guard cells.count == 1, let cell = cells.first, PersonColumn(header: cell) == nil else { return false }
        return cell.contains(":") || cell.contains(" ")
    }
}
