/// How many single edits turn one word into another: a character added,
/// dropped or changed, or two neighbours swapped (the optimal string
/// alignment distance). For "did you mean" on short names.
public enum EditDistance {
    public static func between(_ left: [Character], _ right: [Character]) -> Int {
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        // Three rows: two back (for a swap), the last, and this one.
        var twoBack = [Int](repeating: 0, count: right.count + 1)
        var last = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = min(last[j] + 1, current[j - 1] + 1, last[j - 1] + cost)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    current[j] = min(current[j], twoBack[j - 2] + 1)
                }
            }
            (twoBack, last, current) = (last, current, twoBack)
        }
        return last[right.count]
    }

    /// The name a mistyped `word` most likely meant ("did you mean"): the
    /// nearest of `names` one edit away, two for names longer than four
    /// letters; nil when none is that near.
    static func nearest(to word: String, among names: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = between(Array(word), Array(name))
            if distance <= (name.count > 4 ? 2 : 1), distance < best?.distance ?? .max { best = (name, distance) }
        }
        return best?.name
    }
}

extension EditDistance {
    /// The name `typed` most likely meant ("agee" → "age", "phnoe" →
    /// "phone"): the nearest of `candidates` one edit away, two for names
    /// longer than four letters, and fewer edits than half the letters
    /// typed ("shoe" is no "phone"); nil when none is that near. Each
    /// candidate is a list of spellings answering to its first.
    public static func nearest(to typed: String, among candidates: [[String]]) -> String? {
        let typed = Array(typed.lowercased())
        var best: (name: String, distance: Int)?
        for names in candidates {
            for candidate in names {
                let distance = between(typed, Array(candidate.lowercased()))
                guard distance * 2 < typed.count else { continue }
                if distance <= (candidate.count > 4 ? 2 : 1), distance < best?.distance ?? .max { best = (names[0], distance) }
            }
        }
        return best?.name
    }
}
