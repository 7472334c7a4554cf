import Foundation

/// The shapes of input Roster reads: one JSON array, JSON Lines (one person
/// object per line), CSV with a header row, vCard cards (a `.vcf` file, or
/// a folder of them) or LDIF entries.
public enum InputFormat: String, CaseIterable, Sendable {
    case json, jsonLines = "jsonl", csv, vCard = "vcf", ldif

    /// The format a file name's extension names (`people.ndjson`), or nil
    /// for any other name; then the content decides (`init(sniffing:)`).
    public init?(extensionOf fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonLines
        case "csv": self = .csv
        case "vcf", "vcard": self = .vCard
        case "ldif": self = .ldif
        default: return nil
        }
    }

    /// `--format json|jsonl|csv|vcf|ldif` (also `ndjson`, `vcard`).
    public init?(option text: String) {
        switch text.lowercased() {
        case "json": self = .json
        case "jsonl", "ndjson", "jsonlines": self = .jsonLines
        case "csv": self = .csv
        case "vcf", "vcard": self = .vCard
        case "ldif": self = .ldif
        default: return nil
        }
    }

    /// Whether the format is read as records of named fields (vCard, LDIF)
    /// rather than as people's records (JSON, JSON Lines, CSV).
    public var isFieldRecords: Bool { self == .vCard || self == .ldif }

    /// The UTF-8 byte order mark, which every reader passes over at the start.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    public static func startsWithByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.starts(with: byteOrderMark)
    }

    /// The format the first bytes look like: `[` starts JSON, `{` JSON
    /// Lines when the first line holds one whole object (else it is one
    /// JSON document, an object, which the JSON reader says is not a list
    /// of people, rather than a reason per line), and something that can start a header cell (a letter, `_`, a
    /// quote, any non-ASCII character) CSV. Anything else — nothing but
    /// whitespace, a digit, binary — goes to the JSON reader, whose errors
    /// explain what a list of people should look like. Before CSV come the
    /// formats whose first line says what they are: `BEGIN:VCARD` a vCard
    /// file, `dn:` or `version: 1` LDIF (and `#` comments, as `ldapsearch`
    /// writes them, when a `dn:` line follows). A UTF-8 byte order
    /// mark and leading whitespace are passed over.
    public init(sniffing bytes: UnsafeBufferPointer<UInt8>) {
        var position = Self.startsWithByteOrderMark(bytes) ? Self.byteOrderMark.count : 0
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09 {
            position += 1
        }
        guard position < bytes.count else {
            self = .json
            return
        }
        if let named = Self.namedByFirstLine(UnsafeBufferPointer(rebasing: bytes[position...])) {
            self = named
            return
        }
        let first = bytes[position]
        switch first {
        case UInt8(ascii: "["): self = .json
        case UInt8(ascii: "{"): self = Self.firstLineEndsItsObject(bytes, from: position) ? .jsonLines : .json
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
             UInt8(ascii: "\""), UInt8(ascii: "'"), 0xC2...0xF4:
            self = .csv
        default: self = .json
        }
    }

    /// vCard or LDIF, when the first line (or, after `#` comments, the
    /// first `dn:` line) says so; nil otherwise.
    private static func namedByFirstLine(_ text: UnsafeBufferPointer<UInt8>) -> InputFormat? {
        if startsLine(text, at: 0, with: "begin:vcard") { return .vCard }
        if startsLine(text, at: 0, with: "dn:") || startsLine(text, at: 0, with: "version: 1") || startsLine(text, at: 0, with: "version:1") {
            return .ldif
        }
        guard text.first == UInt8(ascii: "#") else { return nil }
        var lineStart = 0
        while lineStart < text.count {
            if text[lineStart] != UInt8(ascii: "#"), text[lineStart] != 0x0A, text[lineStart] != 0x0D, text[lineStart] != 0x20 {
                return startsLine(text, at: lineStart, with: "dn:") || startsLine(text, at: lineStart, with: "version:") ? .ldif : nil
            }
            guard let newline = text[lineStart...].firstIndex(of: 0x0A) else { return nil }
            lineStart = newline + 1
        }
        return nil
    }

    /// Whether `text` at `start` begins with `lowercase`, ignoring ASCII case.
    private static func startsLine(_ text: UnsafeBufferPointer<UInt8>, at start: Int, with lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard text.count - start >= count else { return false }
        let expected = lowercase.utf8Start
        for offset in 0..<count {
            let byte = text[start + offset]
            let folded = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
            if folded != expected[offset] { return false }
        }
        return true
    }

    /// True when the object opening at `start` closes before its line ends
    /// (or the bytes end first: there is no telling, and JSON Lines reads it).
    private static func firstLineEndsItsObject(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes[start...] {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                if byte == 0x0A { return false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return true }
            case 0x0A: return false
            default: break
            }
        }
        return true
    }

    public init(sniffing bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { Self(sniffing: $0) }
    }

    /// How messages name it.
    public var displayName: String {
        switch self {
        case .json: return "JSON"
        case .jsonLines: return "JSON Lines"
        case .csv: return "CSV"
        case .vCard: return "vCard"
        case .ldif: return "LDIF"
        }
    }
}
