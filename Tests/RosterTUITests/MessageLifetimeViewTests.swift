import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

/// The list's message on the screen: gone once a key reaches a screen
/// over the list, and a word for Esc, ←, h and Backspace on the whole list.
@MainActor
@Suite("The list's messages on the screen")
struct MessageLifetimeViewTests {
    @Test("a key the sort menu takes ends the list's message: under the menu and after it closes", arguments: [(24, 80), (15, 60)])
    func endsUnderTheSortMenu(rows: Int, columns: Int) throws {
        let (list, presenter) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        presenter.showMatch(forward: true)
        #expect(ViewSnapshotTests.draw(list, rows: rows, columns: columns).line(rows - 1).contains("no search yet"))
        let menu = SortMenuView(descending: false, background: list, onChoose: { _, _ in }, onCancel: {})
        list.keyPressed()  // o, as the root hands every screen the key
        #expect(!ViewSnapshotTests.draw(menu, rows: rows, columns: columns).text.contains("no search yet"))
        list.keyPressed()  // Esc closes the menu
        let screen = ViewSnapshotTests.draw(list, rows: rows, columns: columns)
        #expect(!screen.text.contains("no search yet"), "the message came back after the menu closed")
        #expect(screen.line(rows - 1).hasPrefix(" 1/6"))
    }

    @Test("on the whole list Esc, ←, h and Backspace say why they do nothing, beside the position", arguments: [(24, 80), (15, 60)])
    func nothingToGoBackTo(rows: Int, columns: Int) throws {
        let (list, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let size = ScreenSize(rows: rows, columns: columns)
        let said: [(Key, String)] = [(.escape, "Esc: nothing to close"), (.left, "←: already at the top level"),
                                     (.character("h"), "h: already at the top level"),
                                     (.backspace, "Backspace: already at the top level")]
        for (key, words) in said {
            #expect(list.handle(key, screenSize: size))
            let bottom = ViewSnapshotTests.draw(list, rows: rows, columns: columns).line(rows - 1)
            #expect(bottom.contains(words), "\(words)")
            #expect(bottom.hasPrefix(" 1/6"))
        }
    }

    @Test("in the sort menu q closes it and ? shows the list's help at the menu's part; a key then closes the help, not the menu",
          arguments: [(24, 80), (15, 60)])
    func sortMenuHelpAndQuit(rows: Int, columns: Int) throws {
        let (list, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        var cancelled = 0
        let menu = SortMenuView(descending: false, background: list, onChoose: { _, _ in }, onCancel: { cancelled += 1 })
        let size = ScreenSize(rows: rows, columns: columns)
        #expect(menu.handle(.character("?"), screenSize: size))
        let help = ViewSnapshotTests.draw(menu, rows: rows, columns: columns)
        #expect(help.line(0).contains("List keys"))
        #expect(help.line(2).contains("In the sort menu"), "opened at the sort menu's part")
        #expect(help.text.contains("Esc/q"))
        #expect(menu.handle(.character("x"), screenSize: size))  // closes the help
        #expect(cancelled == 0)
        #expect(ViewSnapshotTests.draw(menu, rows: rows, columns: columns).line(rows - 1).contains("sort ↑ by which column?"))
        #expect(menu.handle(.character("q"), screenSize: size))
        #expect(cancelled == 1)
    }

    @Test("a filter no one matches offers no ⏎ open; a long delete question keeps its hint whole or drops it, never cut",
          arguments: [(24, 80), (15, 60), (10, 40)])
    func truthfulHints(rows: Int, columns: Int) throws {
        let (list, presenter) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON, searches: true)
        presenter.beginSearch()
        presenter.editSearch("zzzqq")
        presenter.commitSearch()
        let nobody = ViewSnapshotTests.draw(list, rows: rows, columns: columns).line(rows - 1)
        #expect(nobody.hasPrefix(" 0/0"))
        #expect(!nobody.contains("open"), "nobody to open: \(nobody)")
        presenter.cancelSearch()
        presenter.markAllShown()
        presenter.deleteMarkedOrSelected()
        let asked = ViewSnapshotTests.draw(list, rows: rows, columns: columns).line(rows - 1)
        let line = asked.trimmingCharacters(in: .whitespaces)
        #expect(line.hasPrefix("Delete 6 people"))
        #expect(line.hasSuffix("(y/n)") || line.hasSuffix("(y/n)  y yes") || line.hasSuffix("(y/n)  y yes  any other key no")
                    || line.hasSuffix(" y yes  any other key no") || line.hasSuffix(" y yes"), "\(asked)")
        #expect(!asked.contains("y…") && !asked.contains("any other…"))
    }
}
