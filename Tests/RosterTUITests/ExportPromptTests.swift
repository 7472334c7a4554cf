import Testing
import TestSupport
import RosterCore
@testable import RosterTUI

/// The export prompt on a small terminal, its summary line and Tab.
@MainActor
@Suite("Export prompt")
struct ExportPromptTests {
    let writer = InMemoryExportWriter(existing: ["reports/people-2024.csv", "reports/people-2025.csv", "readme.txt", ".hidden.csv"])
    let view: ListView

    init() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe(), exportWriter: writer)
        view = ListView(presenter: presenter)
        presenter.attach(view: view)
    }

    func type(_ keys: [Key], rows: Int = 24, columns: Int = 80) -> MemoryScreen {
        for key in keys { view.handle(key, screenSize: ScreenSize(rows: rows, columns: columns)) }
        return ViewSnapshotTests.draw(view, rows: rows, columns: columns)
    }

    @Test("at 40x12 the name gets the line: its end and the cursor show, the hints give way")
    func smallTerminal() {
        let screen = type([.character("e"), .control("u"), .typed("exports/a-long-name-for-the-people.csv")], rows: 12, columns: 40)
        #expect(screen.line(11) == " export to: …g-name-for-the-people.csv  ")
        #expect(screen.cursor == CellPosition(row: 11, column: 38))
        #expect(screen.line(10).hasPrefix(" 6 people as CSV; formulas get a '"))
    }

    @Test("at 80x24 a short name keeps the hints; the line above says what will be written")
    func wideTerminal() {
        let screen = type([.character("e")])
        #expect(screen.line(23).hasPrefix(" export to: test.csv "))
        #expect(screen.line(23).hasSuffix("⏎ write  Esc cancel "))
        #expect(screen.line(22).hasPrefix(" 6 people as CSV; formulas get a ' (--export csv --csv-verbatim: as is)  "))
    }

    @Test("Tab completes a folder, then as far as the names agree; again, it lists the matches above the prompt")
    func tabCompletes() {
        var screen = type([.character("e"), .control("u"), .typed("rep"), .tab])
        #expect(screen.line(23).hasPrefix(" export to: reports/ "))
        screen = type([.tab])
        #expect(screen.line(23).hasPrefix(" export to: reports/people-202 "))
        screen = type([.tab])
        #expect(screen.line(22).hasPrefix(" 2 match: people-2024.csv  people-2025.csv"))
        screen = type([.character("5"), .tab])
        #expect(screen.line(23).hasPrefix(" export to: reports/people-2025.csv "))
        #expect(screen.line(22).hasPrefix(" 6 people as CSV"))
    }
}
