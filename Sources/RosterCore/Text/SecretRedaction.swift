/// Takes passwords out of any text that may quote a connection target,
/// whatever a library's message looks like: the one choke point every
/// database error (`DatabaseError`) and every line on standard error
/// goes through.
///
/// Three things are masked:
/// - the value of every `password=` setting (a connection string's, or a
///   URI's `?password=`), quoted or not, percent-encoded or not;
/// - the password of a URI's `user:password@`, up to the last `@` of the
///   word (libpq stops at the first `/`; a password holding one still
///   never shows);
/// - every password Roster has seen (`remember`): the one a target
///   carries, `PGPASSWORD`, the one typed at the prompt, so that a message
///   quoting it alone (`invalid percent-encoded token: "50%off"`) is
///   masked too. Passwords shorter than three characters are masked only
///   where they stand as above, so that masking cannot eat a message.
public enum SecretRedaction {
    /// What stands in for a password.
    public static let mask = "•••"

    private static let known = Locked<Set<String>>([])

    /// Remembers `secret` (and its percent-encoded spelling) to mask it
    /// wherever it appears from now on.
    public static func remember(_ secret: String) {
        guard secret.count >= 3 else { return }
        let encoded = secret.addingPercentEncodingForURI()
        known.withLock { secrets in
            secrets.insert(secret)
            secrets.insert(encoded)
        }
    }

    /// `text` with every password masked.
    public static func redact(_ text: String) -> String {
        var result = maskingURIPasswords(in: maskingPasswordSettings(in: text))
        let secrets = known.withLock { $0 }.sorted { $0.count > $1.count }
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: mask)
        }
        return result
    }

    /// `password = value` / `password='quoted value'` / `?password=value`,
    /// the value masked.
    static func maskingPasswordSettings(in text: String) -> String {
        let characters = Array(text)
        let key = Array("password")
        var output = ""
        var index = 0
        while index < characters.count {
            guard matches(key, in: characters, at: index) else {
                output.append(characters[index])
                index += 1
                continue
            }
            var cursor = index + key.count
            while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
            guard cursor < characters.count, characters[cursor] == "=" else {
                output.append(characters[index])
                index += 1
                continue
            }
            cursor += 1
            while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
            output += String(characters[index..<cursor]) + mask
            index = endOfValue(in: characters, from: cursor)
        }
        return output
    }

    /// Where a setting's value starting at `start` ends: after its closing
    /// quote, or at a blank, `&`, `#` or a double quote.
    private static func endOfValue(in characters: [Character], from start: Int) -> Int {
        var cursor = start
        if cursor < characters.count, characters[cursor] == "'" {
            cursor += 1
            while cursor < characters.count, characters[cursor] != "'" {
                cursor += characters[cursor] == "\\" ? 2 : 1
            }
            return min(cursor + 1, characters.count)
        }
        while cursor < characters.count, !" \t\n&#\"".contains(characters[cursor]) { cursor += 1 }
        return cursor
    }

    private static func matches(_ key: [Character], in characters: [Character], at index: Int) -> Bool {
        guard index + key.count <= characters.count else { return false }
        for offset in key.indices where characters[index + offset].lowercased() != String(key[offset]) { return false }
        return true
    }

    /// `scheme://user:secret@host` → `scheme://user:•••@host`, for every
    /// `://` in `text`: the password runs from the first `:` of the word to
    /// its last `@`.
    static func maskingURIPasswords(in text: String) -> String {
        var output = ""
        var rest = Substring(text)
        while let scheme = rest.firstRange(of: "://") {
            output += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let wordEnd = rest.firstIndex(where: { $0 == " " || $0 == "\"" || $0 == "\t" || $0 == "\n" }) ?? rest.endIndex
            let word = rest[..<wordEnd]
            guard let at = word.lastIndex(of: "@"), let colon = word[..<at].firstIndex(of: ":") else { continue }
            output += rest[...colon] + mask
            rest = rest[at...]
        }
        return output + rest
    }
}

extension String {
    /// Every byte but unreserved URI characters as `%XX`, the way a
    /// password would be written inside a URI.
    func addingPercentEncodingForURI() -> String {
        var encoded = ""
        for byte in utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) || "-._~".unicodeScalars.contains(scalar) {
                encoded.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
