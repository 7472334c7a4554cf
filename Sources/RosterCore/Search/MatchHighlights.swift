/// Where a query's terms match the text a column shows, for highlighting:
/// the terms that could have matched that field (a bare term in any field
/// it searches, `email:org` in the email only; never an excluded one),
/// folded one character at a time as the search folds, so `é` matches `e`
/// in place. A phone also shows a match on its digits alone (`5759`
/// in `+1 (575) 919-…`), across the punctuation between them.
extension SearchQuery {
    /// Character ranges of `text`, which shows `field` (`.name` for the
    /// name), that the terms match; in the order found, term by term.
    public func matchRanges(in text: String, field: TextScope) -> [Range<Int>] {
        var needles: [[UInt8]] = []
        var digitNeedles: [[UInt8]] = []
        for term in terms where !term.isNegated {
            switch term.test {
            case .text(let scope, let needle, _, let digits) where Self.highlights(scope, in: field):
                needles.append(needle)
                if field == .phone, let digits { digitNeedles.append(digits) }
            case .exact(let scope, let needle) where !needle.isEmpty && Self.highlights(scope, in: field):
                needles.append(needle)
            default: continue
            }
        }
        guard !needles.isEmpty || !digitNeedles.isEmpty else { return [] }
        var folded: [UInt8] = []
        var characterOfByte: [Int] = []
        var digits: [UInt8] = []
        var characterOfDigit: [Int] = []
        for (index, character) in text.enumerated() {
            let bytes = TextFolding.foldedBytes(String(character))
            folded += bytes
            characterOfByte += Array(repeating: index, count: bytes.count)
            if let ascii = character.asciiValue, ascii >= UInt8(ascii: "0"), ascii <= UInt8(ascii: "9") {
                digits.append(ascii)
                characterOfDigit.append(index)
            }
        }
        return Self.ranges(of: needles, in: folded, characters: characterOfByte)
            + Self.ranges(of: digitNeedles, in: digits, characters: characterOfDigit)
    }

    /// Whether a term in `scope` matched the field a column shows: the
    /// same field, a part of the name for the name, the whole address for
    /// one of its parts, and a bare term for every field it searches.
    static func highlights(_ scope: TextScope, in field: TextScope) -> Bool {
        switch scope {
        case .anywhere: return TextScope.bareTermScopes.contains(field) || TextScope.addressParts.contains(field)
        case .firstName, .lastName: return field == .name || field == scope
        case .address: return field == .address || TextScope.addressParts.contains(field)
        default: return scope == field
        }
    }

    /// Each needle's non-overlapping occurrences in `haystack`, as ranges of
    /// the characters its bytes came from.
    private static func ranges(of needles: [[UInt8]], in haystack: [UInt8], characters: [Int]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for needle in needles where !needle.isEmpty {
            var start = 0
            while start + needle.count <= haystack.count {
                if haystack[start..<(start + needle.count)].elementsEqual(needle) {
                    ranges.append(characters[start]..<(characters[start + needle.count - 1] + 1))
                    start += needle.count
                } else {
                    start += 1
                }
            }
        }
        return ranges
    }
}
