import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

/// Views drawn on an in-memory screen, compared with committed snapshots
/// in __Snapshots__ (re-record with RECORD_SNAPSHOTS=1, then review the diff).
@MainActor
@Suite("View snapshots")
struct ViewSnapshotTests {
    /// `searches`: searches run at once (without, no search runs).
    static func listView(json: String, name: String = "people.json", moves: Int = 0, searches: Bool = false) throws -> (ListView, ListPresenter) {
        let directory = try Fixtures.directory(json: json, name: name)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository,
                                                                 scheduler: searches ? ImmediateSearchScheduler() : nil),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        presenter.moveSelection(by: moves)
        return (view, presenter)
    }

    static func draw(_ view: ScreenView, rows: Int = 24, columns: Int = 80) -> MemoryScreen {
        let screen = MemoryScreen(rows: rows, columns: columns)
        view.draw(on: screen)
        return screen
    }

    @Test("the list: title, headers, people with right-aligned balances, status bar")
    func list() throws {
        let (view, _) = try Self.listView(json: Fixtures.seedJSON, moves: 3)
        let screen = Self.draw(view)
        #expect(snapshotMismatch(screen.text, named: "list-seed") == nil)
        // The selected row (Zamora Weber, row 5 on screen) is highlighted across the width.
        #expect(screen.line(7).hasPrefix("  Zamora Weber"))
        #expect(screen.style(row: 7, column: 0) == .selected)
        #expect(screen.style(row: 7, column: 79) == .selected)
        #expect(screen.style(row: 3, column: 0) == .normal)
        #expect(screen.style(row: 0, column: 0) == .bar)
    }

    @Test("scrolling keeps the selection on screen, with its header when first in a section")
    func scrolling() throws {
        let people = (0..<200).map { Fixtures.record(first: "P\($0)", last: String(format: "L%03d", $0), company: "C\($0 / 20)", index: $0) }
        let (view, presenter) = try Self.listView(json: Fixtures.array(people), moves: 150)
        var screen = Self.draw(view)
        #expect(screen.text.contains("P150 L150"))
        #expect(snapshotMismatch(screen.text, named: "list-scrolled") == nil)
        presenter.select(position: 20)  // first person of C1, far above: its header shows too
        screen = Self.draw(view)
        #expect(screen.line(2).hasPrefix("C1 (20)"))
        #expect(screen.line(3).hasPrefix("  P20 "))
        #expect(screen.style(row: 3, column: 0) == .selected)
    }

    @Test("inside a long company its header stays pinned on the first line, never over the selection")
    func stickyHeader() throws {
        let people = (0..<200).map { Fixtures.record(first: "P\($0)", last: String(format: "L%03d", $0), company: "C\($0 / 20)", index: $0) }
        let (view, presenter) = try Self.listView(json: Fixtures.array(people), moves: 30)  // P30, the 11th of C1
        let size = ScreenSize(rows: 14, columns: 80)
        var screen = Self.draw(view, rows: 14, columns: 80)
        #expect(screen.line(2).hasPrefix("C1 (20)  "))
        #expect(screen.style(row: 2, column: 0) == .header)
        #expect(screen.style(row: 12, column: 2) == .selected)  // P30 at the bottom line
        #expect(screen.line(12).hasPrefix("  P30 L030"))
        // Moving up, the selection stops below the pinned header, not under it.
        for _ in 0..<12 { view.handle(.up, screenSize: size) }
        screen = Self.draw(view, rows: 14, columns: 80)
        #expect(presenter.selection == 18)
        #expect(screen.line(2).hasPrefix("C0 (20)"))
        #expect(screen.line(3).hasPrefix("  P18 L018"))  // right below the pinned header
        #expect(screen.style(row: 3, column: 2) == .selected)
        #expect(!(1...12).contains { screen.line($0).hasPrefix("  P17 ") })  // the row the header covers
        #expect(snapshotMismatch(screen.text, named: "list-sticky") == nil)
        // At a company's first person its real header shows, and nothing is pinned twice.
        presenter.select(position: 40)
        screen = Self.draw(view, rows: 14, columns: 80)
        #expect(screen.text.components(separatedBy: "C2 (20)").count == 2)
    }

    /// One company of 60; emails short on the first page, long (at
    /// `domain`) from the 31st person on.
    static func emailsLongerFurtherDown(domain: String) -> String {
        Fixtures.array((0..<60).map { index in
            Fixtures.record(first: "Al", last: String(format: "L%03d", index), company: "C",
                            email: index < 30 ? "a\(index)@x.io" : "maximilian.\(index)@\(domain)", index: index,
                            extra: "\"age\": 30")
        })
    }

    @Test("scrolling one list, columns only widen: back on the first page they stay where a longer email put them (when that hides none)")
    func columnsDoNotJump() throws {
        let (view, presenter) = try Self.listView(json: Self.emailsLongerFurtherDown(domain: "long.example"))
        func emailColumn() -> Int? {  // where the column after the email starts
            let title = Self.draw(view, rows: 12, columns: 120).line(1)
            return title.range(of: "Age").map { title.distance(from: title.startIndex, to: $0.lowerBound) }
        }
        let first = try #require(emailColumn())
        presenter.select(position: 45)
        let far = try #require(emailColumn())
        #expect(far > first, "the long names widen the name column")
        presenter.select(position: 0)
        #expect(emailColumn() == far, "and it stays that wide back at the top")
        presenter.beginSearch()
        presenter.editSearch("al ")
        presenter.commitSearch()
        #expect(emailColumn() != nil, "another list is measured afresh")
    }

    @Test("widths kept from a page further down never hide a column the page shown has room for")
    func keptWidthsHideNoColumn() throws {
        let (view, presenter) = try Self.listView(json: Self.emailsLongerFurtherDown(domain: "a-long-domain.example"))
        func titles() -> String { Self.draw(view, rows: 12, columns: 64).line(1) }
        #expect(titles().contains("Age"), "short emails: room for the age")
        presenter.select(position: 45)
        #expect(!titles().contains("Age"), "long emails on screen take its room")
        presenter.select(position: 0)
        #expect(titles().contains("Age"), "back at the top, the age again: \(titles())")
    }

    @Test("a company's last person at the top is shown, not covered by its header right above the next company's")
    func noHeaderOverNextHeader() throws {
        let people = (0..<200).map { Fixtures.record(first: "P\($0)", last: String(format: "L%03d", $0), company: "C\($0 / 20)", index: $0) }
        let (view, _) = try Self.listView(json: Fixtures.array(people), moves: 28)  // P28 at the bottom: P19, C0's last, at the top
        let screen = Self.draw(view, rows: 14, columns: 80)
        #expect(screen.line(2).hasPrefix("  P19 L019"), "\(screen.line(2))")
        #expect(screen.line(3).hasPrefix("C1 (20)"))
        #expect(!screen.text.contains("C0 (20)"))
        #expect(screen.line(12).hasPrefix("  P28 L028"))
    }

    @Test("the pinned header shows the search's counts; a click on it selects the company's first person")
    func stickyHeaderSearch() throws {
        let people = (0..<60).map { Fixtures.record(first: "P\($0)", last: String(format: "L%03d", $0), company: $0 < 40 ? "BIG" : "SMALL", index: $0) }
        let directory = try Fixtures.directory(json: Fixtures.array(people))
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        presenter.beginSearch()
        presenter.editSearch("p1")  // P1, P10–P19 in BIG: 11 of 40
        presenter.commitSearch()
        presenter.selectLast()
        let screen = Self.draw(view, rows: 10, columns: 40)
        #expect(screen.line(2).hasPrefix("BIG (11/40)"))
        #expect(screen.style(row: 2, column: 0) == .header)
        view.handle(.mouse(MouseEvent(.click, row: 2, column: 3)), screenSize: ScreenSize(rows: 10, columns: 40))
        #expect(presenter.selection == 0)
    }

    @Test("^D and ^U move half a page in the list and in the company overview")
    func halfPages() throws {
        let module = SpyListModule()
        let list = ListView(presenter: module)
        for key in [Key.control("d"), .control("u")] { list.handle(key, screenSize: ScreenSize(rows: 24, columns: 80)) }
        list.handle(.control("d"), screenSize: ScreenSize(rows: 10, columns: 40))
        #expect(module.calls == [.move(10), .move(-10), .move(3)])
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           shown: directory.everyone, wireframe: SpyCompaniesWireframe())
        let companies = CompaniesView(presenter: presenter)
        presenter.attach(view: companies)
        companies.handle(.control("d"), screenSize: ScreenSize(rows: 24, columns: 80))
        #expect(presenter.makeViewModel().selectedRow == 2)  // three companies: the last
        companies.handle(.control("u"), screenSize: ScreenSize(rows: 24, columns: 80))
        #expect(presenter.makeViewModel().selectedRow == 0)
    }

    @Test("r in the list asks the presenter to reconnect")
    func reconnectKey() {
        let module = SpyListModule()
        ListView(presenter: module).handle(.character("r"), screenSize: ScreenSize(rows: 24, columns: 80))
        #expect(module.calls == [.reconnect])
    }

    @Test("the detail screen: every field labelled and aligned")
    func detail() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: directory.repository, arrangement: directory.everyone),
                                        position: 3, wireframe: SpyDetailWireframe())
        let view = DetailView(presenter: presenter)
        presenter.attach(view: view)
        #expect(snapshotMismatch(Self.draw(view).text, named: "detail-seed") == nil)
        let short = Self.draw(view, rows: 12, columns: 50)
        #expect(snapshotMismatch(short.text, named: "detail-short") == nil)
        // Six labels show (the address cut short, ending in "…"): six are counted.
        #expect(short.line(10).contains("fields 1–6 of 15 (more below: PgDn)"))
    }

    @Test("an empty directory shows the seed app's empty state")
    func empty() throws {
        let (view, _) = try Self.listView(json: "[]")
        #expect(snapshotMismatch(Self.draw(view).text, named: "list-empty") == nil)
    }

    @Test("the error screen names the file and the place")
    func error() {
        let view = ErrorView(error: .syntax(file: "broken.json", line: 12, column: 7, message: "expected a value, found ']'")) {}
        #expect(snapshotMismatch(Self.draw(view).text, named: "error-syntax") == nil)
    }

    @Test("a terminal smaller than 40×10 says so")
    func tooSmall() {
        let screen = MemoryScreen(rows: 8, columns: 30)
        drawTooSmall(on: screen)
        #expect(snapshotMismatch(screen.text, named: "too-small") == nil)
    }

    @Test("wide and combining characters stay in their columns; long text is cut with …")
    func wideCharacters() throws {
        let json = Fixtures.array([
            Fixtures.record(first: "芳", last: "王", company: "株式会社テスト", balance: "$1.00", index: 0),
            Fixtures.record(first: "Ada 🚀", last: "Lovelace", company: "株式会社テスト", balance: "$2.00", index: 1),
            Fixtures.record(first: "Zoe\u{301}", last: "Extremely-Long-Surname-That-Will-Not-Fit", company: "株式会社テスト", balance: "$3.00", index: 2),
        ])
        let (view, _) = try Self.listView(json: json)
        let screen = Self.draw(view, rows: 10, columns: 40)
        #expect(snapshotMismatch(screen.text, named: "list-wide") == nil)
        for row in 0..<10 {
            let width = screen.cells[row].reduce(0) { $0 + ($1.text.isEmpty ? 0 : DisplayText.width(of: Character($1.text))) }
            #expect(width == 40, "row \(row) spans \(width) columns")
        }
    }

    @Test("control characters in every field are drawn as placeholders, never sent to the terminal")
    func hostileText() throws {
        let evil = "\u{1B}]0;owned\u{07}\u{1B}[2J\r\u{9B}1m\u{202E}"
        let json = #"[{"name": {"first": \#(Fixtures.quoted("A" + evil)), "last": \#(Fixtures.quoted("B" + evil))}, "company": \#(Fixtures.quoted("C" + evil)), "email": \#(Fixtures.quoted(evil)), "phone": \#(Fixtures.quoted(evil)), "address": \#(Fixtures.quoted(evil)), "balance": \#(Fixtures.quoted(evil)), "eyeColor": \#(Fixtures.quoted(evil)), "favoriteFruit": \#(Fixtures.quoted(evil)), "picture": \#(Fixtures.quoted(evil)), "guid": \#(Fixtures.quoted(evil)), "_id": \#(Fixtures.quoted(evil))}]"#
        let (list, _) = try Self.listView(json: json, name: "evil\u{1B}.json")
        let directory = try Fixtures.directory(json: json)
        let detailPresenter = DetailPresenter(interactor: DetailInteractor(repository: directory.repository, arrangement: directory.everyone),
                                              position: 0, wireframe: SpyDetailWireframe())
        let detail = DetailView(presenter: detailPresenter)
        detailPresenter.attach(view: detail)
        for screen in [Self.draw(list), Self.draw(detail, rows: 30, columns: 120)] {
            let cells = screen.cells.flatMap { $0 }.map(\.text).joined()
            #expect(!cells.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
            #expect(cells.contains("␛]0;owned␇␛[2J␍?1m"))
        }
    }
}

@MainActor
@Suite("Detail scrolling")
struct DetailScrollingTests {
    /// Two people; the first with a long address (wrapped), a wide name
    /// and a control character in the picture field.
    static func detail() async throws -> (DetailView, DetailPresenter) {
        let address = "849 Crystal Street, Apartment 12, Williston, Kentucky, 5580, United States of America"
        let json = Fixtures.array([
            Fixtures.record(first: "Kent", last: "佐藤", company: "CRIQUA", email: "kent.sato@criqua.example", index: 0,
                            extra: #""address": \#(Fixtures.quoted(address)), "phone": "+1 (188) 314-0187", "isActive": true, "age": 45, "eyeColor": "blue", "favoriteFruit": "apple", "picture": "http://placehold.it/32x32\u001b[2J", "guid": "13cc239e-14c6-47b2-9bd4-541149a378c8""#),
            Fixtures.record(first: "Ada", last: "Zed", company: "CRIQUA", index: 1),
        ])
        let directory = try Fixtures.directory(json: json)
        let (repository, everyone) = (directory.repository, directory.everyone)
        let kent = try #require(try await repository.rows(in: everyone, positions: 0..<everyone.count).firstIndex { $0.firstName == "Kent" })
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: everyone),
                                        position: kent, wireframe: SpyDetailWireframe())
        let view = DetailView(presenter: presenter)
        presenter.attach(view: view)
        return (view, presenter)
    }

    @Test("a short terminal scrolls the fields with PgDn, End, PgUp, Home; a line says which show", arguments: [(14, 80), (10, 40)])
    func scrolls(rows: Int, columns: Int) async throws {
        let (view, _) = try await Self.detail()
        let size = ScreenSize(rows: rows, columns: columns)
        var screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(snapshotMismatch(screen.text, named: "detail-\(columns)x\(rows)") == nil)
        // The keys that scroll the fields, not ↑↓ (which change person here).
        #expect(screen.line(rows - 2).hasPrefix("  fields 1–"))
        #expect(screen.line(rows - 2).contains("(more below: PgDn)"))
        #expect(!screen.line(rows - 2).contains("↓"))
        #expect(view.handle(.pageDown, screenSize: size))
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.line(rows - 2).contains("(more: PgUp PgDn)"))
        #expect(snapshotMismatch(screen.text, named: "detail-\(columns)x\(rows)-page2") == nil)
        #expect(view.handle(.end, screenSize: size))
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.line(rows - 2).contains("–15 of 15 (more above: PgUp)"))
        #expect(screen.text.contains("ID  id0"))
        #expect(snapshotMismatch(screen.text, named: "detail-\(columns)x\(rows)-end") == nil)
        // The title (the person's name) stays while the fields scroll.
        #expect(screen.line(2).hasPrefix("  Kent 佐藤"))
        view.handle(.pageUp, screenSize: size)
        view.handle(.home, screenSize: size)
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.line(4).contains("First name  Kent"))
        view.handle(.control("d"), screenSize: size)
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(!screen.line(4).contains("First name"))
        view.handle(.control("u"), screenSize: size)
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.line(4).contains("First name  Kent"))
    }

    @Test("long values wrap under their field by cells; wide characters whole, control characters visible")
    func wraps() async throws {
        let (view, _) = try await Self.detail()
        let screen = ViewSnapshotTests.draw(view, rows: 40, columns: 50)
        let text = screen.text
        #expect(text.contains("         Address  849 Crystal Street, Apartment\n                  12, Williston, Kentucky, 5580,\n"
                              + "                  United States of America\n"))
        #expect(text.contains("http://placehold.it/32x32␛[2J"))
        #expect(!(4..<38).contains { screen.line($0).contains("…") })  // nothing cut
        #expect(!screen.line(38).contains("fields"))  // everything fits: no scroll line
        for row in 0..<40 {
            let width = screen.cells[row].reduce(0) { $0 + ($1.text.isEmpty ? 0 : DisplayText.width(of: Character($1.text))) }
            #expect(width == 50, "row \(row) spans \(width) columns")
        }
    }

    @Test("↑ ↓ still step to the previous / next person, keeping the scroll")
    func personKeys() async throws {
        let (view, presenter) = try await Self.detail()
        let size = ScreenSize(rows: 14, columns: 80)
        let kent = presenter.position
        view.handle(.end, screenSize: size)
        view.handle(kent == 0 ? .down : .up, screenSize: size)
        #expect(presenter.position == 1 - kent)
        let screen = ViewSnapshotTests.draw(view, rows: 14, columns: 80)
        #expect(screen.line(2).hasPrefix("  Ada Zed"))
        #expect(screen.line(12).contains("–15 of 15"))  // Ada's fields are shorter: still at the end
        view.handle(kent == 0 ? .character("k") : .character("j"), screenSize: size)
        #expect(presenter.position == kent)
    }

    @Test("the wheel scrolls the fields only when they do not fit")
    func wheel() async throws {
        let (view, _) = try await Self.detail()
        let short = ScreenSize(rows: 14, columns: 80)
        #expect(view.handle(.mouse(MouseEvent(.wheelDown, row: 5, column: 5)), screenSize: short))
        var screen = ViewSnapshotTests.draw(view, rows: 14, columns: 80)
        #expect(screen.line(4).contains("Email"))
        #expect(view.handle(.mouse(MouseEvent(.wheelUp, row: 5, column: 5)), screenSize: short))
        screen = ViewSnapshotTests.draw(view, rows: 14, columns: 80)
        #expect(screen.line(4).contains("First name"))
        // When every field fits, the wheel walks people instead (handled, not passed on).
        #expect(view.handle(.mouse(MouseEvent(.wheelDown, row: 5, column: 5)), screenSize: ScreenSize(rows: 40, columns: 80)))
        #expect(!view.handle(.mouse(MouseEvent(.click, row: 5, column: 5)), screenSize: short))
    }

    @Test("the detail's help scrolls too", arguments: [(14, 80), (10, 40)])
    func help(rows: Int, columns: Int) async throws {
        let (view, _) = try await Self.detail()
        let size = ScreenSize(rows: rows, columns: columns)
        view.handle(.character("?"), screenSize: size)
        var screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(snapshotMismatch(screen.text, named: "detail-help-\(columns)x\(rows)") == nil)
        for _ in 0..<5 { view.handle(.pageDown, screenSize: size) }
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.text.contains("quit"))
        #expect(snapshotMismatch(screen.text, named: "detail-help-\(columns)x\(rows)-end") == nil)
        #expect(DetailView.keyTable.contains { $0.label == "Esc/←/h/⌫" && $0.keys.contains(.backspace) }, "help names h and Backspace")
        view.handle(.escape, screenSize: size)
        #expect(ViewSnapshotTests.draw(view, rows: rows, columns: columns).text.contains("First name"))
    }
}

@MainActor
@Suite("View keys")
struct ViewKeyTests {
    @Test("list keys become presenter intents")
    func listKeys() {
        let module = SpyListModule()
        let view = ListView(presenter: module)
        let size = ScreenSize(rows: 24, columns: 80)
        let keys: [Key] = [.down, .character("j"), .up, .character("k"), .pageDown, .control("f"), .pageUp, .control("b"),
                           .home, .character("g"), .end, .character("G"), .enter, .right, .character("l"),
                           .character("!"), .character("F"), .character("q"), .character("x")]
        for key in keys { view.handle(key, screenSize: size) }
        #expect(module.calls == [.move(1), .move(1), .move(-1), .move(-1), .move(20), .move(20), .move(-20), .move(-20),
                                 .first, .first, .last, .last, .open, .open, .open, .skipped, .counts, .quit])
    }

    @Test("the status bar's hints come from the key table")
    func hints() {
        #expect(ListView.hints.text == "⏎ open  / search  F counts  ? help  q quit")
        #expect(DetailView.hints.text == "↑↓ prev/next  Tab field  y copy  Esc back  ? help  q quit")
    }
}

@MainActor
@Suite("Search in the list view")
struct ListSearchViewTests {
    /// Columns of `screen`'s row `row` whose cells are drawn as a match.
    static func matchedText(_ screen: MemoryScreen, row: Int) -> String {
        let line = Array(screen.line(row))
        return String((0..<line.count).filter { [TextStyle.match, .selectedMatch].contains(screen.style(row: row, column: $0)) }
            .map { line[$0] })
    }

    @Test("a search's match is highlighted in every visible column, not only the name", arguments: [(24, 80), (24, 200)])
    func highlightsEveryColumn(size: (rows: Int, columns: Int)) throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        presenter.applyFilter(".info")  // Barnes Pickett's email only
        var screen = ViewSnapshotTests.draw(view, rows: size.rows, columns: size.columns)
        let barnes = try #require((0..<size.rows).first { screen.line($0).contains("Barnes Pickett") })
        #expect(Self.matchedText(screen, row: barnes) == ".info")
        presenter.applyFilter("comstar")  // bare: the company (flat list column), the email
        presenter.toggleGrouping()
        screen = ViewSnapshotTests.draw(view, rows: size.rows, columns: size.columns)
        let bertha = try #require((0..<size.rows).first { screen.line($0).contains("Bertha Irwin") })
        #expect(Self.matchedText(screen, row: bertha).lowercased().contains("comstar"))
        if size.columns >= 200 { #expect(Self.matchedText(screen, row: bertha) == "comstarCOMSTAR") }  // email, then company
        presenter.applyFilter("email:bertha")  // a field's term: its column, not the name
        screen = ViewSnapshotTests.draw(view, rows: size.rows, columns: size.columns)
        let row = try #require((0..<size.rows).first { screen.line($0).contains("Bertha Irwin") })
        #expect(Self.matchedText(screen, row: row) == (screen.line(row).contains("bertha.irwin@") ? "bertha" : ""))
    }

    @Test("while the prompt is open, letters are text, not commands")
    func promptKeys() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        let size = ScreenSize(rows: 24, columns: 80)
        for key in [Key.character("/"), .character("q"), .character("j"), .character("g"), .backspace, .backspace, .backspace,
                    .character("s"), .character("a")] {
            view.handle(key, screenSize: size)
        }
        let screen = MemoryScreen(rows: 24, columns: 80)
        view.draw(on: screen)
        #expect(screen.line(23).hasPrefix(" /sa "))
        #expect(screen.cursor == CellPosition(row: 23, column: 4))  // the terminal's cursor, after "sa"
        #expect(snapshotMismatch(screen.text, named: "list-search-prompt") == nil)
        // The match is highlighted in the name.
        let sanchez = try #require((0..<24).first { screen.line($0).contains("Vanessa Sanchez") })
        let column = screen.line(sanchez).distance(from: screen.line(sanchez).startIndex,
                                                   to: try #require(screen.line(sanchez).range(of: "Sa")).lowerBound)
        #expect([TextStyle.match, .selectedMatch].contains(screen.style(row: sanchez, column: column)))
        view.handle(.control("u"), screenSize: size)
        view.handle(.character("q"), screenSize: size)
        view.handle(.character("x"), screenSize: size)
        view.handle(.enter, screenSize: size)
        view.draw(on: screen)
        #expect(screen.text.contains("No people match 'qx'"))
        view.handle(.escape, screenSize: size)
        view.draw(on: screen)
        #expect(screen.line(23).hasPrefix(" 3/6"))  // Vanessa Sanchez, still selected
    }

    @Test("a query with an error: the other terms still filter, a mark under the bad term and the message above the prompt")
    func searchError() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        presenter.beginSearch()
        presenter.editSearch("comstar agee>3")
        let screen = ViewSnapshotTests.draw(view)
        #expect(snapshotMismatch(screen.text, named: "list-search-error") == nil)
        #expect(screen.line(22).hasPrefix("          ^~~~ unknown field 'agee'"))
        // A long line scrolls sideways: the mark follows the term.
        presenter.editSearch(String(repeating: "x ", count: 30) + "balance>abc")
        let scrolled = ViewSnapshotTests.draw(view)
        let prompt = scrolled.line(23)
        let column = prompt.distance(from: prompt.startIndex, to: try #require(prompt.range(of: "abc")).lowerBound)
        #expect(scrolled.line(22).dropFirst(column).hasPrefix("^~~ balance is an amount like"))
    }

    /// The seed list's view model, to show on a view driving a spy.
    static func seedModel() throws -> ListViewModel {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let wireframe = SpyListWireframe()
        return ListPresenter(interactor: ListInteractor(repository: directory.repository),
                             arrangement: directory.everyone, wireframe: wireframe).makeViewModel()
    }

    @Test("in a prompt, keys edit the line at the cursor; ^P ^N PgUp PgDn still move through the list")
    func promptEditingKeys() throws {
        let module = SpyListModule()
        let view = ListView(presenter: module)
        let size = ScreenSize(rows: 24, columns: 80)
        var model = try Self.seedModel()
        model.searchPrompt = "ab"
        view.show(model)
        let keys: [Key] = [.character("q"), .left, .right, .home, .control("a"), .end, .control("e"), .backspace, .delete,
                           .control("w"), .control("u"), .control("k"), .up, .down, .control("p"), .control("n"), .pageDown,
                           .pageUp, .enter, .escape]
        for key in keys { #expect(view.handle(key, screenSize: size)) }
        #expect(!view.handle(.tab, screenSize: size))
        #expect(module.calls == [
            .editPrompt(.insert("q")), .editPrompt(.moveLeft), .editPrompt(.moveRight), .editPrompt(.moveToStart),
            .editPrompt(.moveToStart), .editPrompt(.moveToEnd), .editPrompt(.moveToEnd), .editPrompt(.deleteBackward),
            .editPrompt(.deleteForward), .editPrompt(.deleteWordBackward), .editPrompt(.deleteToStart),
            .editPrompt(.deleteToEnd), .editPrompt(.previousEntry), .editPrompt(.nextEntry), .move(-1), .move(1), .move(20),
            .move(-20), .commitSearch, .cancelSearch,
        ])
    }

    @Test("the export prompt edits the same way; list moves do nothing there")
    func exportPromptKeys() throws {
        let module = SpyListModule()
        let view = ListView(presenter: module)
        let size = ScreenSize(rows: 24, columns: 80)
        var model = try Self.seedModel()
        model.exportPrompt = "people.csv"
        view.show(model)
        for key in [Key.control("w"), .character("j"), .up, .enter, .escape] { view.handle(key, screenSize: size) }
        #expect(!view.handle(.pageDown, screenSize: size))
        #expect(module.calls == [.editPrompt(.deleteWordBackward), .editPrompt(.insert("j")), .editPrompt(.previousEntry),
                                 .commitExport, .cancelExport])
    }

    @Test("a long search scrolls sideways in the prompt; the cursor stays in view and wide characters whole")
    func longPrompt() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        let size = ScreenSize(rows: 10, columns: 40)
        view.handle(.character("/"), screenSize: size)
        for character in "佐藤 abcdefghijklmnopqrstuvwxyz" { view.handle(.character(character), screenSize: size) }
        let screen = MemoryScreen(rows: 10, columns: 40)
        view.draw(on: screen)
        let line = screen.line(9)
        #expect(line.hasPrefix(" /…"))
        #expect(line.contains("xyz "))
        let cursor = try #require(screen.cursor)
        #expect(cursor.row == 9)
        #expect(screen.cells[9][cursor.column - 1].text == "z")
        view.handle(.home, screenSize: size)
        view.draw(on: screen)
        #expect(screen.line(9).hasPrefix(" /佐藤 abc"))
        #expect(screen.line(9).contains("…"))
        #expect(screen.cursor == CellPosition(row: 9, column: 2))
        // Every row still spans exactly 40 columns.
        let width = screen.cells[9].reduce(0) { $0 + ($1.text.isEmpty ? 0 : DisplayText.width(of: Character($1.text))) }
        #expect(width == 40)
    }

    @Test("Esc on an unfiltered list means back; Tab opens the overview")
    func escapeWithoutFilter() {
        let module = SpyListModule()
        let view = ListView(presenter: module)
        #expect(view.handle(.escape, screenSize: ScreenSize(rows: 24, columns: 80)))
        #expect(view.handle(.character("/"), screenSize: ScreenSize(rows: 24, columns: 80)))
        #expect(view.handle(.tab, screenSize: ScreenSize(rows: 24, columns: 80)))
        #expect(module.calls == [.back, .beginSearch, .companies])
    }
}

@MainActor
@Suite("Help overlay")
struct HelpOverlayTests {
    /// The list's help: its keys, the prompts', the chooser's, the sort
    /// menu's letters (and the lines for capitals, Esc/q and ?), the commands, the queries,
    /// the keys of every screen; each after a blank line and its heading.
    static let listHelpLines = ListView.keyTable.count + 2 + ListView.promptKeyTable.count + 2 + ColumnChooserView.keyTable.count
        + 2 + SortMenu.entries.count + 3 + 2 + CommandLineView.keyTable.count + 2 + ListCommandTable.commands.count
        + 2 + QueryGrammar.examples.count
        + 2 + EveryScreenKeys.keyTable.count

    @Test("? shows every key of the list from its key table; any key closes it")
    func listHelp() throws {
        let (view, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let size = ScreenSize(rows: 24, columns: 80)
        #expect(view.handle(.character("?"), screenSize: size))
        let screen = ViewSnapshotTests.draw(view)
        #expect(snapshotMismatch(screen.text, named: "list-help") == nil)
        // Every key is on one of its pages, then the sort menu's letters,
        // the commands and the search language, then the keys of every screen.
        var pages = [screen.text]
        let end = "–\(HelpOverlayTests.listHelpLines) of \(HelpOverlayTests.listHelpLines)"
        while !(pages.last ?? "").components(separatedBy: "\n")[0].contains(end), pages.count < 20 {
            #expect(view.handle(.pageDown, screenSize: size))
            pages.append(ViewSnapshotTests.draw(view).text)
        }
        let text = pages.joined(separator: "\n")
        #expect(text.contains("In the sort menu (o ascending, O descending)"))
        #expect(text.components(separatedBy: "\n").contains { $0.hasPrefix("  b  ") && $0.hasSuffix("  balance") })
        #expect(text.contains("In the command line (:)") && text.contains("The command line's commands"))
        #expect(text.contains(":sort FIELD [desc] [flat]"))
        #expect(text.contains("Search queries (also --filter)"))
        #expect(text.contains("age:30-39") && text.contains("-term -company:acme"))
        #expect(text.contains("On every screen") && text.contains("redraw the whole screen"))
        // Label and help on one line, side by side (both merely somewhere
        // on the pages would pass for almost any label).
        let lines = text.components(separatedBy: "\n")
        for binding in ListView.keyTable {
            let pattern = NSRegularExpression.escapedPattern(for: binding.label) + " +" + NSRegularExpression.escapedPattern(for: binding.help)
            let regex = try NSRegularExpression(pattern: pattern)
            #expect(lines.contains { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil },
                    "\(binding.label) is missing from help")
        }
        view.handle(.escape, screenSize: size)
        #expect(!ViewSnapshotTests.draw(view).text.contains("List keys"))
        #expect(ViewSnapshotTests.draw(view).text.contains("Bertha Irwin"))
    }

    @Test("on a short terminal the help scrolls with ↑ ↓ PgUp PgDn and says which lines show", arguments: [(14, 80), (10, 40)])
    func scrollingListHelp(rows: Int, columns: Int) throws {
        let (view, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let size = ScreenSize(rows: rows, columns: columns)
        view.handle(.character("?"), screenSize: size)
        var screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        let total = HelpOverlayTests.listHelpLines
        let height = rows - 3
        #expect(screen.line(0).contains("lines 1–\(height) of \(total)"))
        #expect(snapshotMismatch(screen.text, named: "list-help-\(columns)x\(rows)") == nil)
        // Every key of both tables can be reached by scrolling, and the end stops.
        var seen = Set<String>()
        for _ in 0..<(total / max(1, height - 1) + 2) {
            for row in 2..<(rows - 1) { seen.insert(screen.line(row)) }
            #expect(view.handle(.pageDown, screenSize: size))
            screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        }
        let text = seen.joined(separator: "\n")
        for binding in ListView.keyTable { #expect(text.contains(binding.label), "\(binding.label) never shown") }
        for binding in ListView.promptKeyTable { #expect(text.contains(binding.label), "\(binding.label) never shown") }
        #expect(screen.line(0).contains("\(total - height + 1)–\(total) of \(total)"))
        #expect(snapshotMismatch(screen.text, named: "list-help-\(columns)x\(rows)-end") == nil)
        view.handle(.up, screenSize: size)
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.line(0).contains("\(total - height)–\(total - 1) of \(total)"))
        for _ in 0..<total { view.handle(.pageUp, screenSize: size) }
        view.handle(.down, screenSize: size)
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.line(0).contains("lines 2–\(height + 1) of \(total)"))
        // less's keys scroll too: j down, g to the top.
        view.handle(.character("j"), screenSize: size)
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.line(0).contains("lines 3–\(height + 2) of \(total)"))
        view.handle(.character("g"), screenSize: size)
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(screen.line(0).contains("lines 1–\(height) of \(total)"))
        // Any other key closes it; the list is back.
        #expect(view.handle(.character("x"), screenSize: size))
        screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
        #expect(!screen.text.contains("List keys"))
        #expect(screen.text.contains("Bertha Irwin"))
    }

    @Test("q in the help closes it, as in less (it does not quit); the wheel scrolls it")
    func helpQuitAndWheel() {
        let module = SpyListModule()
        let view = ListView(presenter: module)
        let size = ScreenSize(rows: 10, columns: 40)
        view.handle(.character("?"), screenSize: size)
        view.handle(.mouse(MouseEvent(.wheelDown, row: 3, column: 3)), screenSize: size)
        #expect(view.help?.top == 3)
        view.handle(.character("q"), screenSize: size)
        #expect(view.help == nil)
        #expect(module.calls.isEmpty)
    }

    @Test("list keys for order, grouping and jumps reach the presenter")
    func arrangeKeys() {
        let module = SpyListModule()
        let view = ListView(presenter: module)
        let size = ScreenSize(rows: 24, columns: 80)
        for key in [Key.character("s"), .character("S"), .character("c"), .character("["), .character("]")] {
            view.handle(key, screenSize: size)
        }
        #expect(module.calls == [.cycleSort, .reverseSort, .toggleGrouping, .jumpToCompany(-1), .jumpToCompany(1)])
    }
}

@MainActor
@Suite("Clipboard")
struct ClipboardTests {
    @Test("OSC 52 carries the text base64-encoded, so nothing in it reaches the terminal raw")
    func osc52() {
        let screen = MemoryScreen(rows: 24, columns: 80)
        let clipboard = TerminalClipboard(screen: screen)
        #expect(clipboard.copy("ada@x.io") == .terminal)
        #expect(clipboard.copy("evil\u{1B}]0;x\u{07}") == .terminal)
        #expect(screen.controlSequences.map { String(decoding: $0, as: UTF8.self) } == [
            "\u{1B}]52;c;YWRhQHguaW8=\u{07}",
            "\u{1B}]52;c;ZXZpbBtdMDt4Bw==\u{07}",
        ])
    }
}

@MainActor
@Suite("Company overview view")
struct CompaniesViewTests {
    @Test("a table of companies with right-aligned figures")
    func table() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           shown: directory.everyone, wireframe: SpyCompaniesWireframe())
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        let screen = ViewSnapshotTests.draw(view)
        #expect(snapshotMismatch(screen.text, named: "companies-seed") == nil)
        #expect(screen.style(row: 2, column: 1) == .selected)
        #expect(screen.line(1).hasSuffix("Size") || screen.line(1).contains("Avg age  Size"))  // the bar's column has a title
    }

    @Test("a filter no one matches says so under the heads")
    func noMatch() async throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let none = try await directory.repository.search(SearchQuery("zzzz"), in: directory.everyone, within: nil)
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           shown: none, filter: "zzzz", wireframe: SpyCompaniesWireframe())
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        for (rows, columns) in [(24, 80), (12, 40)] {
            let screen = ViewSnapshotTests.draw(view, rows: rows, columns: columns)
            #expect(screen.line(2).contains("No one matches 'zzzz'"))
        }
    }
}

@MainActor
@Suite("Mouse in the list")
struct ListMouseTests {
    @Test("wheel scrolls, click selects (a header selects its first person), double click opens")
    func mouse() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let module = SpyListModule()
        let view = ListView(presenter: module)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        view.show(presenter.makeViewModel())
        view.draw(on: MemoryScreen(rows: 24, columns: 80))
        let size = ScreenSize(rows: 24, columns: 80)
        view.handle(.mouse(MouseEvent(.wheelDown, row: 5, column: 3)), screenSize: size)
        view.handle(.mouse(MouseEvent(.wheelUp, row: 5, column: 3)), screenSize: size)
        view.handle(.mouse(MouseEvent(.click, row: 4, column: 10)), screenSize: size)   // Cohen James
        view.handle(.mouse(MouseEvent(.click, row: 6, column: 10)), screenSize: size)   // PERMADYNE header
        view.handle(.mouse(MouseEvent(.doubleClick, row: 8, column: 10)), screenSize: size)  // Norton Curtis
        #expect(!view.handle(.mouse(MouseEvent(.click, row: 0, column: 10)), screenSize: size))  // the title bar
        #expect(!view.handle(.mouse(MouseEvent(.click, row: 20, column: 10)), screenSize: size))  // below the rows
        #expect(module.calls == [.move(3), .move(-3), .select(1), .select(3), .select(4), .open])
    }
}

@MainActor
@Suite("Mouse in the overview and the detail")
struct OverviewAndDetailMouseTests {
    @Test("in the overview the wheel moves, a click selects a company, a double click opens it; rows only")
    func overview() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let wireframe = SpyCompaniesWireframe()
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           shown: directory.everyone, wireframe: wireframe)
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        view.draw(on: MemoryScreen(rows: 24, columns: 80))
        let size = ScreenSize(rows: 24, columns: 80)
        view.handle(.mouse(MouseEvent(.wheelDown, row: 5, column: 3)), screenSize: size)
        #expect(presenter.selection == 2)  // three companies: clamped at the last
        view.handle(.mouse(MouseEvent(.wheelUp, row: 5, column: 3)), screenSize: size)
        #expect(presenter.selection == 0)
        view.handle(.mouse(MouseEvent(.click, row: 3, column: 10)), screenSize: size)  // PERMADYNE
        #expect(presenter.selection == 1)
        #expect(!view.handle(.mouse(MouseEvent(.click, row: 1, column: 10)), screenSize: size))  // the column heads
        #expect(!view.handle(.mouse(MouseEvent(.click, row: 10, column: 10)), screenSize: size))  // below the rows
        #expect(!view.handle(.mouse(MouseEvent(.click, row: 23, column: 10)), screenSize: size))  // the status bar
        #expect(presenter.selection == 1)
        view.handle(.mouse(MouseEvent(.doubleClick, row: 4, column: 10)), screenSize: size)  // RECRISYS
        let recrisys = try #require(directory.store.companies.firstIndex { $0.name == "RECRISYS" })
        #expect(wireframe.routes == [.people(companyID: recrisys)])
    }

    @Test("in the detail the wheel walks to the previous and next person")
    func detail() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: directory.repository, arrangement: directory.everyone),
                                        position: 1, wireframe: SpyDetailWireframe())
        let view = DetailView(presenter: presenter)
        presenter.attach(view: view)
        let size = ScreenSize(rows: 24, columns: 80)
        view.handle(.mouse(MouseEvent(.wheelDown, row: 5, column: 3)), screenSize: size)
        #expect(presenter.position == 2)
        view.handle(.mouse(MouseEvent(.wheelUp, row: 5, column: 3)), screenSize: size)
        view.handle(.mouse(MouseEvent(.wheelUp, row: 5, column: 3)), screenSize: size)
        #expect(presenter.position == 0)
    }
}

@MainActor
@Suite("Collapsed companies in the list view")
struct CollapsedViewTests {
    @Test("a collapsed company shows its header with a marker, selected when the selection rests on it")
    func collapsed() throws {
        let (view, presenter) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        view.handle(.character(" "), screenSize: ScreenSize(rows: 24, columns: 80))
        #expect(presenter.collapsedCompanies.count == 1)
        let screen = ViewSnapshotTests.draw(view)
        #expect(screen.line(2).hasPrefix("▸ COMSTAR (3)"))
        #expect(screen.style(row: 2, column: 0) == .selected)
        #expect(snapshotMismatch(screen.text, named: "list-collapsed") == nil)
    }
}

@Suite("Theme")
struct ThemeTests {
    @Test("NO_COLOR (any value, even empty) and --no-color turn colour off")
    func choose() {
        #expect(Theme.choose(environment: [:], noColorOption: false).usesColor)
        #expect(!Theme.choose(environment: ["NO_COLOR": "1"], noColorOption: false).usesColor)
        #expect(!Theme.choose(environment: ["NO_COLOR": ""], noColorOption: false).usesColor)
        #expect(!Theme.choose(environment: [:], noColorOption: true).usesColor)
    }

    @MainActor
    @Test("styles say what a cell is, so a theme can colour it: balances, headers, the selection")
    func semanticStyles() throws {
        let (view, _) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let screen = ViewSnapshotTests.draw(view)
        #expect(screen.style(row: 2, column: 0) == .header)
        #expect(screen.style(row: 4, column: 79) == .balance)
        #expect(screen.style(row: 3, column: 79) == .selected)
    }
}

@MainActor
@Suite("Export keys")
struct ExportKeyTests {
    @Test("e opens the name prompt; letters are the name; y answers the overwrite question")
    func keys() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let writer = InMemoryExportWriter(existing: ["a.csv"])
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe(), exportWriter: writer)
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        let size = ScreenSize(rows: 24, columns: 80)
        view.handle(.character("e"), screenSize: size)
        var screen = ViewSnapshotTests.draw(view)
        #expect(screen.line(23).hasPrefix(" export to: test.csv "))  // suggested from test.json
        #expect(screen.cursor == CellPosition(row: 23, column: 20))
        for key in [Key.control("u"), .character("a"), .character("."), .character("c"), .character("s"), .character("v")] {
            view.handle(key, screenSize: size)
        }
        screen = ViewSnapshotTests.draw(view)
        #expect(screen.line(23).hasPrefix(" export to: a.csv "))
        view.handle(.enter, screenSize: size)
        screen = ViewSnapshotTests.draw(view)
        #expect(screen.line(23).hasPrefix(" a.csv exists; overwrite? (y/n)"))
        view.handle(.character("y"), screenSize: size)
        screen = ViewSnapshotTests.draw(view)
        #expect(screen.line(23).contains("wrote 6 people to a.csv (csv)"))
        #expect(writer.files["a.csv"]?.isEmpty == false)
    }

    @Test("money is never cut: columns widen, and drop (age, active, average) when the terminal is narrow",
          arguments: [80, 60, 40])
    func wideMoney(columns: Int) throws {
        let big = "$92,233,720,368,547,756.99"
        let directory = try Fixtures.directory(json: Fixtures.array([
            Fixtures.record(first: "A", last: "One", company: "Huge", balance: big, index: 0),
            Fixtures.record(first: "B", last: "Two", company: "Huge", balance: big, index: 1),
        ]))
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           shown: directory.everyone, wireframe: SpyCompaniesWireframe())
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        let screen = ViewSnapshotTests.draw(view, rows: 10, columns: columns)
        #expect(screen.line(2).contains("$184,467,440,737,095,513.98"))
        #expect(!screen.line(2).contains("…"))
        #expect(screen.line(2).hasPrefix(" Hu"))
        #expect(DisplayText.width(screen.line(2).replacingOccurrences(of: " +$", with: "", options: .regularExpression)) <= columns)
        if columns == 80 { #expect(screen.line(2).contains(big)) }  // the average fits too
        if columns == 40 { #expect(!screen.line(1).contains("Avg age")) }
    }

    @Test("counts carry thousands separators everywhere: headers, positions, the overview")
    func thousands() throws {
        let big = (0..<1_200).map { Fixtures.record(first: "P\($0)", last: "Big", company: "AAA", index: $0) }
        let small = (0..<1_001).map { Fixtures.record(first: "S\($0)", last: "Small", company: "C\($0)", index: 1_200 + $0) }
        let json = Fixtures.array(big + small)
        let (view, _) = try ViewSnapshotTests.listView(json: json)
        let screen = ViewSnapshotTests.draw(view)
        #expect(screen.line(2).hasPrefix("AAA (1,200)"))
        #expect(screen.line(23).contains("1/2,201"))
        let directory = try Fixtures.directory(json: json)
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           shown: directory.everyone, wireframe: SpyCompaniesWireframe())
        let overview = CompaniesView(presenter: presenter)
        presenter.attach(view: overview)
        let table = ViewSnapshotTests.draw(overview)
        #expect(table.line(23).contains("1/1,002"))
        #expect(table.line(2).contains("1,200"))
    }

    @Test("at 40 columns the list's balance is never cut: the name gives way")
    func narrowBalance() throws {
        let json = Fixtures.array([Fixtures.record(first: "Neg", last: "Balance", balance: "-$92,233,720,368,547,758.06", index: 0)])
        let (view, _) = try ViewSnapshotTests.listView(json: json)
        let screen = ViewSnapshotTests.draw(view, rows: 10, columns: 40)
        #expect(screen.line(3).hasSuffix("-$92,233,720,368,547,758.06"))
        #expect(screen.line(3).hasPrefix("  Neg"))
    }

    @Test("the skipped records wrap a long reason instead of cutting it")
    func skippedWrap() throws {
        let records = [SkippedRecord(number: 13, line: 170, reason: "'balance' is too large (beyond ±$92,233,720,368,547,758.06)")]
        let view = SkippedRecordsView(sourceName: "x.json", records: records, total: 20, onBack: {}, onQuit: {})
        let screen = ViewSnapshotTests.draw(view, rows: 10, columns: 40)
        let text = (1...4).map { screen.line($0).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("$92,233,720,368,547,758.06)"))
        #expect(!(1...4).contains { screen.line($0).contains("…") })
    }

    @Test("the overview sorts by every figure, and the sorted column is never the one dropped at 40 columns")
    func overviewSortedColumnStays() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           shown: directory.everyone, wireframe: SpyCompaniesWireframe())
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        var labels: [String] = []
        for _ in 0..<6 {
            presenter.cycleSortOrder()
            labels.append(presenter.makeViewModel().sortLabel)
            if presenter.sortOrder.key == .averageBalance {
                let narrow = ViewSnapshotTests.draw(view, rows: 10, columns: 40)
                #expect(narrow.line(1).contains("Average"))
                // Highest average first: COMSTAR's $2,496.07.
                #expect(presenter.makeViewModel().rows.first?.title == "COMSTAR")
            }
        }
        #expect(labels == ["headcount ↓", "active ↓", "total balance ↓", "average balance ↓", "average age ↓", "name ↑"])
    }
}

@MainActor
@Suite("Frequency view")
struct FrequencyViewTests {
    static func view(field: SummaryField, sort: Int = 0, json: String = RepositoryContract.frequencyPeople) throws
        -> (FrequencyView, FrequencyPresenter) {
        let directory = try Fixtures.directory(json: json)
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: directory.repository),
                                           field: field, shown: directory.everyone, wireframe: SpyFrequencyWireframe())
        let view = FrequencyView(presenter: presenter)
        presenter.attach(view: view)
        for _ in 0..<sort { presenter.cycleSortOrder() }
        return (view, presenter)
    }

    @Test("at 80x24: a row per value with people, share, total, average and a bar against the largest")
    func table() throws {
        let (view, _) = try Self.view(field: .ageBand, json: Fixtures.seedJSON)
        let screen = ViewSnapshotTests.draw(view)
        #expect(snapshotMismatch(screen.text, named: "frequency-age") == nil)
        #expect(screen.line(0).contains("counts by age band"))
        #expect(screen.line(1).contains("Average"))
        #expect(screen.line(3).hasPrefix(" 30–39"))
        func trimmed(_ row: Int) -> String { String(screen.line(row).reversed().drop { $0 == " " }.reversed()) }
        #expect(trimmed(3).hasSuffix("  " + String(repeating: "█", count: 11)))  // the largest (5): a full bar
        #expect(trimmed(2).hasSuffix("$3,019.42  ██▎"))  // 1 of 5: 18 eighths of 88
        #expect(screen.style(row: 2, column: 1) == .selected)
        #expect(screen.line(23).contains("by age band · value ↑"))
        #expect(screen.line(23).contains("f field"))
    }

    @Test("narrow: the bar goes first, then average and share; the sorted column and people stay")
    func narrow() throws {
        let (view, _) = try Self.view(field: .balanceBand, sort: 3)  // average balance ↓ (largest first)
        let wide = ViewSnapshotTests.draw(view, columns: 100)
        #expect(wide.line(1).contains("Average") && wide.line(1).contains("Share") && wide.text.contains("█"))
        let screen = ViewSnapshotTests.draw(view, columns: 44)
        #expect(snapshotMismatch(screen.text, named: "frequency-narrow") == nil)
        #expect(screen.line(1).contains("People"))
        #expect(screen.line(1).contains("Average"))  // sorted on: kept
        #expect(!screen.line(1).contains("Share"))
        #expect(!screen.text.contains("█"))
    }

    @Test("where only ASCII can be drawn (a C locale), every part of a bar is a #")
    func asciiBars() {
        let bar = BarText.bar(count: 15, largest: 16, cells: 3)
        #expect(bar == "██▉")
        #expect(bar.map { CursesScreen.asciiStandIn(for: $0, width: 1) }.joined() == "###")
        #expect(CursesScreen.asciiStandIn(for: "▏", width: 1) == "#")
        // The unsent mark (⇡) reads as the sort arrow's stand-in does, beside the mark's `*`.
        #expect(["●", "⇡"].map { CursesScreen.asciiStandIn(for: $0, width: 1) } == ["*", "^"])
    }

    @Test("keys: f / F change the field, s sorts, Esc clears a filter else goes back, Enter opens")
    func keys() throws {
        let (view, presenter) = try Self.view(field: .company)
        let size = ScreenSize(rows: 24, columns: 80)
        view.handle(.character("f"), screenSize: size)
        #expect(presenter.field == .city)
        view.handle(.character("F"), screenSize: size)
        view.handle(.character("F"), screenSize: size)
        #expect(presenter.field == .manager, "F from the company: the manager, last of the cycle")
        view.handle(.character("F"), screenSize: size)
        #expect(presenter.field == .balanceBand)
        view.handle(.character("s"), screenSize: size)
        #expect(presenter.sortOrder.key == .headcount)
        view.handle(.character("?"), screenSize: size)
        let help = ViewSnapshotTests.draw(view)
        #expect(help.text.contains("count by the next field"))
    }
}

@MainActor
@Suite("Status-bar hints")
struct StatusHintsTests {
    let hints = StatusHints([.init("⏎ open"), .init("/ search"), .init("F counts"), .init("? help"),
                             .init("Esc counts", keep: 1), .init("q quit", keep: 2)])

    @Test("whole hints give way, ⏎ open and / search first, the way back and q quit last")
    func dropOrder() {
        #expect(hints.fitting(columns: 54) == "⏎ open  / search  F counts  ? help  Esc counts  q quit")
        #expect(hints.fitting(columns: 53) == "/ search  F counts  ? help  Esc counts  q quit")
        #expect(hints.fitting(columns: 45) == "F counts  ? help  Esc counts  q quit")
        #expect(hints.fitting(columns: 26) == "? help  Esc counts  q quit")
        #expect(hints.fitting(columns: 25) == "Esc counts  q quit")
        #expect(hints.fitting(columns: 17) == "q quit")
        #expect(hints.fitting(columns: 5) == "")
    }

    @Test("the key tables rank their ways out: q quit last, then Esc and ←")
    func tablesRankWaysOut() {
        #expect(ListView.countsListHints.fitting(columns: 18) == "Esc counts  q quit")
        #expect(ListView.filteredHints.fitting(columns: 17) == "Esc clear  q quit")
        #expect(DetailView.hints.fitting(columns: 16) == "Esc back  q quit")
        #expect(FrequencyView.hints.fitting(columns: 16) == "Tab back  q quit")
    }

    /// A list from the counts (a value's, under its filter): the status takes
    /// the room, and the hints that do not fit go whole.
    func valueList(filter: String?, columns: Int, searcher: any ListSearchScheduling = ImmediateSearchScheduler()) throws -> MemoryScreen {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: searcher),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe(), scope: ListScope(title: "counts by state", parent: "counts", filterIsScope: true))
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        presenter.applyFilter(filter)
        return ViewSnapshotTests.draw(view, rows: 8, columns: columns)
    }

    @Test("a filter not searched yet says searching, not filter, at 80 columns and at 40")
    func filterSearching() throws {
        let wide = try valueList(filter: #"state="Kansas""#, columns: 80, searcher: ManualSearchScheduler())
        #expect(wide.line(7).contains(#"1/6 · COMSTAR · last name ↑ · searching: state="Kansas""#), "\(wide.line(7))")
        let narrow = try valueList(filter: #"state="Kansas""#, columns: 40, searcher: ManualSearchScheduler())
        #expect(narrow.line(7).contains("searching:"), "\(narrow.line(7))")
        let done = try valueList(filter: #"state="Kansas""#, columns: 80)
        #expect(done.line(7).contains(#"filter: state="Kansas""#) && !done.line(7).contains("searching"))
    }

    @Test("at 80 and 50 columns the status bar shows whole hints only, Esc counts and q quit kept longest")
    func wholeHints() throws {
        let wide = try valueList(filter: #"state="Kansas""#, columns: 80)
        #expect(snapshotMismatch(wide.text, named: "list-hints-80") == nil)
        #expect(wide.line(7).hasSuffix("  Esc counts  q quit "))
        #expect(!wide.line(7).contains("…"))
        let narrow = try valueList(filter: nil, columns: 50)  // as a company's list from the counts
        #expect(snapshotMismatch(narrow.text, named: "list-hints-50") == nil)
        #expect(narrow.line(7).hasSuffix(" Esc counts  q quit "))
        #expect(!narrow.line(7).contains("…"))
    }
}
