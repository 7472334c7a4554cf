import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// A value in its load state: the value itself, or why there is none.
@Suite("Loadable")
struct LoadableTests {
    static let lost = RepositoryError(.connectionLost, reason: "connection lost")

    @Test("a read's answer is loaded, or failed with why; the value only when loaded; the state says the same without it")
    func fromRead() {
        let read = Loadable<Int>(.success(7))
        let failed = Loadable<Int>(.failure(Self.lost))
        #expect(read == .loaded(7) && read.value == 7 && read.state == .loaded)
        #expect(failed == .failed(Self.lost) && failed.value == nil && failed.state == .failed("connection lost"))
        #expect(Loadable<Int>.loading.value == nil && Loadable<Int>.loading.state == .loading)
        #expect(failed != .failed(RepositoryError(.waiting, reason: "connection lost")), "why it failed is part of it")
    }
}

/// Every reader of the list's rows handles a row not read yet, or that
/// could not be read: it has no name, id or marks to take, so it is never
/// marked, copied, deleted or exported as a person.
@MainActor
@Suite("Rows not read")
struct UnreadRowsTests {
    static let lost = LoadableTests.lost

    /// The six people of the fixture over a source that may wait (its reads
    /// held: no row read yet), with an export writer and a clipboard.
    static func list() throws -> (FakePeopleRepository, HeldReads, SpyListView, ListPresenter, InMemoryExportWriter, SpyClipboard) {
        let repository = try FakePeopleRepository.seedThatMayWait()
        let (reads, view, writer, clipboard) = (HeldReads(), SpyListView(), InMemoryExportWriter(), SpyClipboard())
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads), arrangement: repository.everyone,
                                      wireframe: SpyListWireframe(), exportWriter: writer, clipboard: clipboard)
        presenter.attach(view: view)
        return (repository, reads, view, presenter, writer, clipboard)
    }

    @Test("a window's row is loading until read, failed and why when it could not be, the person's once read; never a person in their place")
    func windowRows() throws {
        let repository = try FakePeopleRepository.seedThatMayWait()
        let window = ListWindow(repository.everyone, atOnce: nil)
        #expect(window.row(at: 0) == .loading && window.loadedRow(at: 0) == nil)
        window.store(.failure(Self.lost), for: 0..<2)
        #expect(window.row(at: 1) == .failed(Self.lost) && window.loadedRow(at: 1) == nil)
        let read = repository.rowsAtOnce(in: repository.everyone, positions: 2..<4)
        window.store(.success(Array(read.prefix(1))), for: 2..<4)
        #expect(window.row(at: 2) == .loaded(read[0]) && window.loadedRow(at: 2) == read[0])
        #expect(window.row(at: 3) == .failed(ListWindow.leftOut), "left out of the answer: said, not made up")
        #expect(window.row(at: 4) == .loading)
    }

    @Test("what waits for the selected row runs once it is read, with who it is; not if the selection moved first")
    func waitsForTheSelectedRow() throws {
        let (_, reads, view, presenter, _, _) = try Self.list()
        var seen: [PersonID?] = []
        presenter.whenSelectionRead { seen.append($0.selectedID) }
        presenter.moveSelection(by: 1)
        presenter.whenSelectionRead { seen.append($0.selectedID) }
        #expect(seen.isEmpty, "nobody read yet")
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        reads.finish()
        #expect(seen.count == 1 && seen[0] != nil && seen[0] == presenter.selectedID, "once, for the row still selected")
        presenter.whenSelectionRead { seen.append($0.selectedID) }
        #expect(seen.count == 2, "a row read: at once")
    }

    @Test("a row not read is never marked nor unsent in the frame, whoever is marked")
    func framesMarkNoUnreadRow() throws {
        let repository = try FakePeopleRepository.seedThatMayWait()
        let everyone = repository.everyone
        let window = ListWindow(everyone, atOnce: nil)
        window.store(.failure(Self.lost), for: 3..<4)
        window.store(.success(repository.rowsAtOnce(in: everyone, positions: 0..<1)), for: 0..<1)
        let all = repository.rowsAtOnce(in: everyone, positions: 0..<6)
        let rows = ListRows(window, marked: Set(all.map(\.id)), unsent: Set(all.map(\.recordID)))
        let people = rows.compactMap { row -> PersonRow? in if case .person(let person) = row { person } else { nil } }
        #expect(people.map(\.position) == Array(0..<6))
        #expect(people[0].person == .loaded(all[0]) && people[0].isMarked && people[0].isUnsent)
        #expect(people[3].person == .failed(Self.lost) && people[1].person == .loading)
        #expect(people.dropFirst().allSatisfy { !$0.isMarked && !$0.isUnsent })
    }

    @Test("m on a row being read, or that could not be, marks nobody; e then exports the people shown, read whole")
    func unreadRowsNeverMarkedNorExported() throws {
        let (_, reads, view, presenter, writer, _) = try Self.list()
        presenter.toggleMark()
        #expect(presenter.session.marked.isEmpty && presenter.selection == 0, "being read: nobody to mark, the selection stays")
        presenter.window.store(.failure(Self.lost), for: 0..<6)
        presenter.toggleMark()
        #expect(presenter.session.marked.isEmpty, "could not be read: nobody to mark")
        #expect(view.last?.marks == nil)
        presenter.beginExport()
        presenter.editExportName("shown.csv")
        presenter.commitExport()
        reads.finish()
        let csv = String(decoding: try #require(writer.files["shown.csv"]), as: UTF8.self)
        #expect(csv.split(separator: "\r\n").count == 7, "everyone shown, read whole from the source: \(csv)")
        #expect(!csv.contains(",,,,,"), "no blank person")
    }

    @Test("y on a row being read waits for it, then copies that person; on one that could not be read it says why and copies nothing")
    func copyingUnreadRows() throws {
        let (_, reads, view, presenter, _, clipboard) = try Self.list()
        presenter.copyAddresses()
        #expect(clipboard.copied.isEmpty && reads.waiting == 0, "waits for the row, reads nothing yet")
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        reads.finish()  // the rows
        reads.finish()  // the person, read whole
        #expect(clipboard.copied == ["Bertha Irwin <bertha.irwin@comstar.net>"])
        let (_, _, unreadView, unread, _, unreadClipboard) = try Self.list()
        unread.window.store(.failure(Self.lost), for: 0..<1)
        unread.copyVCards()
        #expect(unreadClipboard.copied.isEmpty)
        #expect(unreadView.last?.message == "the selected row could not be read: connection lost")
        unread.deleteMarkedOrSelected()
        #expect(unread.pendingDeletion == nil)
        #expect(unreadView.last?.message == "the selected row could not be read: connection lost")
    }

    @Test("Enter on a row not read opens the person's screen at its place, which reads the person itself")
    func openingUnreadRows() throws {
        let repository = try FakePeopleRepository.seedThatMayWait()
        let wireframe = SpyListWireframe()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: HeldReads()),
                                      arrangement: repository.everyone, wireframe: wireframe)
        presenter.attach(view: SpyListView())
        presenter.moveSelection(by: 2)
        presenter.openSelected()
        guard case .detail(let shown, let position)? = wireframe.routes.last else {
            Issue.record("not opened: \(wireframe.routes)")
            return
        }
        #expect(shown == repository.everyone && position == 2)
    }

    @Test("the flat list's one section is no company's: Space says so and folds nothing, and the place remembered names no company")
    func flatListFoldsNothing() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        presenter.toggleGrouping()
        #expect(presenter.displayed.sections.map(\.companyID) == [nil], "one section, no company's")
        presenter.toggleSection()
        #expect(view.last?.message == "one flat list: c groups by company")
        #expect(presenter.collapsedCompanies.isEmpty && view.last?.rows.count == 7)
        #expect(presenter.place.collapsedCompanies == nil)
        presenter.toggleGrouping()
        presenter.toggleSection()
        #expect(presenter.place.collapsedCompanies == ["COMSTAR"], "a company folds as before")
    }

    @Test("a search in the flat list is still one section of no company")
    func flatSearch() async throws {
        let (repository, _) = try Fixtures.repository(json: Fixtures.seedJSON)
        let flat = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let found = try await repository.search(SearchQuery("comstar"), in: flat, within: nil)
        #expect(found.sections.map(\.companyID) == [nil] && found.sections.first?.title == CompanySection.everyoneTitle)
    }
}
