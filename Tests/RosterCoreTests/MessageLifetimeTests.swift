import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// A message lasts until the next key, whatever that key opens or closes;
/// a key with nothing to do on the whole list says why.
@MainActor
@Suite("The list's messages: until the next key, and never silence")
struct MessageLifetimeTests {
    let view = SpyListView()
    let wireframe = SpyListWireframe()

    func list(scope: ListScope? = nil) throws -> ListPresenter {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: FakeSearchScheduler()),
                                      arrangement: repository.everyone, wireframe: wireframe, scope: scope)
        presenter.attach(view: view)
        return presenter
    }

    @Test("a key that only a screen over the list takes ends the message; a frame drawn again later does not bring it back")
    func endsAtTheNextKey() throws {
        let presenter = try list()
        presenter.showMatch(forward: true)
        #expect(view.last?.message == "no search yet: n and N follow the last / search")
        presenter.refresh()  // rows read in the background: the message stays
        #expect(view.last?.message == "no search yet: n and N follow the last / search")
        presenter.endMessage()  // o, then Esc on the sort menu
        #expect(view.last?.message == nil)
        presenter.refresh()
        #expect(view.last?.message == nil, "the message came back with a frame drawn in the background")
    }

    @Test("on the whole list Esc and ←/h/Backspace say why nothing happens; in a company's list they go back")
    func nothingToGoBackTo() throws {
        let presenter = try list()
        presenter.goBack(by: .escape)
        #expect(view.last?.message == "Esc: nothing to close")
        presenter.goBack(by: .back(name: "h"))
        #expect(view.last?.message == "h: already at the top level")
        #expect(wireframe.routes.isEmpty)
        let company = try list(scope: ListScope(title: "COMSTAR", parent: "overview", filterIsScope: false))
        company.goBack(by: .back(name: "h"))
        #expect(wireframe.routes == [.back(filter: nil)])
    }
}
