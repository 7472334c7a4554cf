import Testing
@testable import RosterCore
@testable import RosterStore

@Suite("Display text")
struct DisplayTextTests {
    @Test("widths in terminal columns", arguments: [
        ("abc", 3), ("José", 4), ("e\u{301}", 1), ("王芳", 4), ("🚀", 2), ("Ada 🚀", 6), ("ｆｕｌｌ", 8), ("", 0),
    ])
    func widths(text: String, columns: Int) {
        #expect(DisplayText.width(DisplayText.sanitized(text)) == columns)
    }

    @Test("control characters become visible placeholders", arguments: [
        ("a\u{1B}[2Jb", "a␛[2Jb"), ("bell\u{07}", "bell␇"), ("line\nbreak", "line␊break"), ("tab\there", "tab␉here"),
        ("cr\r", "cr␍"), ("del\u{7F}", "del␡"), ("c1\u{9B}31m", "c1?31m"), ("nul\u{0}", "nul␀"),
    ])
    func controls(text: String, shown: String) {
        #expect(DisplayText.sanitized(text) == shown)
    }

    @Test("zero-width and bidi characters are dropped; marks stay on their base")
    func invisibles() {
        #expect(DisplayText.sanitized("ab\u{202E}cd\u{200B}e\u{200D}f\u{FEFF}") == "abcdef")
        #expect(DisplayText.sanitized("\u{301}x") == "x")
        #expect(DisplayText.sanitized("e\u{301}") == "e\u{301}")
        #expect(DisplayText.sanitized("☀️") == "☀")
    }

    @Test("fitting cuts at a column boundary with an ellipsis, never splitting a wide character")
    func fitting() {
        #expect(DisplayText.fit("Vanessa Sanchez", columns: 8) == "Vanessa…")
        #expect(DisplayText.fit("short", columns: 8) == "short")
        #expect(DisplayText.fit("王芳王芳王芳", columns: 6) == "王芳…")
        #expect(DisplayText.width(DisplayText.fit("王芳王芳王芳", columns: 6)) <= 6)
        #expect(DisplayText.fit("anything", columns: 0) == "")
        #expect(DisplayText.padded("ab", columns: 4) == "ab  ")
        #expect(DisplayText.padded("王芳王", columns: 5) == "王芳…")
    }

    @Test("characters the C library doesn't know, or gives no width though they are no mark, show as �", arguments: [
        ("Fin\u{11A8}al", "Fin\u{FFFD}al"), ("Han\u{1160}gul", "Han\u{FFFD}gul"), ("new\u{1FAE8}", "new\u{FFFD}"),
        ("unassigned\u{3FFFD}", "unassigned\u{FFFD}"),
    ])
    func standIns(text: String, shown: String) {
        #expect(DisplayText.sanitized(text) == shown)
        #expect(DisplayText.width(DisplayText.sanitized(text)) == shown.count)
    }

    @Test("widths are the C library's, so ncurses places what follows where Roster expects it")
    func libraryWidths() {
        #expect(DisplayText.width("佐藤") == 4)
        #expect(DisplayText.width("🚀") == 2)
        #expect(DisplayText.width("e\u{301}") == 1)
        #expect(DisplayText.width("한국") == 4)
    }

    @Test("a file name inside a line is shortened from its middle before the rest of the line is cut")
    func fittingAroundAFileName() {
        let line = "could not write /a/long/folder/people.csv (Permission denied)"
        #expect(MessageText.fit(line, columns: 80, target: "/a/long/folder/people.csv") == line)
        #expect(MessageText.fit(line, columns: 50, target: "/a/long/folder/people.csv")
                == "could not write /a…/people.csv (Permission denied)")
        #expect(DisplayText.width(MessageText.fit(line, columns: 50, target: "/a/long/folder/people.csv")) == 50)
        #expect(MessageText.fit("foo.txt: unknown extension, write CSV? (y/n)", columns: 38, target: "foo.txt")
                == "…: unknown extension, write CSV? (y/n)")
        #expect(MessageText.fit("no name here", columns: 5, target: "absent") == "no n…")
    }
}
