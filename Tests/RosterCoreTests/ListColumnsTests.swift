import Testing
import TestSupport
@testable import RosterCore

@Suite("List columns")
struct ListColumnsTests {
    func columns(_ width: Int, choice: ColumnChoice = .standard, sort: SortOrder = .byLastName, byCompany: Bool = true,
                 balance: Int = 9) -> [ListColumn] {
        ListColumns(choice: choice, sort: sort, byCompany: byCompany).layout(width: width, balanceWidth: balance).map(\.column)
    }

    @Test("more columns appear as the terminal widens, in the chosen order, the name first")
    func widths() {
        #expect(columns(80) == [.name, .email, .age, .active, .balance])  // the phone does not fit: the ones after it wait too
        #expect(columns(120) == [.name, .email, .age, .active, .phone, .city, .balance])
        #expect(columns(200) == [.name, .email, .age, .active, .phone, .city, .balance])
        #expect(columns(200, byCompany: false) == [.name, .email, .age, .active, .phone, .company, .city, .balance])
        #expect(columns(40) == [.name, .balance])
    }

    @Test("a column no one in the source has a value in is left out (a vCard's age, activity, balance), unless sorted on")
    func columnsNoOneHas() {
        let contacts = FieldsInUse(textFields: TextField.bit(.email) | TextField.bit(.phone) | TextField.bit(.address),
                                   age: false, active: false, index: false)
        let shown = ListColumns(choice: .standard, sort: .byLastName, byCompany: true, fieldsInUse: contacts)
        #expect(shown.layout(width: 120, balanceWidth: 9).map(\.column) == [.name, .email, .phone, .city])
        #expect(shown.sortKeys == [.lastName, .firstName, .email, .phone, .city], "s passes over them too")
        let sortedByAge = ListColumns(choice: .standard, sort: SortOrder(.age), byCompany: true, fieldsInUse: contacts)
        #expect(sortedByAge.layout(width: 120, balanceWidth: 9).map(\.column).contains(.age))
        #expect(ListColumn.age.hasValues(in: .all) && !ListColumn.balance.hasValues(in: contacts) && ListColumn.name.hasValues(in: contacts))
    }

    @Test("the flat list shows the company at every width (narrowed on a small screen), unless hidden")
    func flatListCompanyAtEveryWidth() {
        for width in [30, 40, 60, 80, 100, 120, 200] {
            #expect(columns(width, byCompany: false).contains(.company), "at \(width) columns")
            #expect(!columns(width).contains(.company), "grouped, at \(width) columns")
        }
        let narrow = ListColumns(choice: .standard, sort: .byLastName, byCompany: false).layout(width: 40, balanceWidth: 9)
        let name = narrow.first { $0.column == .name }?.width ?? 0
        #expect(name >= 10 && (narrow.first { $0.column == .company }?.width ?? 0) >= 6)
        var hidden = ColumnChoice.standard
        hidden.toggle(at: 4)  // company hidden
        #expect(!columns(80, choice: hidden, byCompany: false).contains(.company))
    }

    @Test("cells do not overlap and fill the width exactly; the name keeps its minimum")
    func geometry() {
        for width in [40, 80, 120, 200] {
            let placed = ListColumns(choice: .standard, sort: .byLastName, byCompany: false).layout(width: width, balanceWidth: 9)
            #expect(placed[0].start == ListColumns.leftMargin)
            // The flat list's company narrows the name below its minimum only when narrow.
            #expect(placed[0].width >= ListColumns.nameMinimum || placed.count <= 2 || (width < 60 && placed[0].width >= 10))
            for (left, right) in zip(placed, placed.dropFirst()) { #expect(left.start + left.width + ListColumns.gap == right.start) }
            #expect(placed.last.map { $0.start + $0.width } == width)
        }
    }

    @Test("the sorted column is always shown, even hidden or crowded out, and titled with its direction")
    func sortedColumnAlwaysShown() {
        var choice = ColumnChoice.standard
        choice.toggle(at: 1)  // age hidden
        #expect(!columns(200, choice: choice).contains(.age))
        let byAge = SortOrder(.age, descending: true)
        #expect(columns(200, choice: choice, sort: byAge).contains(.age))
        // At 40 columns only the sorted column and the balance fit beside the name.
        var hidden = ColumnChoice.standard
        hidden.toggle(at: 3)  // phone hidden
        let byBalance = SortOrder(.balance)
        #expect(columns(44, choice: hidden, sort: byBalance) .contains(.balance))
        let layout = ListColumns(choice: choice, sort: byAge, byCompany: true)
        #expect(layout.title(of: .age) == "Age ↓")
        #expect(layout.title(of: .email) == "Email")
        #expect(ListColumns(choice: choice, sort: SortOrder(.firstName), byCompany: true).title(of: .name) == "First name ↑")
    }

    @Test("the user's order is the order on screen")
    func orderRespected() {
        var choice = ColumnChoice.standard
        choice.move(at: 6, by: -6)  // balance first
        choice.move(at: 6, by: -5)  // city second
        #expect(choice.shown.prefix(2) == [.balance, .city])
        #expect(columns(120, choice: choice) == [.name, .balance, .city, .email, .age, .active, .phone])
    }

    @Test("wide: each column is as wide as its widest value on screen (a phone is never cut), never stretched; blank cells stay at the end")
    func widestValuesFirst() throws {
        let layout = ListColumns(choice: .standard, sort: .byLastName, byCompany: false)
            .layout(width: 200, balanceWidth: 9, widest: [.name: 14, .phone: 24, .email: 35, .city: 12, .company: 10, .age: 2, .active: 3])
        let width = { (column: ListColumn) in layout.first { $0.column == column }?.width ?? 0 }
        #expect(width(.phone) == 24 && width(.email) == 35 && width(.city) == 12)
        #expect(width(.company) == 10 && width(.age) == 3 && width(.active) == 6)  // no narrower than their titles
        #expect(width(.name) == ListColumns.nameMaximum)
        #expect((layout.last.map { $0.start + $0.width } ?? 0) < 200)
        // Capped: a 300-cell address does not take the row.
        let capped = ListColumns(choice: .standard, sort: .byLastName, byCompany: false)
            .layout(width: 120, balanceWidth: 9, widest: [.phone: 300])
        #expect(capped.first { $0.column == .phone }.map(\.width) ?? 0 <= ListColumns.widestValue)
    }

    @Test("the user's order is kept: the first column that does not fit whole is cut to the room the name leaves, and ends the row")
    func dropsFromTheEnd() {
        var choice = ColumnChoice.standard
        choice.move(at: 4, by: -4)  // company, email, age, active, phone, …
        choice.move(at: 4, by: -2)
        #expect(choice.shown.prefix(3) == [.company, .email, .phone])
        let layout = ListColumns(choice: choice, sort: .byLastName, byCompany: false).layout(width: 100, balanceWidth: 9)
        #expect(layout.map(\.column) == [.name, .company, .email, .phone, .balance])
        let phone = layout.first { $0.column == .phone }
        #expect(phone.map(\.width) ?? 0 >= 14 && phone.map(\.width) ?? 99 < ListColumn.phone.width, "phone cut, not left out")
        #expect(layout.first { $0.column == .name }?.width == ListColumns.nameMinimum)
        // Email first and too wide: cut to what the name leaves; nothing after it shows, not even Age.
        let sixty = ListColumns(choice: .standard, sort: .byLastName, byCompany: true).layout(width: 60, balanceWidth: 9)
        #expect(sixty.map(\.column) == [.name, .email, .balance])
        #expect(sixty.first { $0.column == .name }?.width == ListColumns.nameMinimum)
        // Too little left to read (under 14 cells): left out, as before.
        #expect(columns(46) == [.name, .balance])
    }

    @Test("state, zip, address, eye color, fruit and the record id are choosable, hidden until ticked, even in an older remembered choice")
    func choosableColumns() throws {
        let added: [ListColumn] = [.state, .zip, .address, .text(.eyeColor), .text(.favoriteFruit), .recordID]
        #expect(ColumnChoice.standard.entries.suffix(6).map(\.column) == added)
        #expect(ColumnChoice.standard.shown.allSatisfy { !added.contains($0) })
        #expect(ColumnChoice(remembered: ["email", "-phone"]).shown.allSatisfy { !added.contains($0) })
        var choice = ColumnChoice.standard
        let state = try #require(choice.entries.firstIndex { $0.column == .state })
        choice.toggle(at: state)
        choice.move(at: state, by: -state)
        #expect(columns(120, choice: choice).prefix(2) == [.name, .state])
        let person = ListedPerson(id: PersonID(0), position: 0, companyID: 0, firstName: "A", lastName: "B", email: "", balance: "",
                                  address: "303 Vermont Street, Concho, Arizona, 1707",
                                  others: [.eyeColor: "green", .favoriteFruit: "banana", .id: "58f9"])
        #expect(added.map { $0.text(of: person) } == ["Arizona", "1707", "303 Vermont Street, Concho, Arizona, 1707", "green", "banana", "58f9"])
        #expect(added.map(\.title) == ["State", "Zip", "Address", "Eye color", "Fruit", "ID"])
    }

    @Test("a huge balance is never cut at 40 columns: the name gives way")
    func hugeBalance() {
        let placed = ListColumns(choice: .standard, sort: .byLastName, byCompany: true).layout(width: 40, balanceWidth: 27)
        #expect(placed.map(\.column) == [.name, .balance])
        #expect(placed.last?.width == 27)
    }

    @Test("a remembered choice round-trips; unknown names are dropped and new columns added")
    func remembered() {
        var choice = ColumnChoice.standard
        choice.toggle(at: 0)
        choice.move(at: 3, by: -3)
        #expect(ColumnChoice(remembered: choice.remembered) == choice)
        let old = ColumnChoice(remembered: ["-phone", "bogus", "city", "city", "name"])
        #expect(old.entries.prefix(2) == [ColumnChoice.Entry(.phone, isShown: false), ColumnChoice.Entry(.city)])
        #expect(old.entries.count == ListColumn.allCases.count - 1)
    }
}

@MainActor
final class RecordingColumnChooserOutput: ColumnChooserOutput {
    enum Call: Equatable { case changed([String]), sorted(ListColumn), closed }
    var calls: [Call] = []
    func columnsChanged(_ choice: ColumnChoice) { calls.append(.changed(choice.remembered)) }
    func sortChosen(_ column: ListColumn) { calls.append(.sorted(column)) }
    func columnChooserClosed() { calls.append(.closed) }
}

@MainActor
final class SpyColumnChooserView: ColumnChooserViewInterface {
    var models: [ColumnChooserViewModel] = []
    func show(_ model: ColumnChooserViewModel) { models.append(model) }
}

@MainActor
@Suite("Column chooser presenter")
struct ColumnChooserPresenterTests {
    let output = RecordingColumnChooserOutput()
    let view = SpyColumnChooserView()

    func chooser(sorted: ListColumn = .name) -> ColumnChooserPresenter {
        let presenter = ColumnChooserPresenter(choice: .standard, sorted: sorted, output: output)
        presenter.attach(view: view)
        return presenter
    }

    @Test("Space hides the column under the cursor, K/J move it; each change goes out at once; Enter keeps")
    func toggleAndMove() {
        let presenter = chooser()
        presenter.moveCursor(by: 1)
        presenter.toggle()
        presenter.moveColumn(by: 1)
        presenter.moveCursor(by: 4)  // the balance
        presenter.moveColumn(by: -1)
        presenter.keep()
        let hidden = ["-state", "-zip", "-address", "-eyeColor", "-favoriteFruit", "-recordID"]
        #expect(output.calls == [
            .changed(["email", "-age", "active", "phone", "company", "city", "balance"] + hidden),
            .changed(["email", "active", "-age", "phone", "company", "city", "balance"] + hidden),
            .changed(["email", "active", "-age", "phone", "company", "balance", "city"] + hidden),
            .closed,
        ])
        #expect(view.models.last?.cursor == 5)
        #expect(view.models.last?.rows.prefix(7).map(\.title) == ["Email", "Active", "Age", "Phone", "Company", "Balance", "City"])
    }

    @Test("Esc puts back the columns from before C")
    func cancel() {
        let presenter = chooser(sorted: .balance)
        presenter.toggle()
        presenter.cancel()
        #expect(output.calls.suffix(2) == [.changed(ColumnChoice.standard.remembered), .closed])
        #expect(view.models.last?.rows.first { $0.column == .balance }?.isSorted == true)
    }

    @Test("s sorts the list by the column under the cursor, shown or hidden, and marks it sorted")
    func sortByColumn() {
        let presenter = chooser()
        presenter.moveCursor(by: 7)  // State, hidden by default
        presenter.sortByColumn()
        #expect(output.calls == [.sorted(.state)])
        let rows = view.models.last?.rows ?? []
        #expect(rows.filter(\.isSorted).map(\.column) == [.state])
        #expect(rows.first { $0.column == .state }?.isShown == false)
    }
}

@MainActor
@Suite("Sorting by any column")
struct AnyColumnSortTests {
    @Test("s goes through last name, first name, then the shown columns in the user's order; the flat list adds the company")
    func cycle() {
        var columns = ListColumns(choice: .standard, sort: .byLastName, byCompany: true)
        var labels: [String] = []
        for _ in 0..<9 {
            labels.append(columns.sort.label)
            columns.sort = columns.nextSort
        }
        #expect(labels == ["last name ↑", "first name ↑", "email ↑", "age ↑", "active ↑", "phone ↑", "city ↑", "balance ↑",
                           "last name ↑"])
        let flat = ListColumns(choice: .standard, sort: SortOrder(.phone, descending: true), byCompany: false)
        #expect(flat.nextSort == SortOrder(.company))
        var moved = ColumnChoice.standard
        moved.toggle(at: 0)  // hide the email
        #expect(!ListColumns(choice: moved, sort: SortOrder(.firstName), byCompany: true).sortKeys.contains(.email))
    }

    @Test("a column sorted on shows, titled with its direction, even when hidden")
    func sortedColumnShows() {
        let columns = ListColumns(choice: .standard, sort: SortOrder(.text(.eyeColor), descending: true), byCompany: true)
        let placed = columns.layout(width: 80).map(\.column)
        #expect(placed.contains(.text(.eyeColor)))
        #expect(columns.title(of: .text(.eyeColor)) == "Eye color ↓")
        #expect(columns.nextSort == SortOrder(.lastName))
    }

    @Test("at 40 columns a wide sorted column is narrowed: the name keeps a third of the row, the flat list its company")
    func narrowSorted() {
        for byCompany in [true, false] {
            let columns = ListColumns(choice: .standard, sort: SortOrder(.email), byCompany: byCompany)
            let placed = columns.layout(width: 40, widest: [.name: 18, .email: 28, .company: 10])
            let name = placed.first { $0.column == .name }
            #expect((name?.width ?? 0) >= 12, "\(placed)")
            #expect(placed.contains { $0.column == .email })
            #expect(placed.contains { $0.column == .company } == !byCompany, "\(placed)")
            #expect((placed.last.map { $0.start + $0.width } ?? 0) <= 40)
        }
        // With room, the sorted column is as wide as its values.
        let wide = ListColumns(choice: .standard, sort: SortOrder(.email), byCompany: true).layout(width: 120, widest: [.name: 18, .email: 28])
        #expect(wide.first { $0.column == .email }?.width == 28)
    }

    @Test("--sort and the remembered place spell every key")
    func spellings() {
        for key in SortOrder.Key.allCases {
            #expect(SortOrder.Key.named(key.spelling) == key, "\(key)")
            #expect(SortOrder.Key.named(key.rawValue) == key, "\(key)")
            var place = RememberedPlace(selectedPosition: nil, selectedID: nil)
            place.sortOrder = SortOrder(key, descending: true)
            #expect(place.sortOrder == SortOrder(key, descending: true))
        }
        #expect(SortOrder.Key.named("Eye colour") == .text(.eyeColor) && SortOrder.Key.named("_id") == .recordID)
        #expect(SortOrder.Key.named("shoe") == nil)
        for column in ListColumn.allCases { #expect(ListColumn.sorted(by: column.sortKey) == column, "\(column)") }
        #expect(Set(ListColumn.allCases.map(\.sortKey)).count == ListColumn.allCases.count)
    }
}
