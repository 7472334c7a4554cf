import Testing
import TestSupport
@testable import RosterCore
@testable import RosterTUI

/// The list's columns and marks on an in-memory screen at 80, 120 and 200
/// columns, compared with committed snapshots.
@MainActor
@Suite("List columns and marks on screen")
struct ListColumnsSnapshotTests {
    /// The seed, flat and sorted by age (descending), two people marked,
    /// one long and wide-charactered city to be cut.
    static func markedList() throws -> (ListView, ListPresenter) {
        let json = Fixtures.seedJSON.replacingOccurrences(of: "Concho, Arizona", with: "東京都千代田区丸の内一丁目 Extremely Long, Tokyo")
        let (view, presenter) = try ViewSnapshotTests.listView(json: json)
        presenter.toggleMark()
        presenter.moveSelection(by: 2)
        presenter.toggleMark()
        return (view, presenter)
    }

    @Test("columns appear as the terminal widens; marked rows show ● and the count", arguments: [80, 120, 200])
    func widths(columns: Int) throws {
        let (view, _) = try Self.markedList()
        let screen = ViewSnapshotTests.draw(view, rows: 14, columns: columns)
        #expect(snapshotMismatch(screen.text, named: "list-columns-\(columns)") == nil)
        #expect(screen.line(3).hasPrefix("● Bertha Irwin"))
        #expect(screen.style(row: 3, column: 0) == .marked)
        #expect(screen.line(13).contains("2 marked"))
    }

    @Test("rows edited offline and not sent show ⇡ (●⇡ when marked too); the status line counts them")
    func unsentRows() throws {
        let (view, presenter) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let people = presenter.rows.compactMap { row -> ListedPerson? in
            if case .person(let person) = row { return person.person.value } else { return nil }
        }
        let (first, second) = (people[0], people[1])
        presenter.session.unsent = UnsentEdits(people: [first.recordID, second.recordID], count: 3)
        presenter.toggleMark()  // the first person, selected
        presenter.marksMayHaveChanged()
        let screen = ViewSnapshotTests.draw(view, rows: 14, columns: 80)
        let lines = (0..<14).map(screen.line)
        #expect(lines.contains { $0.hasPrefix("●⇡" + first.name) }, "\(screen.text)")
        #expect(lines.contains { $0.hasPrefix("⇡ " + second.name) }, "\(screen.text)")
        #expect(lines.filter { $0.hasPrefix("⇡") || $0.hasPrefix("●⇡") }.count == 2)
        #expect(screen.line(13).contains("1 marked · 3 unsent ⇡"), "\(screen.text)")
    }

    @Test("the flat list sorted by age shows the company and Age ↓")
    func flatByAge() throws {
        let json = Fixtures.seedJSON
        let directory = try Fixtures.directory(json: json, name: "people.json")
        let arranged = directory.repository.arrange(sort: SortOrder(.age, descending: true), byCompany: false, company: nil)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: arranged, wireframe: SpyListWireframe())
        var choice = ColumnChoice.standard
        choice.toggle(at: 1)  // age hidden: shown anyway, it is sorted on
        presenter.setColumns(choice)
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        let screen = ViewSnapshotTests.draw(view, rows: 12, columns: 120)
        #expect(snapshotMismatch(screen.text, named: "list-columns-flat-age") == nil)
        #expect(screen.line(1).contains("Age ↓") && screen.line(1).contains("Company"))
    }

    @Test("the flat list shows the company column and the selected person's company at 80x24 and 40x12", arguments: [(24, 80), (12, 40)])
    func flatListCompany(size: (rows: Int, columns: Int)) async throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON, name: "people.json")
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        presenter.toggleGrouping()
        presenter.selectFirst()
        let screen = ViewSnapshotTests.draw(view, rows: size.rows, columns: size.columns)
        #expect(screen.line(1).contains("Company"))
        let company = try #require(try await directory.repository.rows(in: presenter.displayed, positions: 0..<1).first?.company)
        #expect(screen.line(3).contains(String(company.prefix(5))))
        if size.columns >= 80 { #expect(screen.line(size.rows - 1).contains(company)) }
        #expect(!screen.line(size.rows - 1).contains("Everyone"))
    }

    @Test("the chooser says which ticked columns have no room at this width")
    func chooserSaysNoRoom() throws {
        let (list, presenter) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        final class Output: ColumnChooserOutput {
            func columnsChanged(_ choice: ColumnChoice) {}
            func sortChosen(_ column: ListColumn) {}
            func columnChooserClosed() {}
        }
        let output = Output()
        let chooser = ColumnChooserPresenter(choice: presenter.columnChoice, sorted: .name, output: output)
        let view = ColumnChooserView(presenter: chooser, background: list) { list.placedColumns }
        chooser.attach(view: view)
        let narrow = ViewSnapshotTests.draw(view, rows: 24, columns: 80).text
        #expect(narrow.contains("[x] Phone (no room at this width)") && narrow.contains("[x] City (no room at this width)"))
        #expect(narrow.contains("[x] Email  ") && narrow.contains("[x] Company (flat list only)"))
        let wide = ViewSnapshotTests.draw(view, rows: 24, columns: 200).text
        #expect(!wide.contains("no room") && wide.contains("[x] Phone  "))
        let contacts = FieldsInUse(textFields: TextField.bit(.email) | TextField.bit(.phone), age: false, active: false, index: false)
        let contactsChooser = ColumnChooserPresenter(choice: presenter.columnChoice, sorted: .name, output: output, fieldsInUse: contacts)
        let contactsView = ColumnChooserView(presenter: contactsChooser, background: list) { list.placedColumns }
        contactsChooser.attach(view: contactsView)
        let empty = ViewSnapshotTests.draw(contactsView, rows: 24, columns: 200).text
        #expect(empty.contains("[x] Age (none here)") && empty.contains("[x] Balance (none here)") && empty.contains("[x] Phone  "))
    }

    @Test("? in the chooser lists its keys, s among them; the next key closes the list, not the chooser")
    func chooserHelp() throws {
        let (list, presenter) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        final class Output: ColumnChooserOutput {
            var sorted: [ListColumn] = []
            func columnsChanged(_ choice: ColumnChoice) {}
            func sortChosen(_ column: ListColumn) { sorted.append(column) }
            func columnChooserClosed() {}
        }
        let output = Output()
        let chooser = ColumnChooserPresenter(choice: presenter.columnChoice, sorted: .name, output: output)
        let view = ColumnChooserView(presenter: chooser, background: list)
        chooser.attach(view: view)
        let size = ScreenSize(rows: 24, columns: 80)
        #expect(ViewSnapshotTests.draw(view).text.contains("s sort by it  ? all keys"))
        #expect(view.handle(.character("?"), screenSize: size))
        let help = ViewSnapshotTests.draw(view).text
        #expect(help.contains("Column chooser keys") && help.contains("sort the list by it (again: the other way)"))
        #expect(view.handle(.character("s"), screenSize: size))  // closes the help only
        #expect(output.sorted.isEmpty)
        #expect(!ViewSnapshotTests.draw(view).text.contains("Column chooser keys"))
        #expect(view.handle(.character("s"), screenSize: size))
        #expect(output.sorted == [.email])
    }

    @Test("the column chooser draws over the list, with its keys; Esc puts back, Enter keeps")
    func chooser() throws {
        let (presenter, output, chooser, view) = try Self.chooserOverSeedList()
        let size = ScreenSize(rows: 24, columns: 80)
        for key in [Key.character(" "), .down, .down, .character("K")] { #expect(view.handle(key, screenSize: size)) }
        let screen = ViewSnapshotTests.draw(view)
        #expect(snapshotMismatch(screen.text, named: "list-column-chooser") == nil)
        #expect(!screen.line(1).contains("Email"))
        // The picked line is highlighted inside the box, never its border.
        let picked = try #require((0..<24).first { screen.style(row: $0, column: 78) == .selected })
        let left = try #require(screen.line(picked).firstIndex(of: "│")).utf16Offset(in: screen.line(picked))
        #expect(screen.style(row: picked, column: left) != .selected && screen.style(row: picked, column: 79) != .selected)
        #expect(screen.style(row: picked, column: left + 1) == .selected && screen.style(row: picked, column: 78) == .selected)
        // A short terminal: every column and the keys still show, on one line.
        let short = ViewSnapshotTests.draw(view, rows: 12, columns: 40).text
        #expect(short.contains("Columns 1–7 of 13"))  // the ones around the cursor
        #expect(short.contains("[x] Balance") && short.contains("[ ] Email") && short.contains("⏎/q keep  Esc put back"))
        #expect(view.handle(.shiftDown, screenSize: size) && view.handle(.shiftUp, screenSize: size))
        #expect(chooser.cursor == 1)
        view.handle(.escape, screenSize: size)
        #expect(output.closed)
        #expect(presenter.columnChoice == .standard)
    }

    /// The chooser over the six people's list, its output wired to the list as the wireframe wires it.
    static func chooserOverSeedList() throws -> (ListPresenter, ChooserToList, ColumnChooserPresenter, ColumnChooserView) {
        let (list, presenter) = try ViewSnapshotTests.listView(json: Fixtures.seedJSON)
        let output = ChooserToList(presenter)
        let chooser = ColumnChooserPresenter(choice: presenter.columnChoice, sorted: .name, output: output)
        let view = ColumnChooserView(presenter: chooser, background: list)
        chooser.attach(view: view)
        return (presenter, output, chooser, view)
    }

    @Test("q in the column chooser keeps the columns and closes it, as Enter does")
    func chooserQuitsWithQ() throws {
        let (presenter, output, _, view) = try Self.chooserOverSeedList()
        let size = ScreenSize(rows: 24, columns: 80)
        #expect(view.handle(.character(" "), screenSize: size))
        let chosen = presenter.columnChoice
        #expect(chosen != .standard)
        #expect(view.handle(.character("q"), screenSize: size))
        #expect(output.closed)
        #expect(presenter.columnChoice == chosen, "kept, not put back")
    }
}

/// The chooser's output wired to a list presenter, as the wireframe wires it.
@MainActor
final class ChooserToList: ColumnChooserOutput {
    let list: ListPresenter
    var closed = false
    init(_ list: ListPresenter) { self.list = list }
    func columnsChanged(_ choice: ColumnChoice) { list.setColumns(choice) }
    func sortChosen(_ column: ListColumn) { list.sort(by: column) }
    func columnChooserClosed() { closed = true }
}
