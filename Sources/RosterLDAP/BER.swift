/// The Basic Encoding Rules, as far as LDAP's controls use them: one-byte
/// tags, definite lengths, integers, booleans, enumerations, octet strings,
/// sequences and sets.
///
/// The controls Roster sends and reads (paging, sorting, virtual list
/// views, assertions, read entries, content synchronisation) are encoded
/// and decoded here in Swift rather than through `ber_printf`/`ber_scanf`,
/// whose variable arguments Swift cannot call, so each can be tested
/// byte for byte without a server.
enum BER {
    static let boolean: UInt8 = 0x01
    static let integer: UInt8 = 0x02
    static let octetString: UInt8 = 0x04
    static let enumerated: UInt8 = 0x0A
    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31

    /// A context-specific tag: `[number]`, primitive or constructed.
    static func context(_ number: UInt8, constructed: Bool = false) -> UInt8 {
        0x80 | (constructed ? 0x20 : 0) | number
    }

    /// Malformed encoding: a length past the end, a tag not expected.
    struct Malformed: Error, Equatable {
        let reason: String
    }
}

/// Builds one BER encoding, element by element.
struct BERWriter {
    private(set) var bytes: [UInt8] = []

    mutating func element(_ tag: UInt8, _ contents: some Collection<UInt8>) {
        bytes.append(tag)
        appendLength(contents.count)
        bytes.append(contentsOf: contents)
    }

    /// A constructed element (a sequence, a set, a tagged choice) whose
    /// contents `body` writes.
    mutating func constructed(_ tag: UInt8 = BER.sequence, _ body: (inout BERWriter) -> Void) {
        var inner = BERWriter()
        body(&inner)
        element(tag, inner.bytes)
    }

    mutating func integer(_ value: Int, tag: UInt8 = BER.integer) {
        element(tag, Self.twosComplement(value))
    }

    mutating func enumerated(_ value: Int) {
        integer(value, tag: BER.enumerated)
    }

    mutating func boolean(_ value: Bool, tag: UInt8 = BER.boolean) {
        element(tag, [value ? 0xFF : 0x00])
    }

    mutating func octets(_ value: some Collection<UInt8>, tag: UInt8 = BER.octetString) {
        element(tag, value)
    }

    mutating func string(_ value: String, tag: UInt8 = BER.octetString) {
        element(tag, Array(value.utf8))
    }

    private mutating func appendLength(_ length: Int) {
        if length < 0x80 {
            bytes.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        bytes.append(0x80 | UInt8(octets.count))
        bytes.append(contentsOf: octets)
    }

    /// The shortest two's-complement big-endian bytes of `value`.
    static func twosComplement(_ value: Int) -> [UInt8] {
        var octets = withUnsafeBytes(of: value.bigEndian, Array.init)
        while octets.count > 1,
              (octets[0] == 0x00 && octets[1] & 0x80 == 0) || (octets[0] == 0xFF && octets[1] & 0x80 != 0) {
            octets.removeFirst()
        }
        return octets
    }
}

/// Reads one BER encoding, element by element, never past its end.
struct BERReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: some Collection<UInt8>) {
        self.bytes = ArraySlice(bytes)
        position = self.bytes.startIndex
    }

    var isAtEnd: Bool { position >= bytes.endIndex }

    /// The tag of the next element, without reading it.
    var nextTag: UInt8? { isAtEnd ? nil : bytes[position] }

    /// The next element's tag and contents.
    mutating func element() throws(BER.Malformed) -> (tag: UInt8, contents: ArraySlice<UInt8>) {
        guard !isAtEnd else { throw BER.Malformed(reason: "ends early") }
        let tag = bytes[position]
        guard tag & 0x1F != 0x1F else { throw BER.Malformed(reason: "a long tag") }
        var index = position + 1
        guard index < bytes.endIndex else { throw BER.Malformed(reason: "no length") }
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count > 0, count <= 4, index + count <= bytes.endIndex else { throw BER.Malformed(reason: "a bad length") }
            length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
            index += count
        }
        guard length <= bytes.endIndex - index else { throw BER.Malformed(reason: "a length past the end") }
        position = index + length
        return (tag, bytes[index..<position])
    }

    /// The next element's contents, which must carry `tag`.
    mutating func contents(_ tag: UInt8) throws(BER.Malformed) -> ArraySlice<UInt8> {
        let (found, contents) = try element()
        guard found == tag else { throw BER.Malformed(reason: "tag \(found) where \(tag) was expected") }
        return contents
    }

    /// A reader over the contents of the next constructed element.
    mutating func constructed(_ tag: UInt8 = BER.sequence) throws(BER.Malformed) -> BERReader {
        BERReader(try contents(tag))
    }

    mutating func integer(tag: UInt8 = BER.integer) throws(BER.Malformed) -> Int {
        let octets = try contents(tag)
        guard !octets.isEmpty, octets.count <= 8 else { throw BER.Malformed(reason: "an integer of \(octets.count) bytes") }
        let negative = octets.first.map { $0 & 0x80 != 0 } ?? false
        return octets.reduce(negative ? -1 : 0) { $0 << 8 | Int($1) }
    }

    mutating func enumerated() throws(BER.Malformed) -> Int {
        try integer(tag: BER.enumerated)
    }

    mutating func boolean(tag: UInt8 = BER.boolean) throws(BER.Malformed) -> Bool {
        let octets = try contents(tag)
        guard octets.count == 1, let octet = octets.first else { throw BER.Malformed(reason: "a boolean of \(octets.count) bytes") }
        return octet != 0
    }

    mutating func octets(tag: UInt8 = BER.octetString) throws(BER.Malformed) -> [UInt8] {
        Array(try contents(tag))
    }

    mutating func string(tag: UInt8 = BER.octetString) throws(BER.Malformed) -> String {
        String(decoding: try contents(tag), as: UTF8.self)
    }

    /// Reads the next element only when it carries `tag`.
    mutating func optional<T>(_ tag: UInt8, _ read: (inout BERReader) throws(BER.Malformed) -> T) throws(BER.Malformed) -> T? {
        guard nextTag == tag else { return nil }
        return try read(&self)
    }
}
