/// Status messages that give their reason first and name their target
/// last, shortened from its middle when the line is narrow: "could not be
/// read again: connection lost; the list shows it as it was —
/// postgres://ann@…/staff". A message's reason is never what is cut to
/// make room for a long file name or connection.
public enum MessageText {
    /// `message` with a leading "TARGET: " (or "TARGET, line 3: ") moved to
    /// its end, after " — ": "not saved: people.json: no record has _id 7"
    /// reads "not saved: no record has _id 7 — people.json". A message that
    /// does not name `target` so is returned as it is.
    public static func reasonFirst(_ message: String, target: String) -> String {
        guard !target.isEmpty, let range = message.range(of: target) else { return message }
        let after = message[range.upperBound...]
        guard after.hasPrefix(": ") || after.hasPrefix(", ") else { return message }
        return String(message[..<range.lowerBound]) + after.dropFirst(2) + " — " + target
    }

    /// What `message` says after a leading "TARGET: ": a source's error
    /// ("staff: connection lost") as the reason inside another message.
    public static func reason(_ message: String, target: String) -> String {
        message.hasPrefix(target + ": ") ? String(message.dropFirst(target.count + 2)) : message
    }

    /// The first of `candidates` that `message` names, to shorten first.
    public static func target(in message: String, among candidates: [String?]) -> String? {
        candidates.compactMap { $0 }.first { !$0.isEmpty && message.contains($0) }
    }

    /// `target` (a path, a connection) in at most `columns` cells, shortened
    /// from its middle: as much of its start as fits, `…`, then its telling
    /// end — a path's last part, a connection's database without the
    /// settings after `?` (`/home/ann/…/people.json`, `postgres://ann@…/staff`).
    /// Narrower than that end, the end alone (`…/staff`, `…aff`, `…`).
    public static func shortened(_ target: String, columns: Int) -> String {
        let clean = DisplayText.sanitized(target)
        guard columns > 0 else { return "" }
        guard DisplayText.width(clean) > columns else { return clean }
        let characters = Array(clean)
        // A connection's settings (?host=…) come after its database: its end is before them.
        let endOfName = clean.contains("://") ? characters.firstIndex(of: "?") ?? characters.count : characters.count
        let tailStart = characters[..<endOfName].lastIndex(of: "/").flatMap { $0 > 0 && characters[$0 - 1] != "/" ? $0 : nil }
            ?? max(0, endOfName - max(1, (columns - 1) / 2))
        let tail = String(characters[tailStart..<endOfName])
        let head = String(characters[..<tailStart])
        if DisplayText.width(head + tail) < columns { return DisplayText.fit(clean, columns: columns) }
        let headRoom = columns - 1 - DisplayText.width(tail)
        guard headRoom > 0 else { return String(DisplayText.ellipsis) + suffix(of: tail, columns: columns - 1) }
        return prefix(of: head, columns: headRoom) + String(DisplayText.ellipsis) + tail
    }

    /// `message` fitted to `columns`: `target` inside it shortened first
    /// (from its middle), then, if the rest is still too long, cut at its end.
    public static func fit(_ message: String, columns: Int, target: String?) -> String {
        let clean = DisplayText.sanitized(message)
        guard let target, DisplayText.width(clean) > columns, let range = clean.range(of: DisplayText.sanitized(target)) else {
            return DisplayText.fit(message, columns: columns)
        }
        let targetWidth = DisplayText.width(String(clean[range]))
        let room = max(1, targetWidth - (DisplayText.width(clean) - columns))
        return DisplayText.fit(clean.replacingCharacters(in: range, with: shortened(String(clean[range]), columns: room)), columns: columns)
    }

    /// Whether `message` fits `columns` with `target` shortened to no less
    /// than its telling end (`…/staff`): the reason whole.
    public static func fits(_ message: String, columns: Int, target: String?) -> Bool {
        let clean = DisplayText.sanitized(message)
        guard let target, let range = clean.range(of: DisplayText.sanitized(target)) else { return DisplayText.width(clean) <= columns }
        let targetWidth = DisplayText.width(String(clean[range]))
        let least = min(targetWidth, DisplayText.width(shortened(String(clean[range]), columns: 1 + endWidth(String(clean[range])))))
        return DisplayText.width(clean) - targetWidth + least <= columns
    }

    /// Cells of a target's telling end, as `shortened` keeps it.
    private static func endWidth(_ target: String) -> Int {
        let characters = Array(target)
        let endOfName = target.contains("://") ? characters.firstIndex(of: "?") ?? characters.count : characters.count
        guard let slash = characters[..<endOfName].lastIndex(of: "/"), slash > 0 else { return min(DisplayText.width(target), 12) }
        return DisplayText.width(String(characters[slash..<endOfName]))
    }

    private static func prefix(of text: String, columns: Int) -> String {
        var result = "", used = 0
        for character in text {
            let width = DisplayText.width(of: character)
            guard used + width <= columns else { break }
            result.append(character)
            used += width
        }
        return result
    }

    private static func suffix(of text: String, columns: Int) -> String {
        var result = "", used = 0
        for character in text.reversed() {
            let width = DisplayText.width(of: character)
            guard used + width <= columns else { break }
            result.insert(character, at: result.startIndex)
            used += width
        }
        return result
    }
}
