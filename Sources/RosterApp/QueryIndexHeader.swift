import RosterStore

/// The header of a kept `QueryIndex`: what it was made from and a checksum
/// of the body, all of which must match for the body to be read.
///
///     "ROSTERQI"  magic
///     format version, byte-order mark, body length, body checksum
///     the data file's key (`FileKey`: 7 numbers)
///     Roster's version and the data file's path (length, bytes, padding)
struct QueryIndexHeader {
    static let magic = Array("ROSTERQI".utf8)
    /// Raised whenever `QueryIndex`'s layout changes.
    static let formatVersion: UInt64 = 2
    static let byteOrderMark: UInt64 = 0x0102_0304_0506_0708

    let key: FileKey
    let dataPath: String

    /// The words after the magic and before the body's length and checksum.
    private var identity: [UInt8] {
        var bytes: [UInt8] = []
        func word(_ value: UInt64) { withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) } }
        func text(_ value: String) {
            let utf8 = Array(value.utf8)
            word(UInt64(utf8.count))
            bytes += utf8 + [UInt8](repeating: 0, count: (8 - utf8.count % 8) % 8)
        }
        word(Self.formatVersion)
        word(Self.byteOrderMark)
        for value in key.values { word(UInt64(bitPattern: value)) }
        text(RosterCommand.version)
        text(dataPath)
        return bytes
    }

    /// The whole index file: header, then `body`.
    func bytes(around body: [UInt8]) -> [UInt8] {
        var bytes = Self.magic + identity
        withUnsafeBytes(of: UInt64(body.count)) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: body.withUnsafeBytes(Self.checksum)) { bytes.append(contentsOf: $0) }
        return bytes + body
    }

    /// The body of `file` when its header is this one and the checksum
    /// holds; nil otherwise.
    func body(of file: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let expected = Self.magic + identity
        let headerCount = expected.count + 16
        guard file.count >= headerCount, file.prefix(expected.count).elementsEqual(expected) else { return nil }
        let length = file.loadUnaligned(fromByteOffset: expected.count, as: UInt64.self)
        let checksum = file.loadUnaligned(fromByteOffset: expected.count + 8, as: UInt64.self)
        guard length == UInt64(file.count - headerCount) else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: file[headerCount...])
        return Self.checksum(body) == checksum ? body : nil
    }

    /// A 64-bit checksum of `bytes`: four lanes of multiply and rotate over
    /// eight-byte words (a few milliseconds for tens of megabytes), then the tail.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x9E37_79B1_85EB_CA87
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
        @inline(__always) func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = (lane ^ word) &* prime
            return mixed << 31 | mixed >> 33
        }
        var offset = 0
        while offset + 32 <= bytes.count {
            lanes.0 = mix(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lanes.1 = mix(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lanes.2 = mix(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lanes.3 = mix(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = mix(mix(mix(mix(UInt64(bytes.count), lanes.0), lanes.1), lanes.2), lanes.3)
        while offset < bytes.count {
            hash = mix(hash, UInt64(bytes[offset]))
            offset += 1
        }
        return hash
    }
}
