/// What the user typed, folded once for matching.
public struct SearchQuery: Sendable, Equatable {
    public let text: String
    /// Case- and accent-folded bytes (`José` → `jose`).
    public let folded: [UInt8]

    public init(_ text: String) {
        self.text = text
        folded = TextFolding.foldedBytes(text)
    }

    public var isEmpty: Bool { folded.isEmpty }

    /// Whether every match of `self` is also a match of `earlier`, so that
    /// searching only `earlier`'s matches is enough ("jos" then "jose").
    public func narrows(_ earlier: SearchQuery) -> Bool {
        !earlier.isEmpty && folded.count >= earlier.folded.count
            && folded.withUnsafeBufferPointer { mine in earlier.folded.withUnsafeBufferPointer { Self.contains(mine, $0) } }
    }

    /// Character ranges of `text` that match this query, for highlighting
    /// (folded one character at a time, so `é` matches `e` in place).
    public func matchRanges(in text: String) -> [Range<Int>] {
        guard !isEmpty else { return [] }
        let needle = self.folded
        var folded: [UInt8] = []
        var characterOfByte: [Int] = []
        for (index, character) in text.enumerated() {
            let bytes = TextFolding.foldedBytes(String(character))
            folded += bytes
            characterOfByte += Array(repeating: index, count: bytes.count)
        }
        var ranges: [Range<Int>] = []
        var start = 0
        while start + needle.count <= folded.count {
            if folded[start..<(start + needle.count)].elementsEqual(needle) {
                let lower = characterOfByte[start]
                let upper = characterOfByte[start + needle.count - 1] + 1
                ranges.append(lower..<upper)
                start += needle.count
            } else {
                start += 1
            }
        }
        return ranges
    }

    /// Whether `haystack` contains `needle`, byte for byte (the search's
    /// inner loop: inlinable so that it stays fast across modules).
    @inlinable
    public static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count > 0 else { return true }
        guard haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var start = 0
        while start <= last {
            if haystack[start] == needle[0] {
                var offset = 1
                while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
