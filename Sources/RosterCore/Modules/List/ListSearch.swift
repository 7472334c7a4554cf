import Foundation

/// The search prompt of a list and the filter it leaves: the prompt's
/// line, whether it is open, what Esc puts back, why the text is not a
/// query, and the latest result. Plain state: the presenter runs the
/// searches it asks for and shows their results.
struct ListSearch {
    /// The prompt's line (kept when closed: `/` opens on the filter in force).
    private(set) var line = LineEditor()
    /// Whether the prompt is open.
    private(set) var isEditing = false
    /// The filter in force when `/` opened the prompt, for Esc to put back.
    private var resultBeforeEditing: PeopleArrangement?
    /// Who was selected when `/` opened the prompt: Esc goes back to them,
    /// as fzf and less do.
    private var selectionBeforeEditing: PersonID?
    /// Why the prompt's text is not a query (shown under it); the list
    /// meanwhile shows what the other terms match.
    private(set) var error: QueryError?
    /// Why the latest search could not run (a database that went away),
    /// until the text changes or a search lands.
    var failure: String?
    /// The latest finished search (nil: no filter).
    private(set) var result: PeopleArrangement?
    /// The text of the latest search that narrowed the list, kept once the
    /// filter is cleared: what `n` looks for in the whole list.
    private(set) var lastQuery: String?
    /// This list's recent results, so that Backspace searches within the
    /// result of a query typed a moment ago (only their matches, by file
    /// position, are used: a change of order does not stale them).
    private var recentSearches = RecentSearches()

    /// This list's earlier result that `query` narrows (or is), if one is
    /// kept: a search for `query` need look only at its people (`n`).
    func earlierResult(narrowedBy query: SearchQuery) -> PeopleArrangement? {
        recentSearches.narrowest(for: query)
    }

    /// A search to run: `query` within the people of `within` (nil: everyone).
    struct Request {
        let query: SearchQuery
        let within: PeopleArrangement?
    }

    /// What Esc on the prompt leaves: the filter to put back (nil: none),
    /// and who to select again.
    struct Cancelled {
        let restoring: PeopleArrangement?
        let selection: PersonID?
    }

    /// The filter in force (the last finished search), if any.
    var filter: String? { result?.query?.text }

    /// `/`: opens the prompt on the filter in force (a space after a
    /// finished field term, so that the next term stands apart), remembering
    /// it and `selected` for Esc; `history` is what ↑ recalls.
    mutating func begin(selected: PersonID?, history: [String]) {
        isEditing = true
        resultBeforeEditing = result
        selectionBeforeEditing = selected
        line = LineEditor(QueryEditing.promptText(editing: line.text), history: history)
    }

    /// Replaces the prompt's text; the search it asks for, if any.
    mutating func replace(with text: String) -> Request? {
        line.replace(with: text)
        return textChanged()
    }

    /// An edit on the open prompt; the search it asks for, if any. Nil
    /// too when the text did not change (a cursor move).
    mutating func apply(_ edit: LineEdit) -> Request? {
        let before = line.text
        line.apply(edit)
        return line.text == before ? nil : textChanged()
    }

    /// The search whose failure is still said, asked for again (the prompt
    /// opened on it again, or `r`): a failure is never remembered for its
    /// text. Nil when none failed.
    mutating func retryFailed() -> Request? {
        failure == nil ? nil : textChanged()
    }

    private mutating func textChanged() -> Request? {
        failure = nil
        var query = SearchQuery(line.text)
        error = query.error
        // A term with an error (`age>x`, or one still being typed) is left
        // out: the list shows what the other terms match, rather than an
        // empty list that would look like "no one matches". If even that
        // fails, the last good result stays.
        if let error = query.error {
            query = SearchQuery(Self.text(line.text, withoutTermsOverlapping: error.range))
            guard query.error == nil else { return nil }
        }
        let within = recentSearches.narrowest(for: query) ?? result.flatMap { $0.query.map(query.narrows) == true ? $0 : nil }
        return Request(query: query, within: within)
    }

    /// `text` without the space-separated terms that overlap `range`
    /// (characters), so `comgy age>x` searches `comgy`.
    static func text(_ text: String, withoutTermsOverlapping range: Range<Int>) -> String {
        var kept: [String] = []
        var term = ""
        var start = 0
        for (offset, character) in Array(text + " ").enumerated() {
            if character == " " {
                if !term.isEmpty, !(start..<offset).overlaps(range), !(range.isEmpty && (start...offset).contains(range.lowerBound)) {
                    kept.append(term)
                }
                term = ""
                start = offset + 1
            } else {
                term.append(character)
            }
        }
        return kept.joined(separator: " ")
    }

    /// Enter: closes the prompt and returns its text (for the history),
    /// unless the text has an error, which keeps the prompt open (nil).
    mutating func commit() -> String? {
        guard error == nil else { return nil }
        isEditing = false
        return line.text.trimmingCharacters(in: .whitespaces)
    }

    /// Closes the prompt without touching the filter (`--filter`).
    mutating func close() {
        isEditing = false
    }

    /// Esc: closes the prompt, putting back the filter and selection it
    /// opened on; Esc with the prompt closed clears the filter.
    mutating func cancel() -> Cancelled {
        guard isEditing else { return Cancelled(restoring: nil, selection: nil) }
        isEditing = false
        error = nil
        guard let before = resultBeforeEditing else { return Cancelled(restoring: nil, selection: selectionBeforeEditing) }
        line = LineEditor(before.query?.text ?? "")
        return Cancelled(restoring: before, selection: selectionBeforeEditing)
    }

    /// Empties the prompt (the filter goes with the next `show(nil)`).
    mutating func clear() {
        line = LineEditor()
        error = nil
    }

    /// A finished search becomes the filter in force (nil or an empty
    /// query: no filter); the filter that is now in force.
    @discardableResult
    mutating func show(_ found: PeopleArrangement?) -> PeopleArrangement? {
        failure = nil
        result = found?.query.map { $0.isEmpty } ?? true ? nil : found
        if let result {
            recentSearches.remember(result)
            lastQuery = result.query?.text
        }
        return result
    }
}
