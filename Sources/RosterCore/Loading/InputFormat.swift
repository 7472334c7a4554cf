import Foundation

/// The shapes of input Roster reads: one JSON array, JSON Lines (one person
/// object per line), or CSV with a header row.
public enum InputFormat: String, CaseIterable, Sendable {
    case json, jsonLines = "jsonl", csv

    /// The format a file name's extension names (`people.ndjson`), or nil
    /// for any other name; then the content decides (`init(sniffing:)`).
    public init?(extensionOf fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonLines
        case "csv": self = .csv
        default: return nil
        }
    }

    /// `--format json|jsonl|csv` (also `ndjson`).
    public init?(option text: String) {
        switch text.lowercased() {
        case "json": self = .json
        case "jsonl", "ndjson", "jsonlines": self = .jsonLines
        case "csv": self = .csv
        default: return nil
        }
    }

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
    /// explain what a list of people should look like. A UTF-8 byte order
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
        }
    }
}
