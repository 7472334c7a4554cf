import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

/// What every screen shares, on the views: how a message names a key,
/// the notice a key that does nothing gets, the keys every help lists.
@MainActor
@Suite("Keys on every screen: the views")
struct EveryScreenKeysViewTests {
    @Test("a key is named as help writes keys; a control or invisible character by name, never raw", arguments: [
        (Key.character("x"), "x"), (.character(" "), "Space"), (.control("x"), "Ctrl-X"), (.function(5), "F5"),
        (.pageDown, "PgDn"), (.backTab, "Shift-Tab"), (.character("\u{1C}"), "Ctrl-\\"), (.character("\u{0}"), "Ctrl-@"),
        (.character("\u{9B}"), "U+009B"), (.character("\u{202E}"), "U+202E"), (.character("é"), "é"), (.unknown, "that key"),
    ])
    func keyNames(key: Key, name: String) {
        #expect(key.spokenName == name)
        #expect(name.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
    }

    @Test("a click, a paste or a resize is no key pressed: nothing is said of it")
    func notKeys() {
        #expect(UnusedKeyNotice(key: .mouse(MouseEvent(.click, row: 1, column: 1)), hint: "? help") == nil)
        #expect(UnusedKeyNotice(key: .paste("x"), hint: "? help") == nil)
        #expect(UnusedKeyNotice(key: .resize, hint: nil) == nil)
        #expect(UnusedKeyNotice(key: .character("x"), hint: "? help")?.text == "x: no such key · ? help")
        #expect(UnusedKeyNotice(key: .control("x"), hint: nil)?.text == "Ctrl-X: no such key")
    }

    @Test("the notice takes the status bar's hints' place, whole, beside the position; over a prompt, its right end")
    func noticeDrawn() throws {
        let (view, presenter) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let notice = try #require(UnusedKeyNotice(key: .character("x"), hint: "? help"))
        for (rows, columns) in [(24, 80), (15, 60)] {
            let screen = MemoryScreen(rows: rows, columns: columns)
            notice.draw(over: view, on: screen)
            let bottom = screen.line(rows - 1)
            #expect(bottom.hasPrefix(" 1/6 · COMSTAR · last name ↑  "))
            #expect(bottom.hasSuffix("  x: no such key · ? help "))
            #expect(!bottom.contains("search") && !bottom.contains("quit"), "no hint left half hidden: \(bottom)")
            #expect(screen.style(row: rows - 1, column: columns - 3) == .bar)
            view.draw(on: screen)
            #expect(!screen.line(rows - 1).contains("no such key"), "once only")
        }
        presenter.beginSearch()
        let screen = MemoryScreen(rows: 24, columns: 80)
        try #require(UnusedKeyNotice(key: .function(5), hint: "Esc closes the prompt")).draw(over: view, on: screen)
        #expect(screen.line(23).hasPrefix(" /"))
        #expect(screen.line(23).hasSuffix(" F5: no such key · Esc closes the prompt "))
    }

    @Test("every help screen ends with the keys of every screen, Ctrl-L among them")
    func everyScreenInHelp() {
        var help = HelpOverlay(title: "Detail keys", table: DetailView.keyTable)
        let screen = MemoryScreen(rows: 60, columns: 80)
        help.draw(on: screen)
        #expect(screen.text.contains("On every screen"))
        #expect(screen.text.components(separatedBy: "\n").contains { $0.contains("^L  ") && $0.hasSuffix("redraw the whole screen (after something else wrote on it)") })
        #expect(EveryScreenKeys.keyTable.action(for: .control("l")) == .redraw)
    }
}
