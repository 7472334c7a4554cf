/// What `y` and `Y` put on the clipboard: only printable text (control and
/// invisible format characters are left out and counted, as the detail
/// screen's copy does), never a terminal command.
public enum ClipboardText {
    /// "Ada Lovelace <ada@example.com>, "Hopper, Grace" <grace@example.com>":
    /// an address list (RFC 5322) of the people with an email; `withoutEmail`
    /// counts those left out, `removed` the characters left out.
    public static func addressList<People: Sequence>(_ people: People) -> (text: String, withoutEmail: Int, removed: Int)
    where People.Element == Person {
        var addresses: [String] = []
        var withoutEmail = 0
        var removed = 0
        for person in people {
            let (email, emailRemoved) = DisplayText.printable(person.email.trimmingSpaces)
            guard !email.isEmpty else {
                withoutEmail += 1
                continue
            }
            let (name, nameRemoved) = DisplayText.printable(person.fullName)
            removed += emailRemoved + nameRemoved
            addresses.append(address(name: name.trimmingSpaces, email: email))
        }
        return (addresses.joined(separator: ", "), withoutEmail, removed)
    }

    /// `Name <email>`; the name quoted when it is not a run of atoms
    /// (a comma, a dot, a quote…), its quotes and backslashes escaped.
    public static func address(name: String, email: String) -> String {
        guard !name.isEmpty else { return "<\(email)>" }
        return "\(displayName(name)) <\(email)>"
    }

    /// A display name as an RFC 5322 phrase: atoms (letters, digits, the
    /// atext symbols and any non-ASCII, RFC 6532) separated by spaces
    /// stand as they are; anything else is a quoted string.
    static func displayName(_ name: String) -> String {
        let atextSymbols = Set("!#$%&'*+-/=?^_`{|}~")
        let isAtom = { (character: Character) in
            !character.isASCII || character.isLetter || character.isNumber || atextSymbols.contains(character)
        }
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        if words.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isAtom) }) { return name }
        var quoted = "\""
        for character in name {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// The people as vCards (the export's writer), their fields printable
    /// first; `removed` counts the characters left out.
    public static func vCards<People: Sequence>(_ people: People) -> (text: String, removed: Int) where People.Element == Person {
        var removed = 0
        let clean = people.map { person -> Person in
            var person = person
            for path in [\Person.firstName, \.lastName, \.company, \.email, \.phone, \.address] {
                let (text, count) = DisplayText.printable(person[keyPath: path])
                person[keyPath: path] = text
                removed += count
            }
            return person
        }
        return (String(decoding: DirectoryExporter(format: .vcard).export(clean), as: UTF8.self), removed)
    }

    /// " (2 control characters left out)", or nothing.
    public static func removedNote(_ removed: Int) -> String {
        removed == 0 ? "" : " (\(removed) control character\(removed == 1 ? "" : "s") left out)"
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
