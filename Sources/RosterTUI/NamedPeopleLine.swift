import RosterCore

/// A field that names people (a chain of managers) laid out on one line:
/// the names with " › " between, then a note. When they do not all fit,
/// names nearest the start are kept, then the last one (the top of the
/// chain) and the one under the cursor; the rest become one "…". A note too
/// long for the rest is cut at its end (`⚠ manager ambiguous: "Ann…`).
struct NamedPeopleLine: Equatable {
    enum Segment: Equatable {
        /// The name of `people[index]`, cut to fit when it must.
        case person(index: Int, text: String)
        case separator
        case elided
        /// The note drawn after the people.
        case after(String)
    }

    static let separator = " › "
    static let elision = "…"
    let segments: [Segment]

    /// `people` (and `after`) in `columns` cells, keeping `selected` in view.
    init(people: [String], after: String?, selected: Int?, columns: Int) {
        let names = people.map(DisplayText.sanitized)
        // The names that must stay are placed beside the note at its shortest: a long
        // note is cut at its end rather than cost the top of the chain.
        let shortest = after.map(Self.shortest)
        var kept = Set<Int>()
        // Always kept when it fits: the one under the cursor, then the direct manager and the top.
        for index in [selected, 0, names.count - 1].compactMap({ $0 }) where names.indices.contains(index) {
            let trial = Self.segments(names, kept: kept.union([index]), after: shortest)
            if kept.isEmpty || Self.width(trial) <= columns { kept.insert(index) }
        }
        var segments = Self.segments(names, kept: kept, after: after)
        for index in names.indices where !kept.contains(index) {
            let trial = Self.segments(names, kept: kept.union([index]), after: after)
            guard Self.width(trial) <= columns else { break }
            kept.insert(index)
            segments = trial
        }
        if Self.width(segments) > columns, case .after(let note) = segments.last {
            let names = Array(segments.dropLast(2))
            // Cut at its end while it keeps its reason; else the note goes before a name is cut.
            if Self.width(names) + DisplayText.width(Self.separator + Self.shortest(note)) > columns { segments = names }
        }
        self.segments = Self.cut(segments, to: columns)
    }

    /// The least of a note worth drawing: its reason, the words before a
    /// colon, and a "…" (`⚠ manager ambiguous…`); a note without a colon whole.
    static func shortest(_ note: String) -> String {
        guard let colon = note.firstIndex(of: ":") else { return note }
        return String(note[..<colon]) + elision
    }

    /// The names in `kept` in order, a "…" for each run left out, then `after`.
    private static func segments(_ names: [String], kept: Set<Int>, after: String?) -> [Segment] {
        var segments: [Segment] = []
        var inElision = false
        for (index, name) in names.enumerated() {
            if kept.contains(index) {
                if !segments.isEmpty { segments.append(.separator) }
                segments.append(.person(index: index, text: name))
                inElision = false
            } else if !inElision {
                if !segments.isEmpty { segments.append(.separator) }
                segments.append(.elided)
                inElision = true
            }
        }
        if let after {
            if !segments.isEmpty { segments.append(.separator) }
            segments.append(.after(after))
        }
        return segments
    }

    /// Cuts the last segments' text so the whole is at most `columns` cells.
    private static func cut(_ segments: [Segment], to columns: Int) -> [Segment] {
        var room = columns
        var fitted: [Segment] = []
        for segment in segments {
            guard room > 0 else { break }
            let text = DisplayText.fit(segment.text, columns: room)
            room -= DisplayText.width(text)
            switch segment {
            case .person(let index, _): fitted.append(.person(index: index, text: text))
            case .after: fitted.append(.after(text))
            case .separator, .elided:
                guard text == segment.text else { return fitted }  // a mark is whole or not drawn
                fitted.append(segment)
            }
        }
        return fitted
    }

    private static func width(_ segments: [Segment]) -> Int {
        segments.reduce(0) { $0 + DisplayText.width($1.text) }
    }

    /// The line as text.
    var text: String { segments.map(\.text).joined() }
}

extension NamedPeopleLine.Segment {
    var text: String {
        switch self {
        case .person(_, let text): text
        case .separator: NamedPeopleLine.separator
        case .elided: NamedPeopleLine.elision
        case .after(let text): text
        }
    }
}
