import RosterCore

extension Screen {
    /// The top bar: " Roster — SOURCE" and what follows it (a breadcrumb
    /// "› COMGY", ": counts by city") on the left, `right` (the figures,
    /// "400 people · 34 companies") on the right; `TitleBar.layout` says
    /// what gives way first.
    public func putTitleBar(source: String, then rest: String = "", right: String, row: Int = 0) {
        let title = TitleBar.layout(source: source, then: rest, figures: right, columns: size.columns)
        putBar(left: title.left, right: title.right, row: row, leftWins: true)
    }
}

/// One rule for every title: the source (its state first, then its
/// target), then the screen and its value, then the figures. When it does
/// not fit, these give way in turn, never mid-word while a whole part can
/// go instead:
/// 1. the target, from its start, at a path or word boundary, down to its
///    last part (`…/people.json`, `…/staff`), and a long last part down to
///    its last `keptOfTarget` cells (the sample: `sample (read-only)`);
/// 2. the figures, a whole piece at a time from their end, down to the
///    first (the target then takes back what room they leave);
/// 3. the app's name (`Roster — `), then the first figure;
/// 4. the rest of the target (`…` for a file, nothing after a state);
/// 5. the screen's name, at a word boundary; the state (the reason and the
///    way back, `connection lost, r reconnects`) stays to the last.
enum TitleBar {
    static let figureSeparator = " · "
    /// The cells of a long last part a target keeps before the figures give way.
    static let keptOfTarget = 16
    static let appName = " Roster — "

    /// The left side and the right side (with its closing space) for `columns`.
    static func layout(source: String, then rest: String, figures: String, columns: Int) -> (left: String, right: String) {
        let (state, target) = split(source)
        var pieces = figures.components(separatedBy: figureSeparator).filter { !$0.isEmpty }
        var name = appName
        func right() -> String { pieces.isEmpty ? "" : pieces.joined(separator: figureSeparator) + " " }
        func left(_ shown: String?) -> String {
            guard let shown else { return name + (state.hasSuffix(separator) ? String(state.dropLast(separator.count)) : state) + rest }
            return name + state + shown + rest
        }
        func fits(_ shown: String?) -> Bool { width(left(shown)) + (pieces.isEmpty ? 0 : 1 + width(right())) <= columns }
        let shortenings = shortenings(of: target)
        // The longest spelling of the target that fits, if any does.
        func fittingTarget() -> String? { shortenings.first(where: fits) }

        if let shown = fittingTarget() { return (left(shown), right()) }
        while pieces.count > 1 {
            pieces.removeLast()
            if let shown = fittingTarget() { return (left(shown), right()) }
        }
        name = " "
        if let shown = fittingTarget() { return (left(shown), right()) }
        pieces.removeAll()
        if let shown = fittingTarget() { return (left(shown), right()) }
        return (fitAtWord(left(state.isEmpty ? String(DisplayText.ellipsis) : nil), columns: columns), "")
    }

    static let separator = " — "

    /// The spellings of `target`, longest first. A path or a connection
    /// keeps its end (`…/people.json`, `…/staff`): a long last part gives
    /// way from its start too, down to its last `keptOfTarget` cells. The
    /// sample keeps its start, the word that says what it is.
    static func shortenings(of target: String) -> [String] {
        if target == DirectorySource.sampleTitle { return [target, DirectorySource.sampleShortTitle] }
        let tails = targetTails(target)
        let lastPart = Array(tails.last ?? target)
        let cut = lastPart.count > keptOfTarget ? (keptOfTarget..<lastPart.count).reversed().map { String(lastPart.suffix($0)) } : []
        return [target] + (tails + cut).map { String(DisplayText.ellipsis) + $0 }
    }

    /// A source's state ("connection lost, r reconnects — ", with its
    /// separator) and its target (after its last " — "; all of a file's path).
    static func split(_ source: String) -> (state: String, target: String) {
        guard let range = source.range(of: separator, options: .backwards) else { return ("", source) }
        return (String(source[..<range.upperBound]), String(source[range.upperBound...]))
    }

    /// The ends of `target` from longest to shortest, each starting after a
    /// boundary (`/`, `@`, `?`, `&`, a blank), down to its last
    /// part: what may stand after an ellipsis.
    static func targetTails(_ target: String) -> [String] {
        let boundaries: Set<Character> = ["/", "@", "?", "&", " "]
        let characters = Array(target)
        var tails: [String] = []
        for (index, character) in characters.enumerated() where boundaries.contains(character) && index + 1 < characters.count {
            if character == "/", characters[index + 1] == "/" { continue }
            // A path keeps its slash ("…/people.json"); "://" does not.
            let keepsSlash = character == "/" && (index == 0 || characters[index - 1] != "/")
            tails.append(String(characters[(keepsSlash ? index : index + 1)...]))
        }
        return tails
    }

    /// `text` in `columns`, cut at its last blank that leaves room for the
    /// ellipsis, else between characters.
    static func fitAtWord(_ text: String, columns: Int) -> String {
        guard width(text) > columns else { return text }
        let cut = DisplayText.fit(text, columns: columns)
        let body = cut.dropLast()
        guard let blank = body.lastIndex(of: " "), body.distance(from: body.startIndex, to: blank) > columns / 2 else { return cut }
        var kept = String(body[..<blank])
        while kept.hasSuffix(" ") || kept.hasSuffix(":") || kept.hasSuffix(",") || kept.hasSuffix("—") || kept.hasSuffix("›") {
            kept.removeLast()
        }
        return kept + String(DisplayText.ellipsis)
    }

    private static func width(_ text: String) -> Int {
        DisplayText.width(DisplayText.sanitized(text))
    }
}
