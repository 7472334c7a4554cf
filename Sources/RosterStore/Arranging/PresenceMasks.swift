import Dispatch
#if !ROSTER_FUZZ
import RosterCore
#endif

/// Per person, 64 bits saying which bytes its searchable text holds (the
/// folded "first last", email, phone and address, as a plain term reads
/// them): a search tests a term's bytes against them before it reads any
/// text.
///
/// Letters, digits and the commonest punctuation have a bit each, so a
/// one-character term — the first keystroke, which matches most people and
/// used to read everyone's text — is answered from the bits alone. Other
/// bytes share bits, which then only rule people out. Built on both cores
/// the first time a search needs them (8 bytes a person), not while
/// loading, so the first frame does not wait for them.
enum PresenceMasks {
    /// Set when the raw email, phone or address has a byte beyond ASCII:
    /// only then must a search fold them (`LatinFolding`) to compare.
    static let contactHasNonASCII: UInt64 = 1 << 63

    private static let punctuation = Array(" .@-()+,'_".utf8)

    /// The bit of each byte value (an ASCII capital shares its small
    /// letter's); bytes without a bit of their own share one.
    static let bitOfByte: [UInt64] = (0..<256).map { value in
        let byte = UInt8(value)
        let lowered = TextFolding.lowercasedASCII(byte)
        if lowered &- UInt8(ascii: "a") < 26 { return 1 << UInt64(lowered - UInt8(ascii: "a")) }
        if byte &- UInt8(ascii: "0") < 10 { return 1 << UInt64(26 + byte - UInt8(ascii: "0")) }
        if let index = punctuation.firstIndex(of: byte) { return 1 << UInt64(36 + index) }
        if byte < 0x80 { return 1 << UInt64(46 + byte % 8) }
        return 1 << UInt64(54 + byte % 9)
    }

    /// Whether folded `byte` has a bit to itself: a set bit then means the
    /// byte is there, not merely that it may be.
    static func hasOwnBit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || punctuation.contains(byte)
    }

    /// The bits of a term's folded bytes.
    static func mask(of needle: [UInt8]) -> UInt64 {
        needle.reduce(0) { $0 | bitOfByte[Int($1)] }
    }

    /// One array per segment of the store, each built on its own thread.
    static func build(_ store: PeopleStore) -> [ContiguousArray<UInt64>] {
        let segments = store.segments
        return Parallel.map(segments.count) { build(segments[$0]) }
    }

    static func build(_ segment: PeopleSegment) -> ContiguousArray<UInt64> {
        var masks = ContiguousArray<UInt64>(repeating: 0, count: segment.count)
        var folded: [UInt8] = []
        let fieldCount = PeopleSegment.textFieldCount
        let contactFirst = PeopleSearch.ContactRun.first, contactLast = PeopleSearch.ContactRun.last
        let space = bitOfByte[Int(UInt8(ascii: " "))]
        bitOfByte.withUnsafeBufferPointer { bits in
            segment.withBuffers { buffers in
                masks.withUnsafeMutableBufferPointer { masks in
                    let arena = buffers.arena, keys = buffers.nameKeys
                    let recordStart = buffers.recordStart, nameKeyEnds = buffers.nameKeyEnds, fieldEnds = buffers.fieldEnds
                    var keyStart = buffers.nameKeyStart
                    for local in 0..<segment.count {
                        // "first last": the key's bytes and a space (the key's 0 between
                        // the parts only sets a shared bit: harmless).
                        var mask = space
                        for index in keyStart..<nameKeyEnds[local] { mask |= bits[Int(keys[index])] }
                        keyStart = nameKeyEnds[local]
                        let record = recordStart[local]
                        let slot = local * fieldCount
                        let contactStart = record + Int(fieldEnds[slot + contactFirst - 1])
                        let contactEnd = record + Int(fieldEnds[slot + contactLast])
                        var high: UInt8 = 0
                        for index in contactStart..<contactEnd {
                            let byte = arena[index]
                            mask |= bits[Int(byte)]
                            high |= byte
                        }
                        if high >= 0x80 {
                            // An accented letter also counts as its base letter, as the
                            // search folds each field (`LatinFolding`, two bytes at a time).
                            mask |= contactHasNonASCII
                            var start = contactStart
                            for field in contactFirst...contactLast {
                                let end = record + Int(fieldEnds[slot + field])
                                var index = start
                                while index + 1 < end {
                                    if arena[index] &- 0xC3 < 3, arena[index + 1] & 0xC0 == 0x80 {
                                        LatinFolding.fold(UnsafeBufferPointer(rebasing: arena[index..<(index + 2)]), into: &folded)
                                        for byte in folded { mask |= bits[Int(byte)] }
                                        index += 2
                                    } else {
                                        index += 1
                                    }
                                }
                                start = end
                            }
                        }
                        masks[local] = mask
                    }
                }
            }
        }
        return masks
    }
}
