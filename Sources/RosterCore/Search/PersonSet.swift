/// A set of person numbers (a `PersonID`'s raw value) as one bit each: what
/// an org chart term (`under:X`, `depth>2`) becomes once the chart has
/// answered it, tested per person by a search at the cost of one load.
public struct PersonSet: Sendable, Equatable {
    /// 64 people a word, person `p` at bit `p % 64` of word `p / 64`.
    public private(set) var words: [UInt64]
    /// How many people are in the set.
    public private(set) var count = 0

    /// An empty set for people numbered `0..<capacity`.
    public init(capacity: Int) {
        words = [UInt64](repeating: 0, count: (max(0, capacity) + 63) / 64)
    }

    public mutating func insert(_ person: Int) {
        guard person >= 0, person / 64 < words.count else { return }
        let bit = UInt64(1) << UInt64(person % 64)
        if words[person / 64] & bit == 0 {
            words[person / 64] |= bit
            count += 1
        }
    }

    public func contains(_ person: Int) -> Bool {
        guard person >= 0, person / 64 < words.count else { return false }
        return words[person / 64] & (UInt64(1) << UInt64(person % 64)) != 0
    }

    /// The people in the set, in number order.
    public var members: [Int] {
        var members: [Int] = []
        members.reserveCapacity(count)
        for (index, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                members.append(index * 64 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return members
    }
}
