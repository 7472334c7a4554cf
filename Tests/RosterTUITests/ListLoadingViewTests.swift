import Testing
import TestSupport
import RosterCore
@testable import RosterTUI

/// The list over a source read in the background, drawn on an in-memory screen.
@MainActor
@Suite("List rows being read")
struct ListLoadingViewTests {
    @Test("rows being read draw as loading…, and the column titles keep the widths of the last rows read (never packed together)")
    func loadingKeepsColumns() throws {
        let people = (0..<300).map { Person(balance: Balance(text: "$1,234.56"), firstName: "Person\($0)", lastName: "Long-Last-Name-\($0)",
                                            company: "C\($0 % 3)", email: "someone.\($0)@example.com") }
        let repository = FakePeopleRepository(people: people, readsAtOnce: false)
        let reads = HeldReads()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                      arrangement: repository.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        let screen = MemoryScreen(rows: 24, columns: 80)
        view.draw(on: screen)
        #expect(screen.line(3).hasPrefix("  loading…"), "\(screen.text)")
        reads.finish()
        view.draw(on: screen)
        #expect(screen.line(3).contains("someone."), "\(screen.text)")
        let titles = screen.line(1)
        presenter.selectLast()
        view.draw(on: screen)
        #expect(screen.text.contains("loading…"), "the end of the list is not read yet")
        #expect(screen.line(1) == titles, "the column titles stay where the rows' values put them")
    }

    @Test("a row not read draws loading… or not loaded: why, never a mark, an unsent arrow or a match, whatever its line says of them")
    func unreadRowsDrawNoPerson() throws {
        let repository = try FakePeopleRepository.seedThatMayWait()
        let view = ListView(presenter: ListPresenter(interactor: ListInteractor(repository: repository, scheduler: HeldReads()),
                                                     arrangement: repository.everyone, wireframe: SpyListWireframe()))
        let screen = MemoryScreen(rows: 24, columns: 80)
        let columns = ListColumns(choice: .standard, sort: .byLastName, byCompany: true).layout(width: 80)
        let query = SearchQuery("a")
        let lost = RepositoryError(.connectionLost, reason: "connection lost\u{1b}[2J")
        let lines: [Loadable<ListedPerson>] = [.loading, .failed(lost)]
        for (line, person) in lines.enumerated() {
            view.draw(.person(PersonRow(position: line, person: person, isMarked: true, isUnsent: true)), columns: columns, selected: false,
                      highlight: query, at: 2 + line, on: screen)
        }
        #expect(screen.line(2).trimmingCharacters(in: .whitespaces) == "loading…")
        #expect(screen.line(3).hasPrefix("  not loaded: connection lost") && !screen.line(3).contains("\u{1b}"), "\(screen.text)")
        for line in 2...3 {
            #expect(!(0..<80).contains { [.marked, .match, .balance].contains(screen.style(row: line, column: $0)) }, "no mark, match or balance")
            #expect(screen.style(row: line, column: 2) == .dim)
        }
    }
}
