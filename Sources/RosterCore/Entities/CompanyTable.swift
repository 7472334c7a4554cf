import Foundation

/// A company name as one loader thread saw it first, with its folded key.
struct CompanyName: Sendable {
    var display: String
    var key: [UInt8]
}

/// Numbers companies by folded name: "Comstar", "COMSTAR" and " comstar "
/// are one company, shown with the spelling seen first.
///
/// The hot path (a million lookups while loading) hashes the raw bytes into
/// an open-addressing table, so a spelling already seen costs no allocation;
/// only a new spelling is folded (`TextFolding`) and looked up by key.
struct CompanyTable {
    private let spellingBytes = ByteArena()
    private var spellings: [(start: Int, count: Int, hash: UInt64, id: UInt32)] = []
    private var slots = ContiguousArray<Int32>(repeating: -1, count: 64)
    private var idsByKey: [[UInt8]: UInt32] = [:]
    private(set) var names: [CompanyName] = []
    private(set) var headcounts: [Int] = []

    /// The id of the company spelled `bytes`, numbering it if new.
    mutating func id(forSpelling bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { break }
            let spelling = spellings[entry]
            if spelling.hash == hash, spelling.count == bytes.count,
               bytes.count == 0 || memcmp(spellingBytes.bytes(spelling.start..<spelling.start + spelling.count).baseAddress!, bytes.baseAddress!, bytes.count) == 0 {
                return spelling.id
            }
            slot = (slot + 1) & mask
        }
        let id = id(for: CompanyName(bytes: bytes))
        slots[slot] = Int32(spellings.count)
        spellings.append((spellingBytes.count, bytes.count, hash, id))
        spellingBytes.append(contentsOf: bytes)
        if spellings.count * 2 > slots.count { grow() }
        return id
    }

    /// The id for a company already folded (used when merging segments).
    mutating func id(for name: CompanyName) -> UInt32 {
        if let known = idsByKey[name.key] { return known }
        let id = UInt32(names.count)
        idsByKey[name.key] = id
        names.append(name)
        headcounts.append(0)
        return id
    }

    mutating func addHeadcount(_ people: Int, to id: UInt32) {
        headcounts[Int(id)] += people
    }

    func companies() -> [Company] {
        zip(names, headcounts).map { Company(name: $0.display, key: $0.key, headcount: $1) }
    }

    private mutating func grow() {
        slots = ContiguousArray(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (entry, spelling) in spellings.enumerated() {
            var slot = Int(truncatingIfNeeded: spelling.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }

    /// Multiply-xorshift over eight bytes at a time: short keys, well spread.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        if let base = bytes.baseAddress {
            while offset + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 32
                offset += 8
            }
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        hash = (hash ^ tail) &* 0x9E37_79B9_7F4A_7C15
        return hash ^ (hash >> 29)
    }
}

extension CompanyName {
    init(bytes: UnsafeBufferPointer<UInt8>) {
        let display = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        self.init(display: display, key: TextFolding.foldedBytes(display))
    }
}

/// Case- and accent-insensitive keys: `José` and `JOSE` fold to `jose`.
public enum TextFolding {
    /// Folds `text` to the bytes it sorts and matches by.
    public static func foldedBytes(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.map(lowercasedASCII)
        }
        return Array(text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).utf8)
    }

    /// Appends the folded form of UTF-8 `bytes`; ASCII never leaves the fast
    /// path, and other text is folded once per distinct spelling (`cache`).
    static func appendFolded(_ bytes: UnsafeBufferPointer<UInt8>, to output: ByteArena, cache: inout [[UInt8]: [UInt8]]) {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            for byte in bytes { output.append(lowercasedASCII(byte)) }
            return
        }
        let spelling = Array(bytes)
        let folded: [UInt8]
        if let known = cache[spelling] {
            folded = known
        } else {
            folded = foldedBytes(String(decoding: bytes, as: UTF8.self))
            if cache.count < 100_000 { cache[spelling] = folded }
        }
        folded.withUnsafeBufferPointer { output.append(contentsOf: $0) }
    }

    @inline(__always)
    static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
