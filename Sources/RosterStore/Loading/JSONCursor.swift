#if !ROSTER_FUZZ
import RosterCore
#endif

/// Why scanning stopped before the value was complete.
enum ScanFailure: Error {
    /// The buffer ended inside a value and more input may follow.
    case needMore
    /// The input is not JSON; `offset` is absolute, in bytes.
    case syntax(String, offset: Int)
    /// The input holds only whitespace.
    case empty
    /// The input is some other JSON value, not a list.
    case notAList(found: String)
}

/// A forward-only JSON scanner over one buffer of the input.
///
/// It validates exactly RFC 8259's grammar without recursion (containers
/// are tracked on a byte stack on the heap, so nesting a million levels deep
/// costs a megabyte, not the call stack), counts lines as it skips
/// whitespace (the only place a raw newline may stand), and decodes strings
/// straight into a caller's byte buffer. Reading past the buffer's end
/// throws `.needMore` unless the buffer holds the rest of the input.
struct JSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Absolute offset of `bytes[0]` in the whole input.
    let base: Int
    /// Whether `bytes` runs to the end of the input.
    let isFinal: Bool
    var position = 0
    /// 1-based line of `position`, and the absolute offset where it starts.
    var line: Int
    var lineStart: Int
    private var containers = ContiguousArray<UInt8>()

    init(bytes: UnsafeBufferPointer<UInt8>, base: Int, isFinal: Bool, line: Int, lineStart: Int) {
        self.bytes = bytes
        self.base = base
        self.isFinal = isFinal
        self.line = line
        self.lineStart = lineStart
    }

    var absolutePosition: Int { base + position }
    var isAtEnd: Bool { position >= bytes.count }

    // MARK: Bytes

    @inline(__always)
    func peek() throws(ScanFailure) -> UInt8 {
        guard position < bytes.count else { throw endFailure() }
        return bytes[position]
    }

    func endFailure() -> ScanFailure {
        isFinal ? .syntax("the file ends too early (is it truncated?)", offset: absolutePosition) : .needMore
    }

    func failure(_ message: String) -> ScanFailure {
        .syntax(message, offset: absolutePosition)
    }

    /// (A bit test, not a `switch` or a chain of compares: the compiler made
    /// those a jump table, an indirect branch per byte of indentation.)
    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            let byte = bytes[position]
            if byte > 0x20 { return }
            if byte == 0x0A {
                position += 1
                line += 1
                lineStart = base + position
            } else if (UInt64(1) &<< UInt64(byte)) & Self.blanks != 0 {
                position += 1
            } else {
                return
            }
        }
    }

    /// Space, tab and carriage return, as bits by byte value.
    private static let blanks: UInt64 = 1 << 0x20 | 1 << 0x09 | 1 << 0x0D

    /// Skips whitespace and returns the next byte, or throws at the end.
    @inline(__always)
    mutating func nextToken() throws(ScanFailure) -> UInt8 {
        skipWhitespace()
        return try peek()
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(ScanFailure) {
        guard try nextToken() == byte else {
            throw failure("expected \(what), found \(describeByte(bytes[position]))")
        }
        position += 1
    }

    /// Whether the input at `position` starts with `prefix` (all of it in this buffer).
    @inline(__always)
    func startsWith(_ prefix: [UInt8]) -> Bool {
        guard position + prefix.count <= bytes.count else { return false }
        return prefix.withUnsafeBufferPointer { SpellingTable.equal(UnsafeBufferPointer(rebasing: bytes[position..<(position + $0.count)]), $0) }
    }

    func describeByte(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "text"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "true/false"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    // MARK: Strings

    /// Scans the string at `position` (its opening quote), appending its
    /// decoded UTF-8 to `output` when given.
    mutating func scanString<Sink: ByteSink>(into output: Sink) throws(ScanFailure) {
        position += 1  // opening quote
        while true {
            position = output.appendPlainText(from: bytes, start: position)
            let byte = try peek()
            if byte == UInt8(ascii: "\"") {
                position += 1
                return
            }
            if byte < 0x20 {
                throw failure(byte == 0x0A
                    ? "a line break inside text (a string is missing its closing quote?)"
                    : "control character 0x\(String(byte, radix: 16, uppercase: true)) inside text must be escaped")
            }
            try scanEscape(into: output)
        }
    }

    /// The first offset at or after `start` holding `"`, `\\` or a control
    /// byte, or the end; eight bytes at a time, as text is most of the input.
    @inline(__always)
    static func endOfPlainText(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var position = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            while position + 8 <= count {
                if stops(in: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)) != 0 { break }
                position += 8
            }
        }
        while position < count {
            if stops(at: bytes[position]) { break }
            position += 1
        }
        return position
    }

    /// The high bit of each byte of `word` (eight bytes of text, loaded
    /// little-endian) that ends plain text: a quote, a backslash or a
    /// control byte. The lowest set bit is exact; higher ones may be
    /// false (a borrow carries past the first match).
    @inline(__always)
    static func stops(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let slashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasSlash = (slashes &- ones) & ~slashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasSlash | hasControl) & 0x8080_8080_8080_8080
    }

    @inline(__always)
    static func stops(at byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }

    /// Scans the string at `position`, keeping nothing.
    mutating func skipString() throws(ScanFailure) {
        try scanString(into: DiscardingSink())
    }

    private mutating func scanEscape<Sink: ByteSink>(into output: Sink) throws(ScanFailure) {
        guard position + 1 < bytes.count else { throw endFailure() }
        let escaped = bytes[position + 1]
        let decoded: UInt8
        switch escaped {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            position += 2
            try scanUnicodeEscape(into: output)
            return
        default:
            throw failure("invalid escape '\\\(Character(Unicode.Scalar(escaped)))' in text")
        }
        position += 2
        output.append(decoded)
    }

    /// After `\u`: four hex digits, and a second `\uXXXX` for a surrogate pair.
    private mutating func scanUnicodeEscape<Sink: ByteSink>(into output: Sink) throws(ScanFailure) {
        let escapeStart = absolutePosition - 2
        let first = try hexQuad()
        var scalarValue = UInt32(first)
        if (0xD800...0xDBFF).contains(first) {
            guard position + 1 < bytes.count || isFinal else { throw .needMore }
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw .syntax("a \\u escape starts a surrogate pair that is never finished", offset: escapeStart)
            }
            position += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw .syntax("a \\u escape starts a surrogate pair that is never finished", offset: escapeStart)
            }
            scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(first) {
            throw .syntax("a \\u escape is the second half of a surrogate pair with no first half", offset: escapeStart)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { return }
        for unit in UTF8.encode(scalar)! { output.append(unit) }
    }

    private mutating func hexQuad() throws(ScanFailure) -> UInt16 {
        guard position + 4 <= bytes.count else {
            if isFinal { throw failure("the file ends inside a \\u escape") }
            throw .needMore
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\\u must be followed by four hex digits")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    // MARK: Numbers and literals

    /// Scans a number and returns its bytes' range in `bytes`.
    mutating func scanNumber() throws(ScanFailure) -> Range<Int> {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let first = try peekNumberByte()
        if first == UInt8(ascii: "0") {
            position += 1
        } else if isDigit(first) {
            try skipDigits()
        } else {
            throw failure("a number needs digits after '-'")
        }
        if try peekNumberByte() == UInt8(ascii: ".") {
            position += 1
            guard isDigit(try peekNumberByte()) else { throw failure("a number needs digits after '.'") }
            try skipDigits()
        }
        let exponent = try peekNumberByte()
        if exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
            position += 1
            let sign = try peekNumberByte()
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard isDigit(try peekNumberByte()) else { throw failure("a number needs digits in its exponent") }
            try skipDigits()
        }
        return start..<position
    }

    /// Like `peek`, but a number may be the last thing in a final buffer.
    @inline(__always)
    private func peekNumberByte() throws(ScanFailure) -> UInt8 {
        guard position < bytes.count else {
            if isFinal { return 0 }
            throw .needMore
        }
        return bytes[position]
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func skipDigits() throws(ScanFailure) {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        if position == bytes.count, !isFinal { throw .needMore }
    }

    /// Scans `true`, `false` or `null` and returns which.
    mutating func scanLiteral() throws(ScanFailure) -> UInt8 {
        let first = bytes[position]
        let word: StaticString = first == UInt8(ascii: "t") ? "true" : first == UInt8(ascii: "f") ? "false" : "null"
        let count = word.utf8CodeUnitCount
        for offset in 0..<count {
            guard position + offset < bytes.count else { throw endFailure() }
            guard bytes[position + offset] == word.utf8Start[offset] else {
                throw .syntax("expected '\(word)'", offset: absolutePosition)
            }
        }
        position += count
        return first
    }

    // MARK: Any value

    /// Validates and skips one whole value, however deeply nested.
    mutating func skipValue() throws(ScanFailure) {
        let floor = containers.count
        defer { containers.removeSubrange(floor...) }
        value: while true {
            let byte = try nextToken()
            switch byte {
            case UInt8(ascii: "{"):
                position += 1
                if try nextToken() == UInt8(ascii: "}") {
                    position += 1
                } else {
                    containers.append(UInt8(ascii: "{"))
                    try scanKeyAndColon()
                    continue value
                }
            case UInt8(ascii: "["):
                position += 1
                if try nextToken() == UInt8(ascii: "]") {
                    position += 1
                } else {
                    containers.append(UInt8(ascii: "["))
                    continue value
                }
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                _ = try scanLiteral()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try scanNumber()
            default:
                throw failure("expected a value, found \(describeByte(byte))")
            }
            // After a value: close containers until one continues with a comma.
            while containers.count > floor {
                let separator = try nextToken()
                let isObject = containers[containers.count - 1] == UInt8(ascii: "{")
                if separator == UInt8(ascii: ",") {
                    position += 1
                    if isObject { try scanKeyAndColon() }
                    continue value
                }
                if separator == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    containers.removeLast()
                    continue
                }
                throw failure(isObject ? "expected ',' or '}' in an object, found \(describeByte(separator))"
                                       : "expected ',' or ']' in an array, found \(describeByte(separator))")
            }
            return
        }
    }

    /// In an object, before a value: `"key" :`.
    mutating func scanKeyAndColon() throws(ScanFailure) {
        let byte = try nextToken()
        guard byte == UInt8(ascii: "\"") else {
            throw failure("expected a name in quotes, found \(describeByte(byte))")
        }
        try skipString()
        try expect(UInt8(ascii: ":"), "':' after a name")
    }
}

/// Where a scanned string's decoded bytes go.
protocol ByteSink {
    func append(_ byte: UInt8)
    /// Takes the plain text from `start` (see `ByteArena.appendPlainText`)
    /// and returns where it stops.
    func appendPlainText(from bytes: UnsafeBufferPointer<UInt8>, start: Int) -> Int
}

extension ByteArena: ByteSink {}

/// A sink for strings that are validated but not kept.
struct DiscardingSink: ByteSink {
    @inline(__always) func append(_ byte: UInt8) {}
    @inline(__always) func appendPlainText(from bytes: UnsafeBufferPointer<UInt8>, start: Int) -> Int {
        JSONCursor.endOfPlainText(bytes, from: start)
    }
}
