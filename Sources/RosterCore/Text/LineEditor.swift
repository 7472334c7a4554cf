/// One change to a prompt's line, in the terms of a line editor rather
/// than of keys: the view maps keys to these, the presenter applies them.
public enum LineEdit: Equatable, Sendable {
    /// Typed (or pasted) text, inserted at the cursor.
    case insert(String)
    case moveLeft, moveRight, moveToStart, moveToEnd
    /// Backspace: the character before the cursor.
    case deleteBackward
    /// Delete: the character under the cursor.
    case deleteForward
    /// Ctrl-W: the word before the cursor.
    case deleteWordBackward
    /// Ctrl-U: everything before the cursor.
    case deleteToStart
    /// Ctrl-K: everything from the cursor on.
    case deleteToEnd
    /// ↑ / ↓: an earlier / later entry of the prompt's history.
    case previousEntry, nextEntry
    /// Tab: completes the line where the prompt knows how (a file name in
    /// the export prompt); the editor itself leaves the line as it is.
    case complete
}

/// The text of a prompt and its cursor, edited as a shell's line is.
///
/// The unit of editing is the `Character` (a grapheme cluster), so a wide
/// character, an emoji or a letter with combining marks moves and deletes
/// as one; the cursor is a count of characters before it. History recall
/// works as in readline: ↑ steps back through the entries the prompt was
/// given, ↓ forward again, and past the newest comes back to what was
/// being typed.
public struct LineEditor: Equatable, Sendable {
    public private(set) var text: String
    /// Characters before the cursor: 0 ... `text.count`.
    public private(set) var cursor: Int
    /// Earlier entries, oldest first.
    private let history: [String]
    /// Which entry is shown: `history.count` means the line being typed.
    private var historyIndex: Int
    /// The line being typed, kept while history entries are shown.
    private var draft: String

    /// A line holding `text` with the cursor at its end.
    public init(_ text: String = "", history: [String] = []) {
        self.text = text
        cursor = text.count
        self.history = history
        historyIndex = history.count
        draft = text
    }

    public var isEmpty: Bool { text.isEmpty }

    /// Replaces the whole text; the cursor goes to its end.
    public mutating func replace(with newText: String) {
        text = newText
        cursor = newText.count
    }

    public mutating func apply(_ edit: LineEdit) {
        switch edit {
        case .insert(let inserted):
            let before = String(text[..<index(cursor)]) + inserted
            let after = text[index(cursor)...]
            text = before + after
            // Counted on the joined text: a combining mark typed after a
            // letter merges with it, and the cursor stays after the pair.
            cursor = min(max(0, text.count - after.count), text.count)
        case .moveLeft:
            cursor = max(0, cursor - 1)
        case .moveRight:
            cursor = min(text.count, cursor + 1)
        case .moveToStart:
            cursor = 0
        case .moveToEnd:
            cursor = text.count
        case .deleteBackward:
            guard cursor > 0 else { return }
            remove(from: cursor - 1, to: cursor)
        case .deleteForward:
            guard cursor < text.count else { return }
            remove(from: cursor, to: cursor + 1)
        case .deleteWordBackward:
            remove(from: Self.wordStart(before: cursor, in: Array(text)), to: cursor)
        case .deleteToStart:
            remove(from: 0, to: cursor)
        case .deleteToEnd:
            remove(from: cursor, to: text.count)
        case .previousEntry:
            guard historyIndex > 0 else { return }
            if historyIndex == history.count { draft = text }
            historyIndex -= 1
            replace(with: history[historyIndex])
        case .nextEntry:
            guard historyIndex < history.count else { return }
            historyIndex += 1
            replace(with: historyIndex == history.count ? draft : history[historyIndex])
        case .complete:
            return
        }
    }

    /// Where Ctrl-W stops: back over spaces, then over one run of word
    /// characters (letters, digits, `_`) or else of punctuation, so that
    /// `people.csv` loses `csv`, then `.`, then `people`, as in vim.
    static func wordStart(before cursor: Int, in characters: [Character]) -> Int {
        var start = cursor
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        guard start > 0 else { return start }
        let isWord = isWordCharacter(characters[start - 1])
        while start > 0, !characters[start - 1].isWhitespace, isWordCharacter(characters[start - 1]) == isWord { start -= 1 }
        return start
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: offset)
    }

    private mutating func remove(from start: Int, to end: Int) {
        guard start < end else { return }
        text.removeSubrange(index(start)..<index(end))
        cursor = start
    }
}

/// The entries accepted at each prompt during this session (never written
/// to disk), shared by every list so that ↑ recalls them anywhere.
@MainActor
public final class PromptHistory {
    public enum Prompt: Hashable, Sendable {
        case search, export
        /// The command line (`:`).
        case command
    }

    /// Enough to be useful; a session is not an archive.
    static let limit = 100
    private var entries: [Prompt: [String]] = [:]

    public init() {}

    /// Oldest first.
    public func entries(for prompt: Prompt) -> [String] {
        entries[prompt] ?? []
    }

    /// Adds `text` as the newest entry, unless it is blank; an earlier copy
    /// is dropped, so each text is listed once, at its latest use.
    public func record(_ text: String, for prompt: Prompt) {
        guard !text.allSatisfy(\.isWhitespace) else { return }
        var list = entries[prompt] ?? []
        list.removeAll { $0 == text }
        list.append(text)
        if list.count > Self.limit { list.removeFirst(list.count - Self.limit) }
        entries[prompt] = list
    }
}
