import Testing
import TestSupport
@testable import RosterCore

/// `:` in the company overview: the commands that mean something there,
/// and a word for the list's others; the word ends at the next key.
@MainActor
@Suite("The company overview's command line")
struct CompaniesCommandTests {
    let view = SpyCompaniesView()
    let wireframe = SpyCompaniesWireframe()

    func overview() throws -> CompaniesPresenter {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: repository), shown: repository.everyone,
                                           wireframe: wireframe)
        presenter.attach(view: view)
        return presenter
    }

    @Test(":NUMBER selects that row (the last, saying so, past the end); :q quits; :help is ?; : opens the line")
    func commands() throws {
        let presenter = try overview()
        presenter.openCommandLine()
        presenter.run(.goTo(2))
        #expect(view.models.last?.position == "2/3")
        #expect(view.models.last?.notice == nil)
        presenter.run(.goTo(99))
        #expect(view.models.last?.position == "3/3")
        #expect(view.models.last?.notice == "99: only 3 rows; at the last")
        presenter.run(.help)
        presenter.run(.quit)
        #expect(wireframe.routes == [.commandLine, .help, .quit])
    }

    @Test("the list's other commands say where they work; the word ends at the next key")
    func listCommands() throws {
        let presenter = try overview()
        presenter.run(.sort(SortOrder(.balance), flat: false))
        #expect(view.models.last?.notice == "people list only: Tab goes back")
        presenter.endMessage()
        #expect(view.models.last?.notice == nil)
        #expect(wireframe.routes.isEmpty)
    }
}
