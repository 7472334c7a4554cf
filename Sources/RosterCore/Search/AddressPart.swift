/// The parts of an address ("303 Vermont Street, Concho, Arizona, 1707"):
/// the one rule for what `street:`, `city:`, `state:` and `zip:` search, the
/// city column shows, `F` counts by and a sort reads, in every source.
/// PostgreSQL's filter spells the same rule in SQL (`SQLSearchFilter`),
/// held to this one by the repository contract.
///
/// From the end: the last comma-separated part is the zip, then the state,
/// then the city, and everything before is the street; with fewer than
/// four parts they fill from the front (street, city, state). Each part is
/// trimmed of spaces; a part the address lacks is empty.
public enum AddressPart {
    /// Where part `part` (street 0, city, state, zip 3) lies in `address`,
    /// found without allocating (the search loop asks it per person).
    @inlinable
    public static func range(_ part: Int, of address: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        // The first two commas and the last three are all the rule needs.
        var first = -1, second = -1, count = 0
        var last = (-1, -1, -1)  // third-last, second-last, last
        for index in address.indices where address[index] == UInt8(ascii: ",") {
            if count == 0 { first = index } else if count == 1 { second = index }
            last = (last.1, last.2, index)
            count += 1
        }
        let end = address.count
        var (lower, upper) = (end, end)
        switch (min(count, 3), part) {
        case (0, 0): (lower, upper) = (0, end)
        case (1, 0), (2, 0): (lower, upper) = (0, first)
        case (1, 1): (lower, upper) = (first + 1, end)
        case (2, 1): (lower, upper) = (first + 1, second)
        case (2, 2): (lower, upper) = (second + 1, end)
        case (3, 0): (lower, upper) = (0, last.0)
        case (3, 1): (lower, upper) = (last.0 + 1, last.1)
        case (3, 2): (lower, upper) = (last.1 + 1, last.2)
        case (3, 3): (lower, upper) = (last.2 + 1, end)
        default: break
        }
        while lower < upper, address[lower] == UInt8(ascii: " ") { lower += 1 }
        while upper > lower, address[upper - 1] == UInt8(ascii: " ") { upper -= 1 }
        return lower..<upper
    }

    /// Part `part` of `address` as text: one pass, one string (a row's city,
    /// a sort's state), never all four parts to keep one.
    public static func text(_ part: Int, of address: String) -> String {
        var address = address
        return address.withUTF8 { String(decoding: bytes(part, of: $0), as: UTF8.self) }
    }

    /// The bytes of part `part` of `address`, in place.
    @inlinable
    public static func bytes(_ part: Int, of address: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: address[range(part, of: address)])
    }
}
