/// What `y` and `Y` put on the clipboard: only printable text (control
/// characters are left out and counted, as the detail screen's copy does,
/// see `DisplayText.printable`), never a terminal command.
public enum ClipboardText {
    /// The most UTF-8 bytes a copy sends (750,000: 1,000,000 bytes of
    /// base64). The copy is an OSC 52 sequence, and a terminal drops one
    /// longer than it buffers, silently: tmux's input buffer holds 1 MiB
    /// (`input-buffer-size`), so a larger copy would report success and
    /// never reach the clipboard. Above this, nothing is copied and the
    /// message says to export (`e`) instead.
    public static let maximumBytes = 750_000

    /// Whether `text` is small enough to reach the clipboard.
    public static func fits(_ text: String) -> Bool {
        text.utf8.count <= maximumBytes
    }

    /// "too much to copy (4,512 KB, at most 750 KB): e exports them instead".
    public static func tooMuchMessage(_ text: String) -> String {
        "too much to copy (\(kilobytes(text.utf8.count)), at most \(kilobytes(maximumBytes))): e exports them instead"
    }

    /// "4,512 KB": sizes in whole kilobytes, rounded up, grouped.
    static func kilobytes(_ bytes: Int) -> String {
        "\(NumberText.grouped((bytes + 999) / 1000)) KB"
    }

    /// Where `what` went, claiming no more than is known: "sent 4 addresses
    /// to the terminal's clipboard" (the terminal may drop the request),
    /// "copied 4 addresses to tmux's buffer".
    public static func deliveredMessage(_ what: String, _ delivery: ClipboardDelivery) -> String {
        switch delivery {
        case .terminal: return "sent \(what) to the terminal's clipboard"
        case .tmuxBuffer: return "copied \(what) to tmux's buffer"
        }
    }

    /// One line for a copy: "sent 4 addresses to the terminal's clipboard;
    /// 1 without email, 3 control characters left out" (the notes only when
    /// there is something to say).
    public static func copiedMessage(_ what: String, leftOut notes: [String], delivery: ClipboardDelivery) -> String {
        deliveredMessage(what, delivery) + (notes.isEmpty ? "" : "; \(notes.joined(separator: ", ")) left out")
    }

    /// "sent 4 addresses to …; 1 without email, 3 control characters left
    /// out" for `list`, made of `count` people.
    public static func addressesCopiedMessage(_ list: (text: String, withoutEmail: Int, removed: Int), of count: Int,
                                              delivery: ClipboardDelivery) -> String {
        let withoutEmail = list.withoutEmail == 0 ? [] : ["\(NumberText.grouped(list.withoutEmail)) without email"]
        return copiedMessage(NumberText.count(count - list.withoutEmail, "address", "addresses"),
                             leftOut: withoutEmail + removedCount(list.removed), delivery: delivery)
    }

    /// "3 control characters", or nothing when none were left out.
    public static func removedCount(_ removed: Int) -> [String] {
        removed == 0 ? [] : ["\(NumberText.grouped(removed)) control character\(removed == 1 ? "" : "s")"]
    }

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
        let atextSymbols = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)
        let isAtom = { (scalar: Unicode.Scalar) in
            !scalar.isASCII || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || atextSymbols.contains(scalar)
        }
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        if words.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(isAtom) }) { return name }
        // Scalar by scalar: a quote followed by a combining mark is one
        // Character, and would go unescaped.
        var quoted = String.UnicodeScalarView(["\""])
        for scalar in name.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted.append("\\") }
            quoted.append(scalar)
        }
        return String(quoted) + "\""
    }

    /// The people as vCards (the export's writer), their fields printable
    /// first; `removed` counts the characters left out.
    public static func vCards<People: Sequence>(_ people: People) -> (text: String, removed: Int) where People.Element == Person {
        var removed = 0
        let clean = people.map { person -> Person in
            var person = person
            // Every field a card writes: the `_id` too (its UID).
            for path in [\Person.id, \.firstName, \.lastName, \.company, \.email, \.phone, \.address] {
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
