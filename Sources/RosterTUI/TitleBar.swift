import RosterCore

extension Screen {
    /// The top bar: " Roster — SOURCE" and what follows it (a breadcrumb
    /// "› COMGY", ": counts of city") on the left, `right` (the counts) on
    /// the right; `TitleBar.left` says what gives way first.
    public func putTitleBar(source: String, then rest: String = "", right: String, row: Int = 0) {
        let rightText = right + " "
        let room = max(size.columns / 2, size.columns - DisplayText.width(DisplayText.sanitized(rightText)) - 1)
        putBar(left: TitleBar.left(source: source, then: rest, columns: room), right: rightText, row: row)
    }
}

/// How a title bar's left side fits its room.
enum TitleBar {
    /// The cells of a target a title keeps ("…ann@db/staff", "…/people.json").
    static let keptOfTarget = 16

    /// " Roster — SOURCE REST" in `columns`. When it does not fit, the
    /// source's target gives way first, from its start
    /// (`offline as of 14:02 — …ann@db/staff`, `…/people.json`), down to its
    /// last `keptOfTarget` cells, so that the source's state, the end of its
    /// name and which screen this is stay in view; only then is the rest
    /// cut at its end.
    static func left(source: String, then rest: String, columns: Int) -> String {
        let full = " Roster — " + source + rest
        let fullWidth = DisplayText.width(DisplayText.sanitized(full))
        let target = target(of: source)
        let spare = max(0, DisplayText.width(DisplayText.sanitized(target)) - keptOfTarget)
        let excess = fullWidth - columns
        let shortened = excess <= 0 || spare == 0 ? full
            : DisplayText.fit(full, columns: fullWidth - min(excess, spare), shorteningFirst: target)
        return DisplayText.fit(shortened, columns: columns)
    }

    /// The part of a source's name that may be shortened: after its last
    /// " — " (`connection lost, cached rows only — TARGET`), else all of it
    /// (a file's path).
    static func target(of source: String) -> String {
        guard let separator = source.range(of: " — ", options: .backwards) else { return source }
        return String(source[separator.upperBound...])
    }
}
