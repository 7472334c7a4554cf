import Testing
@testable import RosterCore
@testable import RosterStore

/// Applies `edits` to a line that starts as `text` (cursor at its end).
private func edited(_ text: String, history: [String] = [], _ edits: LineEdit...) -> LineEditor {
    var line = LineEditor(text, history: history)
    for edit in edits { line.apply(edit) }
    return line
}

@Suite("Line editor")
struct LineEditorTests {
    @Test("starts with the cursor at the end; typing inserts at the cursor")
    func insert() {
        var line = LineEditor("jse")
        #expect(line.cursor == 3)
        line.apply(.moveLeft)
        line.apply(.moveLeft)
        line.apply(.insert("o"))
        #expect(line.text == "jose")
        #expect(line.cursor == 2)
        line.apply(.insert("XY"))
        #expect(line.text == "joXYse")
        #expect(line.cursor == 4)
    }

    @Test("moves stop at both ends; Home and End reach them")
    func moves() {
        #expect(edited("ab", .moveRight).cursor == 2)
        #expect(edited("ab", .moveLeft, .moveLeft, .moveLeft).cursor == 0)
        #expect(edited("abc", .moveToStart).cursor == 0)
        #expect(edited("abc", .moveToStart, .moveToEnd).cursor == 3)
        #expect(edited("", .moveLeft, .moveRight).cursor == 0)
    }

    @Test("Backspace deletes before the cursor, Delete under it; both stop at the ends")
    func deletes() {
        let back = edited("abcd", .moveLeft, .deleteBackward)
        #expect(back.text == "abd")
        #expect(back.cursor == 2)
        let forward = edited("abcd", .moveToStart, .moveRight, .deleteForward)
        #expect(forward.text == "acd")
        #expect(forward.cursor == 1)
        #expect(edited("ab", .moveToStart, .deleteBackward).text == "ab")
        #expect(edited("ab", .deleteForward).text == "ab")
        #expect(edited("", .deleteBackward, .deleteForward).text == "")
    }

    @Test("wide characters, emoji and combining sequences move and delete as one")
    func graphemes() {
        let line = LineEditor("a佐藤🚀e\u{301}b")
        #expect(line.cursor == 6)
        #expect(edited("a佐藤🚀e\u{301}", .deleteBackward).text == "a佐藤🚀")
        #expect(edited("a佐藤🚀", .moveLeft, .deleteBackward).text == "a佐🚀")
        #expect(edited("👩‍💻x", .moveToStart, .deleteForward).text == "x")
        let flag = edited("🇫🇷🇩🇪", .moveLeft, .deleteBackward)
        #expect(flag.text == "🇩🇪")
        #expect(flag.cursor == 0)
    }

    @Test("a combining mark typed after a letter joins it; the cursor stays after the pair")
    func combiningInput() {
        var line = LineEditor("Jos")
        line.apply(.insert("e"))
        line.apply(.insert("\u{301}"))
        #expect(line.text == "José")
        #expect(line.cursor == 4)
        line.apply(.moveToStart)
        line.apply(.insert("e"))
        line.apply(.insert("\u{301}"))
        #expect(line.text == "éJosé")
        #expect(line.cursor == 1)
    }

    @Test("Ctrl-W deletes the word before the cursor: spaces, then letters, or else punctuation")
    func deleteWord() {
        #expect(edited("jose garza", .deleteWordBackward).text == "jose ")
        #expect(edited("jose garza  ", .deleteWordBackward).text == "jose ")
        #expect(edited("jose garza", .deleteWordBackward, .deleteWordBackward).text == "")
        // A file name: the extension, then the dot, then the base name.
        #expect(edited("people.csv", .deleteWordBackward).text == "people.")
        #expect(edited("people.csv", .deleteWordBackward, .deleteWordBackward).text == "people")
        #expect(edited("out/people.csv", .moveLeft, .moveLeft, .moveLeft, .moveLeft, .deleteWordBackward).text == "out/.csv")
        #expect(edited("José_2", .deleteWordBackward).text == "")
        let middle = edited("one two three", .moveLeft, .moveLeft, .moveLeft, .moveLeft, .moveLeft, .moveLeft, .deleteWordBackward)
        #expect(middle.text == "one  three")
        #expect(middle.cursor == 4)
        #expect(edited("", .deleteWordBackward).text == "")
    }

    @Test("Ctrl-U deletes to the start, Ctrl-K to the end")
    func deleteToEnds() {
        let start = edited("jose garza", .moveLeft, .moveLeft, .deleteToStart)
        #expect(start.text == "za")
        #expect(start.cursor == 0)
        let end = edited("jose garza", .moveToStart, .moveRight, .deleteToEnd)
        #expect(end.text == "j")
        #expect(end.cursor == 1)
    }

    @Test("↑ recalls earlier entries, newest first; ↓ comes back to what was typed")
    func history() {
        var line = LineEditor("dra", history: ["first", "second"])
        line.apply(.moveLeft)
        line.apply(.previousEntry)
        #expect(line.text == "second")
        #expect(line.cursor == 6)
        line.apply(.previousEntry)
        #expect(line.text == "first")
        line.apply(.previousEntry)  // nothing older: stays
        #expect(line.text == "first")
        line.apply(.nextEntry)
        #expect(line.text == "second")
        line.apply(.nextEntry)
        #expect(line.text == "dra")
        #expect(line.cursor == 3)
        line.apply(.nextEntry)  // nothing newer: stays
        #expect(line.text == "dra")
        #expect(edited("x", .previousEntry).text == "x")
    }

    @Test("a recalled entry can be edited, and the draft survives the trip")
    func editRecalled() {
        let line = edited("new", history: ["old"], .previousEntry, .insert("er"), .nextEntry)
        #expect(line.text == "new")
        #expect(edited("new", history: ["old"], .previousEntry, .insert("er")).text == "older")
    }

    @Test("replace puts the cursor at the end")
    func replace() {
        var line = LineEditor("abc")
        line.apply(.moveToStart)
        line.replace(with: "xy")
        #expect(line.text == "xy")
        #expect(line.cursor == 2)
    }
}

@MainActor
@Suite("Prompt history")
struct PromptHistoryTests {
    @Test("each prompt has its own entries, oldest first, each text once, blanks not kept")
    func record() {
        let history = PromptHistory()
        history.record("jos", for: .search)
        history.record("a.csv", for: .export)
        history.record("garza", for: .search)
        history.record("  ", for: .search)
        history.record("jos", for: .search)
        #expect(history.entries(for: .search) == ["garza", "jos"])
        #expect(history.entries(for: .export) == ["a.csv"])
    }

    @Test("keeps the newest hundred")
    func limit() {
        let history = PromptHistory()
        for number in 0..<150 { history.record("q\(number)", for: .search) }
        #expect(history.entries(for: .search).count == 100)
        #expect(history.entries(for: .search).first == "q50")
        #expect(history.entries(for: .search).last == "q149")
    }
}

@Suite("Line window")
struct LineWindowTests {
    @Test("a short line shows whole, the cursor after its last character")
    func short() {
        let window = LineWindow(text: "jose", cursor: 4, columns: 10)
        #expect(window.text == "jose")
        #expect(window.start == 0)
        #expect(window.cursorColumn == 4)
    }

    @Test("a long line scrolls to keep the cursor in view, with … where it is cut")
    func scrolls() {
        let text = "abcdefghijklmnopqrstuvwxyz"
        let end = LineWindow(text: text, cursor: 26, columns: 10)
        #expect(end.text == "…stuvwxyz")
        #expect(end.cursorColumn == 9)  // the cell after the z, the window's last
        let start = LineWindow(text: text, cursor: 0, columns: 10)
        #expect(start.text == "abcdefghi…")
        #expect(start.cursorColumn == 0)
    }

    @Test("the window moves only when the cursor leaves it")
    func stable() {
        let text = "abcdefghijklmnopqrstuvwxyz"
        // Cursor at z's cell, the window already at the end: one step left keeps the window.
        let first = LineWindow(text: text, cursor: 26, columns: 10)
        let left = LineWindow(text: text, cursor: 25, columns: 10, previousStart: first.start)
        #expect(left.start == first.start)
        #expect(left.cursorColumn == first.cursorColumn - 1)
        // Home: the window goes back to the start.
        let home = LineWindow(text: text, cursor: 0, columns: 10, previousStart: first.start)
        #expect(home.start == 0)
        #expect(home.text == "abcdefghi…")
        // From the start, moving right within the window does not scroll.
        let right = LineWindow(text: text, cursor: 5, columns: 10, previousStart: 0)
        #expect(right.start == 0)
        #expect(right.cursorColumn == 5)
    }

    @Test("after a deletion the window comes back to show what fits")
    func returns() {
        let window = LineWindow(text: "abcdef", cursor: 6, columns: 10, previousStart: 4)
        #expect(window.start == 0)
        #expect(window.text == "abcdef")
    }

    @Test("wide characters take two cells and are never split; control characters stay visible")
    func wide() {
        let window = LineWindow(text: "佐藤佐藤佐藤", cursor: 6, columns: 8)
        #expect(window.text == "…藤佐藤")  // 1 + 6 cells, then the cursor's cell
        #expect(DisplayText.width(window.text) <= 8)
        #expect(window.cursorColumn == 7)
        let control = LineWindow(text: "a\u{1B}b", cursor: 3, columns: 10)
        #expect(control.text == "a␛b")
        #expect(control.cursorColumn == 3)
    }

    @Test("the cursor is always inside the window", arguments: 0...26)
    func cursorInside(cursor: Int) {
        let text = "abc佐藤defghijk🚀lmnopqrstu"
        for previous in [0, 5, 12, 20] {
            let window = LineWindow(text: text, cursor: cursor, columns: 9, previousStart: previous)
            #expect(window.cursorColumn >= 0 && window.cursorColumn < 9, "cursor \(cursor) from \(previous): \(window)")
            #expect(DisplayText.width(window.text) <= 9)
        }
    }
}

@Suite("Wrapping")
struct WrappingTests {
    @Test("breaks at the last space that fits, dropping it")
    func words() {
        #expect(DisplayText.wrapped("849 Crystal Street, Williston, Kentucky", columns: 20)
                == ["849 Crystal Street,", "Williston, Kentucky"])
        #expect(DisplayText.wrapped("short", columns: 20) == ["short"])
        #expect(DisplayText.wrapped("", columns: 20) == [""])
    }

    @Test("a word longer than the line is broken between characters")
    func longWord() {
        #expect(DisplayText.wrapped("13cc239e-14c6-47b2-9bd4", columns: 10) == ["13cc239e-1", "4c6-47b2-9", "bd4"])
    }

    @Test("wide characters are never split; every line fits")
    func wide() {
        let lines = DisplayText.wrapped("佐藤佐藤佐", columns: 5)
        #expect(lines == ["佐藤", "佐藤", "佐"])
        for line in DisplayText.wrapped("ab 佐藤 🚀🚀🚀 e\u{301}e\u{301}e\u{301}", columns: 3) {
            #expect(DisplayText.width(line) <= 3, "\(line)")
        }
    }

    @Test("control characters are made visible before wrapping")
    func control() {
        #expect(DisplayText.wrapped("a\u{1B}b\nc", columns: 3) == ["a␛b", "␊c"])
    }
}
