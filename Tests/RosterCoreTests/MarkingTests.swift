import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@MainActor
@Suite("List presenter: marks")
struct MarkingTests {
    let view = SpyListView()
    let searcher = ImmediateSearchScheduler()
    let clipboard = SpyClipboard()
    let writer = InMemoryExportWriter()
    let session = ListSession()
    let presenter: ListPresenter
    let directory: LoadedDirectory

    init() throws {
        directory = try Fixtures.directory(json: Fixtures.seedJSON)
        presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: searcher),
                                  arrangement: directory.everyone, wireframe: SpyListWireframe(), exportWriter: writer, session: session, clipboard: clipboard)
        presenter.attach(view: view)
    }

    func markedNames() -> [String] {
        let rows = view.last?.rows
        return rows.map { rows in
            rows.compactMap { if case .person(let person) = $0, person.isMarked { return person.person.value?.name } else { return nil } }
        } ?? []
    }

    @Test("m marks the selected person and moves down; m again unmarks; the status counts them")
    func markAndMove() {
        presenter.toggleMark()
        presenter.toggleMark()
        #expect(view.last?.position == "3/6")
        #expect(markedNames() == ["Bertha Irwin", "Cohen James"])
        #expect(view.last?.marks == "2 marked")
        presenter.moveSelection(by: -1)
        presenter.toggleMark()
        #expect(markedNames() == ["Bertha Irwin"])
        #expect(view.last?.marks == "1 marked")
        presenter.unmarkAll()
        #expect(markedNames().isEmpty)
        #expect(view.last?.marks == nil)
    }

    @Test("marks survive a re-sort and a search; the status says how many the search shows")
    func marksSurvive() {
        presenter.toggleMark()  // Bertha Irwin (COMSTAR)
        presenter.moveSelection(by: 2)
        presenter.toggleMark()  // Zamora Weber (PERMADYNE)
        presenter.reverseSortOrder()
        #expect(markedNames().sorted() == ["Bertha Irwin", "Zamora Weber"])
        presenter.applyFilter("comstar")
        #expect(markedNames() == ["Bertha Irwin"])
        #expect(view.last?.marks == "2 marked (1 shown)")
        presenter.applyFilter(nil)
        #expect(view.last?.marks == "2 marked")
    }

    @Test("M marks everyone shown under the filter, and only them")
    func markAllShown() {
        presenter.applyFilter("recrisys")
        presenter.markAllShown()
        presenter.applyFilter(nil)
        #expect(markedNames().sorted() == ["Barnes Pickett", "Norton Curtis"])
        #expect(session.marked.count == 2)
    }

    @Test("with marks, e exports exactly the marked people, hidden ones too, in the list's order; without, what the list shows")
    func exportMarked() throws {
        presenter.toggleMark()
        presenter.moveSelection(by: 2)
        presenter.toggleMark()
        presenter.applyFilter("permadyne")
        presenter.beginExport()
        presenter.editExportName("marked.csv")
        presenter.commitExport()
        let csv = String(decoding: try #require(writer.files["marked.csv"]), as: UTF8.self)
        let lines = csv.split(separator: "\r\n")
        #expect(lines.count == 3)
        // By last name as the list is, though the search hides Irwin: a search never reorders them.
        #expect(lines[1].hasPrefix("Bertha,Irwin,COMSTAR") && lines[2].hasPrefix("Zamora,Weber,PERMADYNE"))
        #expect(view.last?.message == "wrote 2 marked to marked.csv (csv)")
        presenter.unmarkAll()
        presenter.beginExport()
        presenter.editExportName("shown.csv")
        presenter.commitExport()
        #expect(String(decoding: try #require(writer.files["shown.csv"]), as: UTF8.self).split(separator: "\r\n").count == 2)
    }

    @Test("y copies the marked people as an address list; without marks, the selected person")
    func copyAddresses() {
        presenter.copyAddresses()
        #expect(clipboard.copied == ["Bertha Irwin <bertha.irwin@comstar.net>"])
        presenter.toggleMark()
        presenter.toggleMark()
        presenter.copyAddresses()
        #expect(clipboard.copied.last == "Bertha Irwin <bertha.irwin@comstar.net>, Cohen James <cohen.james@comvene.name>")
        #expect(view.last?.message == "sent 2 addresses to the terminal's clipboard")
    }

    @Test("y copies the marked people in the list's order, whatever the search shows (here, none of them)")
    func copyInListOrder() {
        presenter.reverseSortOrder()  // last name, Z→A
        presenter.markAllShown()
        let listOrder = markedNames()
        presenter.applyFilter("nobody-matches-this")
        #expect(view.last?.marks == "6 marked (0 shown)")
        presenter.copyAddresses()
        let names = (clipboard.copied.last ?? "").split(separator: ", ").map { String($0.split(separator: " <")[0]) }
        #expect(listOrder.count == 6 && names == listOrder)
        presenter.applyFilter("comstar")
        presenter.copyAddresses()
        #expect(clipboard.copied.count == 2 && clipboard.copied[1] == clipboard.copied[0])
    }

    @Test("a copy too big for the terminal copies nothing and says to export")
    func copyTooBig() throws {
        let directory = try Fixtures.directory(json: Fixtures.array([
            Fixtures.record(email: String(repeating: "a", count: ClipboardText.maximumBytes) + "@x.test", index: 0),
        ]))
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe(), session: session, clipboard: clipboard)
        presenter.attach(view: view)
        presenter.copyAddresses()
        #expect(clipboard.copied.isEmpty)
        #expect(view.last?.message == "too much to copy (751 KB, at most 750 KB): e exports them instead")
        presenter.copyVCards()
        #expect(clipboard.copied.isEmpty)
    }

    @Test("Y copies vCards of the marked people")
    func copyVCards() {
        presenter.toggleMark()
        presenter.copyVCards()
        let card = clipboard.copied.last ?? ""
        #expect(card.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Bertha Irwin\r\n"))
        #expect(card.contains("EMAIL:bertha.irwin@comstar.net\r\n") && card.hasSuffix("END:VCARD\r\n"))
        #expect(view.last?.message == "sent 1 vCard to the terminal's clipboard")
    }

    @Test("marks are shared with another list of the session (a company's), and shown there")
    func sharedWithCompanyList() {
        presenter.toggleMark()
        let company = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                    arrangement: directory.repository.arrange(sort: .byLastName, byCompany: true, company: 0), wireframe: SpyListWireframe(), session: session)
        let companyView = SpyListView()
        company.attach(view: companyView)
        #expect(companyView.last?.marks != nil)
        company.markAllShown()
        presenter.marksMayHaveChanged()
        #expect(session.marked.count > 1)
        #expect(view.last?.marks == "\(session.marked.count) marked")
    }

    @Test("the columns are remembered with the place and restored; an old place without them keeps the standard")
    func columnsRemembered() {
        var choice = ColumnChoice.standard
        choice.toggle(at: 0)
        presenter.setColumns(choice)
        #expect(view.last?.columns.choice == choice)
        let place = presenter.place
        #expect(place.columns == choice.remembered)
        let other = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                  arrangement: directory.everyone, wireframe: SpyListWireframe())
        other.restore(place)
        #expect(other.columnChoice == choice)
        let fresh = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                  arrangement: directory.everyone, wireframe: SpyListWireframe())
        fresh.restore(RememberedPlace(selectedPosition: 0, selectedID: nil))
        #expect(fresh.columnChoice == .standard)
    }
}

@MainActor
@Suite("List presenter: column chooser route")
struct ColumnRouteTests {
    @Test("C asks the wireframe for the chooser with the list's columns and its sorted column")
    func route() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let wireframe = SpyListWireframe()
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: wireframe)
        presenter.attach(view: SpyListView())
        presenter.sort(by: .balance)
        presenter.chooseColumns()
        #expect(wireframe.routes.last == .columns(.standard, sorted: .balance))
    }
}

@Suite("Clipboard text")
struct ClipboardTextTests {
    @Test("an address list quotes names that are not atoms (RFC 5322) and leaves out people without email")
    func addressList() {
        let people = [
            Person(firstName: "Ada", lastName: "Lovelace", email: "ada@x.test"),
            Person(firstName: "Grace", lastName: "Hopper, Jr.", email: "grace@x.test"),
            Person(firstName: "Say \"Hi\"", lastName: "Back\\slash", email: "q@x.test"),
            Person(firstName: "Nobody", lastName: "Here"),
            Person(firstName: "Zoé", lastName: "O'Brien", email: "zoe@x.test"),
            Person(firstName: "", lastName: "", email: "anon@x.test"),
            Person(firstName: "Bell\u{07}", lastName: "Ringer", email: "bell@x.test\n"),
        ]
        let list = ClipboardText.addressList(people)
        #expect(list.text == "Ada Lovelace <ada@x.test>, \"Grace Hopper, Jr.\" <grace@x.test>, "
            + "\"Say \\\"Hi\\\" Back\\\\slash\" <q@x.test>, Zoé O'Brien <zoe@x.test>, <anon@x.test>, Bell Ringer <bell@x.test>")
        #expect(list.withoutEmail == 1)
        #expect(list.removed == 2)
    }

    @Test("joiners and variation selectors are text, kept; controls and bidi controls are left out, in one short message")
    func emojiKept() {
        let people = [
            Person(firstName: "👩\u{200D}👩\u{200D}👧\u{200D}👦", lastName: "Family", email: "fam@x.test"),
            Person(firstName: "❤\u{FE0F}", lastName: "Heart\u{200C}s", email: "heart@x.test"),
            Person(firstName: "Evil\u{202E}moc.", lastName: "\u{2066}Iso\u{2069}", email: "e@x.test\u{0085}"),
            Person(firstName: "No", lastName: "Email"),
        ]
        let list = ClipboardText.addressList(people)
        #expect(list.text == "👩\u{200D}👩\u{200D}👧\u{200D}👦 Family <fam@x.test>, ❤\u{FE0F} Heart\u{200C}s <heart@x.test>, "
            + "\"Evilmoc. Iso\" <e@x.test>")
        #expect(list.removed == 4)
        #expect(ClipboardText.addressesCopiedMessage(list, of: people.count, delivery: .terminal)
            == "sent 3 addresses to the terminal's clipboard; 1 without email, 4 control characters left out")
        let clean = ClipboardText.addressList(people.prefix(2))
        #expect(ClipboardText.addressesCopiedMessage(clean, of: 2, delivery: .tmuxBuffer) == "copied 2 addresses to tmux's buffer")
    }

    @Test("the copy cap: 750,000 bytes fit, one more does not")
    func cap() {
        #expect(ClipboardText.fits(String(repeating: "a", count: ClipboardText.maximumBytes)))
        #expect(!ClipboardText.fits(String(repeating: "a", count: ClipboardText.maximumBytes + 1)))
        #expect(!ClipboardText.fits(String(repeating: "é", count: ClipboardText.maximumBytes / 2 + 1)))
    }

    @Test("vCards carry only printable text besides their own line breaks")
    func vCards() {
        let cards = ClipboardText.vCards([Person(id: "i\u{9B}d", firstName: "A\u{1B}[31m", lastName: "B", phone: "1\u{07}2")])
        #expect(cards.text == "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A[31m B\r\nN:B;A[31m;;;\r\nUID;VALUE=text:id\r\nTEL:12\r\nEND:VCARD\r\n")
        #expect(cards.removed == 3)
    }
}
