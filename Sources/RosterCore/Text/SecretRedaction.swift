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
        let bytes = Array(text.utf8)
        var masked: [UInt8] = []
        var next = 0
        for range in passwordRanges(in: bytes) {
            masked += bytes[next..<range.lowerBound]
            masked += mask.utf8
            next = range.upperBound
        }
        masked += bytes[next...]
        var result = String(decoding: masked, as: UTF8.self)
        let secrets = known.withLock { $0 }.sorted { $0.count > $1.count }
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: mask)
        }
        return result
    }

    /// Where the passwords stand in `bytes` (UTF-8 text), in order, apart:
    /// every `password=` setting's value, then every URI's `user:password@`
    /// found outside those values. What `redact` masks, and what is
    /// taken out of the process's own arguments (`ps` shows them).
    public static func passwordRanges(in bytes: [UInt8]) -> [Range<Int>] {
        let settings = passwordSettingRanges(in: bytes)
        // The settings' values as if masked already: an `@` or `:` in one is not a URI's.
        var scanned = bytes
        for range in settings { scanned.replaceSubrange(range, with: repeatElement(UInt8(ascii: "x"), count: range.count)) }
        var merged: [Range<Int>] = []
        for range in (settings + uriPasswordRanges(in: scanned)).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The values of `password = value` / `password='quoted value'` /
    /// `?password=value` (quotes included), the key in any case.
    static func passwordSettingRanges(in bytes: [UInt8]) -> [Range<Int>] {
        let key = Array("password".utf8)
        var ranges: [Range<Int>] = []
        var index = 0
        while index + key.count <= bytes.count {
            guard zip(bytes[index...], key).allSatisfy({ lowercased($0) == $1 }) else {
                index += 1
                continue
            }
            var cursor = index + key.count
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else {
                index += 1
                continue
            }
            cursor += 1
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            let end = endOfValue(in: bytes, from: cursor)
            ranges.append(cursor..<end)
            index = max(end, cursor + 1)
        }
        return ranges
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Where a setting's value starting at `start` ends: after its closing
    /// quote, or at a blank, `&`, `#` or a double quote.
    private static func endOfValue(in bytes: [UInt8], from start: Int) -> Int {
        var cursor = start
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "'") {
            cursor += 1
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "'") {
                cursor += bytes[cursor] == UInt8(ascii: "\\") ? 2 : 1
            }
            return min(cursor + 1, bytes.count)
        }
        while cursor < bytes.count, !" \t\n&#\"".utf8.contains(bytes[cursor]) { cursor += 1 }
        return cursor
    }

    /// `scheme://user:secret@host`: `secret`, for every `://` in `bytes`;
    /// the password runs from the first `:` of the word to its last `@`.
    static func uriPasswordRanges(in bytes: [UInt8]) -> [Range<Int>] {
        let scheme = Array("://".utf8)
        var ranges: [Range<Int>] = []
        var index = 0
        while index + scheme.count <= bytes.count {
            guard bytes[index..<(index + scheme.count)].elementsEqual(scheme) else {
                index += 1
                continue
            }
            let start = index + scheme.count
            let word = start..<(bytes[start...].firstIndex(where: { " \"\t\n".utf8.contains($0) }) ?? bytes.count)
            guard let at = bytes[word].lastIndex(of: UInt8(ascii: "@")),
                  let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")) else {
                index = start
                continue
            }
            ranges.append((colon + 1)..<at)
            index = at
        }
        return ranges
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
