#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// A field's parameters as written, read on demand: vCard's
/// `TYPE=work,pref;PREF=1`, `TYPE=work;TYPE=pref`, `TYPE="work,pref"`
/// (RFC 6350's quoted list of types), 2.1's bare `WORK;VOICE`,
/// quoted values (`LABEL="a:b;c"`), and LDIF's attribute options
/// (`lang-en` of `cn;lang-en`, bare). A view: valid during the call that
/// hands it over.
public struct FieldParameters {
    /// The bytes between the name and the `:`, without the first `;`.
    public let raw: UnsafeBufferPointer<UInt8>

    public init(raw: UnsafeBufferPointer<UInt8>) {
        self.raw = raw
    }

    public var isEmpty: Bool { raw.isEmpty }

    /// Each value of each parameter, in order: (name, value), quotes taken
    /// off and lists (`work,pref`) split. A bare one (2.1's `WORK`, an LDIF
    /// option) has an empty name: vCard 2.1 means it as a `TYPE`.
    public func forEach(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        while start <= raw.count {
            let end = Self.end(of: UInt8(ascii: ";"), in: raw, from: start)
            let parameter = UnsafeBufferPointer(rebasing: raw[start..<end])
            if !parameter.isEmpty {
                if let equals = parameter.firstIndex(of: UInt8(ascii: "=")) {
                    let name = FieldBytes.trimmed(UnsafeBufferPointer(rebasing: parameter[..<equals]))
                    // RFC 6350 quotes a list of types as one value (`TYPE="voice,home"`);
                    // another parameter's quoted commas are its text (`LABEL="a,b"`).
                    let splitsQuoted = FieldBytes.equalsIgnoringCase(name, "TYPE")
                    Self.values(UnsafeBufferPointer(rebasing: parameter[(equals + 1)...]), splittingQuoted: splitsQuoted) { body(name, $0) }
                } else {
                    body(UnsafeBufferPointer(start: nil, count: 0), FieldBytes.trimmed(parameter))
                }
            }
            start = end + 1
        }
    }

    /// Whether `TYPE` lists `type` (any case), or a bare parameter is it.
    public func hasType(_ type: StaticString) -> Bool {
        var found = false
        forEach { name, value in
            if !found, name.isEmpty || FieldBytes.equalsIgnoringCase(name, "TYPE") {
                found = FieldBytes.equalsIgnoringCase(value, type)
            }
        }
        return found
    }

    /// The first value of the parameter `name` (any case), or nil.
    public func firstValue(of name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        var found: UnsafeBufferPointer<UInt8>?
        forEach { parameter, value in
            if found == nil, FieldBytes.equalsIgnoringCase(parameter, name) { found = value }
        }
        return found
    }

    /// How preferred the field is, 1 the most: `PREF=n` (4.0), or 1 for
    /// `TYPE=pref` (3.0) and a bare `PREF` (2.1); nil when it does not say.
    public var preference: Int? {
        if let pref = firstValue(of: "PREF") {
            var number = 0
            for byte in pref {
                guard byte &- UInt8(ascii: "0") < 10, number < 1_000 else { return 1 }
                number = number * 10 + Int(byte &- UInt8(ascii: "0"))
            }
            return pref.isEmpty ? 1 : max(1, number)
        }
        return hasType("PREF") ? 1 : nil
    }

    /// Each value of a parameter's value list, unquoted; a quoted value's
    /// own commas split it too when `splittingQuoted`.
    private static func values(_ list: UnsafeBufferPointer<UInt8>, splittingQuoted: Bool = false,
                               _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        while start <= list.count {
            let end = Self.end(of: UInt8(ascii: ","), in: list, from: start)
            var value = FieldBytes.trimmed(UnsafeBufferPointer(rebasing: list[start..<end]))
            start = end + 1
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = UnsafeBufferPointer(rebasing: value[1..<(value.count - 1)])
                if splittingQuoted, value.contains(UInt8(ascii: ",")) {
                    values(value, body)
                    continue
                }
            }
            body(value)
        }
    }

    /// The first `separator` at or after `start` outside double quotes, or the end.
    private static func end(of separator: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var position = start
        var quoted = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == separator, !quoted {
                return position
            }
            position += 1
        }
        return bytes.count
    }
}

/// Small helpers over byte views that every reader needs.
public enum FieldBytes {
    /// Where a file's text starts in its first bytes: after a UTF-8 byte
    /// order mark if there is one; nil while the bytes so far could still
    /// be the start of one (wait for more).
    static func afterByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) -> Int? {
        if InputFormat.startsWithByteOrderMark(bytes) { return InputFormat.byteOrderMark.count }
        if !isFinal, bytes.count < 3, bytes.starts(with: InputFormat.byteOrderMark.prefix(bytes.count)) { return nil }
        return 0
    }

    /// Whether `bytes` spell `ascii`, ignoring ASCII case.
    @inline(__always)
    public static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ ascii: StaticString) -> Bool {
        guard bytes.count == ascii.utf8CodeUnitCount else { return false }
        let expected = ascii.utf8Start
        for index in 0..<bytes.count {
            let byte = bytes[index], other = expected[index]
            if byte == other { continue }
            // Only letters may differ by case: `@` and `` ` `` are not the same.
            guard byte | 0x20 == other | 0x20, (byte | 0x20) &- UInt8(ascii: "a") < 26 else { return false }
        }
        return true
    }

    /// Whether `bytes` start with `ascii`, ignoring ASCII case.
    @inline(__always)
    public static func hasPrefixIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ ascii: StaticString) -> Bool {
        let count = ascii.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[0..<count]), ascii)
    }

    /// Without spaces and tabs at either end.
    @inline(__always)
    public static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Whether a field name is one (`EMAIL`, `X-ABLabel`, `givenName`,
    /// `1.3.6.1.4.1.1466.0`): letters, digits, `-`, and LDIF's `.` for
    /// numeric object identifiers. Binary garbage never is.
    @inline(__always)
    public static func isName(_ bytes: UnsafeBufferPointer<UInt8>, allowingDots: Bool = false) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes {
            let isLetter = (byte | 0x20) &- UInt8(ascii: "a") < 26
            let isDigit = byte &- UInt8(ascii: "0") < 10
            let isOther = byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || (allowingDots && byte == UInt8(ascii: "."))
            if !(isLetter || isDigit || isOther) { return false }
        }
        return true
    }

    /// Where the LF at or after `start` is, or nil.
    @inline(__always)
    static func newline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, 0x0A, bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Copies `range` of `bytes` to `arena` without its folds (a line
    /// break and the one space or tab after it); returns where it landed.
    static func unfold(_ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>, into arena: ByteArena) -> Range<Int> {
        let start = arena.count
        let bounded = UnsafeBufferPointer(rebasing: bytes[..<range.upperBound])
        var position = range.lowerBound
        while position < range.upperBound {
            let newline = newline(in: bounded, from: position)
            let lineEnd = newline ?? range.upperBound
            let segmentEnd = lineEnd > position && bytes[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
            arena.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<segmentEnd]))
            guard newline != nil else { break }
            position = lineEnd + 1
            if position < range.upperBound, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
        }
        return start..<arena.count
    }

    /// Apple's label without its wrapping: `Manager` of `_$!<Manager>!$_`;
    /// any other label as it is.
    public static func appleLabelName(_ label: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard label.count >= 8, hasPrefixIgnoringCase(label, "_$!<"),
              equalsIgnoringCase(UnsafeBufferPointer(rebasing: label[(label.count - 4)...]), ">!$_") else { return label }
        return UnsafeBufferPointer(rebasing: label[4..<(label.count - 4)])
    }

    /// A view of nothing.
    public static var none: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }

    /// Text for a reason: at most 24 characters, quoted, control bytes as `?`.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(96), as: UTF8.self)
        let shown = String(text.unicodeScalars.prefix(24).map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : Character($0) })
        return "'" + shown + (text.unicodeScalars.count > 24 || bytes.count > 96 ? "…" : "") + "'"
    }
}
