/// `o` and `O`: every order the list can take, one letter each, as mutt's
/// `o` asks `sort by (d)ate/(f)rom/…`: a letter sorts by that column
/// (`O b`: the top balances first). Made from the one list of sort keys
/// (`SortOrder.Key.allCases`), so a column the list gains is offered too.
public enum SortMenu {
    public struct Entry: Equatable, Sendable {
        public let key: SortOrder.Key
        public let letter: Character
        /// "balance", "last name": as the status bar names the order.
        public let label: String
    }

    public static let entries = lettered(SortOrder.Key.allCases)

    /// The order `letter` picks, nil if none.
    public static func key(for letter: Character) -> SortOrder.Key? {
        entries.first { $0.letter == letter }?.key
    }

    /// Each key's letter, from its label: its first letter where no key
    /// before took it (`b` balance), else the first letter of a later word,
    /// else its first letter not taken (`t` for active, after age's `a`
    /// and company's `c`). Keys are taken in order, so the first keys
    /// (the names, the figures) get the letters people guess.
    static func lettered(_ keys: [SortOrder.Key]) -> [Entry] {
        var taken = Set<Character>()
        var letters = [Character?](repeating: nil, count: keys.count)
        let labels = keys.map(\.label)
        let passes: [(String) -> [Character]] = [
            { $0.first.map { [$0] } ?? [] },
            { $0.split(separator: " ").dropFirst().compactMap(\.first) },
            { Array($0) },
        ]
        for candidates in passes {
            for index in keys.indices where letters[index] == nil {
                let letter = candidates(labels[index]).first { $0.isLetter && $0.isASCII && !taken.contains($0) }
                if let letter {
                    letters[index] = letter
                    taken.insert(letter)
                }
            }
        }
        return keys.indices.compactMap { index in letters[index].map { Entry(key: keys[index], letter: $0, label: labels[index]) } }
    }
}
