import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

/// The keys other programs taught, on the views: what a key is called in
/// a message, the sort menu, the command line, and the list's new keys.
@MainActor
@Suite("Keys from other programs: the views")
struct HabitKeysViewTests {
    @Test("the list's n N o O and : reach the presenter; other keys still mean nothing")
    func listKeys() {
        let module = SpyListModule()
        let view = ListView(presenter: module)
        let size = ScreenSize(rows: 24, columns: 80)
        for key in ["n", "N", "o", "O", ":"] { #expect(view.handle(.character(Character(key)), screenSize: size)) }
        #expect(module.calls == [.showMatch(forward: true), .showMatch(forward: false), .chooseSortOrder(descending: false),
                                 .chooseSortOrder(descending: true), .openCommandLine])
        #expect(!view.handle(.character("x"), screenSize: size))
        #expect(!view.handle(.control("x"), screenSize: size))
        #expect(view.unusedKeyHint == "? help")
    }

    @Test("the sort menu lists every column with its letter over the list, at 80×24 and at 60×15")
    func sortMenuDrawn() throws {
        let (list, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let menu = SortMenuView(descending: true, background: list, onChoose: { _, _ in }, onCancel: {})
        for (rows, columns) in [(24, 80), (15, 60)] {
            let screen = ViewSnapshotTests.draw(menu, rows: rows, columns: columns)
            #expect(snapshotMismatch(screen.text, named: "sort-menu-\(columns)x\(rows)") == nil)
            for entry in SortMenu.entries {
                #expect(screen.text.contains("\(entry.letter)  \(entry.label)"), "\(entry.label) shown with \(entry.letter)")
            }
            #expect(screen.line(0).contains("Roster — people.json"), "the list stays drawn under it")
            #expect(screen.line(rows - 1).hasPrefix(" sort ↓ by which column?"))
        }
    }

    @Test("in the sort menu a letter sorts by its column, a capital as one flat list; Esc closes; another key means nothing")
    func sortMenuKeys() throws {
        let (list, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        var chosen: [(SortOrder, Bool)] = []
        var cancelled = 0
        let menu = SortMenuView(descending: true, background: list, onChoose: { chosen.append(($0, $1)) }, onCancel: { cancelled += 1 })
        let size = ScreenSize(rows: 24, columns: 80)
        #expect(menu.handle(.character("b"), screenSize: size))
        #expect(menu.handle(.character("B"), screenSize: size))
        #expect(menu.handle(.escape, screenSize: size))
        #expect(!menu.handle(.character("x"), screenSize: size))
        #expect(chosen.map(\.0) == [SortOrder(.balance, descending: true), SortOrder(.balance, descending: true)])
        #expect(chosen.map(\.1) == [false, true])
        #expect(cancelled == 1)
        #expect(menu.unusedKeyHint == "a column's letter, or Esc")
    }

    final class SpyCommandLine: CommandLineModuleInterface {
        var edits: [LineEdit] = []
        var accepted = 0, cancelled = 0
        func edit(_ edit: LineEdit) { edits.append(edit) }
        func accept() { accepted += 1 }
        func cancel() { cancelled += 1 }
    }

    @Test("the command line types every character (q, ? and : too), edits as the prompts do, Tab completes")
    func commandLineKeys() throws {
        let (list, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let spy = SpyCommandLine()
        let view = CommandLineView(presenter: spy, background: list)
        let size = ScreenSize(rows: 24, columns: 80)
        for key: Key in [.character("q"), .character("?"), .typed("sort"), .paste("a\nb"), .tab, .control("w"), .up, .enter, .escape] {
            #expect(view.handle(key, screenSize: size))
        }
        #expect(spy.edits == [.insert("q"), .insert("?"), .insert("sort"), .insert("a b"), .complete, .deleteWordBackward, .previousEntry])
        #expect(spy.accepted == 1 && spy.cancelled == 1)
        #expect(!view.handle(.function(5), screenSize: size))
        #expect(view.acceptsTypedText)
    }

    @Test("the command line: the line with its cursor at the bottom, why it did not run above it; the list stays drawn")
    func commandLineDrawn() throws {
        let (list, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let view = CommandLineView(presenter: SpyCommandLine(), background: list)
        view.show(CommandLineViewModel(text: "srot", cursor: 4, error: "no command 'srot'; did you mean sort?", note: nil))
        for (rows, columns) in [(24, 80), (15, 60)] {
            let screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
            #expect(snapshotMismatch(screen.text, named: "command-line-error-\(columns)x\(rows)") == nil)
            #expect(screen.line(rows - 1).hasPrefix(" :srot "))
            #expect(screen.line(rows - 2).hasPrefix(" no command 'srot'; did you mean sort?"))
            #expect(screen.style(row: rows - 2, column: 1) == .bar)
            #expect(screen.cursor == CellPosition(row: rows - 1, column: 6))
            #expect(screen.line(0).contains("Roster — people.json"))
        }
        view.show(CommandLineViewModel(text: "", cursor: 0, error: nil, note: "sort  filter"))
        let screen = ViewSnapshotTests.draw(view)
        #expect(screen.line(22).hasPrefix(" sort  filter"))
        #expect(screen.style(row: 22, column: 1) == .dim)
    }
}
