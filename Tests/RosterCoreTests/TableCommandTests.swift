import Testing
import TestSupport
@testable import RosterCore

/// `:` in the company overview and in the counts (`F`): the commands that
/// mean something there, and a word for the list's others; the word ends
/// at the next key.
@MainActor
@Suite("The command line over the overview and the counts")
struct TableCommandTests {
    enum Table: String, CaseIterable, CustomTestStringConvertible {
        case overview, counts
        var testDescription: String { rawValue }
    }

    /// A table screen's presenter over the seed people (three rows either
    /// way), with what its view was last shown and the routes it asked for.
    struct Made {
        let presenter: any TableModuleInterface
        let run: (ListCommand) -> Void
        let shown: () -> (position: String?, notice: String?)
        let routes: () -> [String]
    }

    func made(_ table: Table) throws -> Made {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let interactor = SummaryInteractor(repository: repository)
        switch table {
        case .overview:
            let (view, wireframe) = (SpyCompaniesView(), SpyCompaniesWireframe())
            let presenter = CompaniesPresenter(interactor: interactor, shown: repository.everyone, wireframe: wireframe)
            presenter.attach(view: view)
            return Made(presenter: presenter, run: presenter.run, shown: { (view.models.last?.position, view.models.last?.notice) },
                        routes: { wireframe.routes.map { "\($0)" } })
        case .counts:
            let (view, wireframe) = (SpyFrequencyView(), SpyFrequencyWireframe())
            let presenter = FrequencyPresenter(interactor: interactor, field: .company, shown: repository.everyone, wireframe: wireframe)
            presenter.attach(view: view)
            return Made(presenter: presenter, run: presenter.run, shown: { (view.models.last?.position, view.models.last?.notice) },
                        routes: { wireframe.routes.map { "\($0)" } })
        }
    }

    @Test(":NUMBER selects that row (the last, saying so, past the end); :q quits; :help is ?; : opens the line",
          arguments: Table.allCases)
    func commands(_ table: Table) throws {
        let made = try made(table)
        made.presenter.openCommandLine()
        made.run(.goTo(2))
        #expect(made.shown().position == "2/3")
        #expect(made.shown().notice == nil)
        made.run(.goTo(99))
        #expect(made.shown().position == "3/3")
        #expect(made.shown().notice == "99: only 3 rows; at the last")
        made.run(.help)
        made.run(.quit)
        #expect(made.routes() == ["commandLine", "help", "quit"])
    }

    @Test("the list's other commands say where they work; the word ends at the next key", arguments: Table.allCases)
    func listCommands(_ table: Table) throws {
        let made = try made(table)
        made.run(.sort(SortOrder(.balance), flat: false))
        #expect(made.shown().notice == "people list only: Tab goes back")
        made.presenter.endMessage()
        #expect(made.shown().notice == nil)
        made.run(.filter("acme"))
        #expect(made.shown().notice == "people list only: Tab goes back")
        #expect(made.routes().isEmpty)
    }
}
