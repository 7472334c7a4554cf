import Testing
import TestSupport
@testable import RosterCore

@MainActor
@Suite("List presenter: r reconnects")
struct ReconnectPresenterTests {
    let view = SpyListView()
    let wireframe = SpyListWireframe()

    func presenter(over repository: any PeopleRepository) -> ListPresenter {
        let presenter = ListPresenter(repository: repository, arrangement: repository.arrange(sort: .byLastName, byCompany: true, company: nil),
                                      wireframe: wireframe)
        presenter.attach(view: view)
        return presenter
    }

    @Test("a reconnect that works puts the title back and keeps the place")
    func reconnected() throws {
        let repository = StubReconnectingRepository(base: try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "postgres://db"))
        let presenter = presenter(over: repository)
        presenter.moveSelection(by: 3)
        #expect(view.last?.sourceName == "connection lost, cached rows only — postgres://db")
        presenter.reconnect()
        #expect(repository.attempts == 1)
        #expect(view.last?.sourceName == "postgres://db")
        #expect(view.last?.message == "reconnected")
        #expect(view.last?.position == "4/6")
    }

    @Test("a reconnect that fails says why in one line and keeps the screen")
    func stillUnreachable() throws {
        let repository = StubReconnectingRepository(base: try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "postgres://db"),
                                                    failure: "server closed the connection")
        let presenter = presenter(over: repository)
        presenter.moveSelection(by: 2)
        presenter.reconnect()
        #expect(view.last?.message == "still cannot reach postgres://db: server closed the connection")
        #expect(view.last?.sourceName == "connection lost, cached rows only — postgres://db")
        #expect(view.last?.position == "3/6")
        repository.setFailure(nil)
        presenter.reconnect()
        #expect(repository.attempts == 2)
        #expect(view.last?.sourceName == "postgres://db")
    }

    @Test("a file has nothing to reconnect")
    func file() throws {
        let presenter = presenter(over: try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "seed.json"))
        presenter.reconnect()
        #expect(view.last?.message == "nothing to reconnect here")
        #expect(view.last?.sourceName == "seed.json")
    }

    @Test("a try on its own says nothing when it fails (the title says it) and reconnected when it works")
    func onItsOwn() throws {
        let repository = StubReconnectingRepository(base: try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "postgres://db"))
        let presenter = presenter(over: repository)
        presenter.moveSelection(by: 1)
        presenter.reconnectedOnItsOwn(.failed(ReconnectFailure(target: "postgres://db", reason: "no server"), nextTry: .seconds(8)))
        #expect(view.last?.message == nil)
        #expect(view.last?.position == "2/6")
        #expect(view.last?.sourceName == "connection lost, cached rows only — postgres://db")
        repository.setFailure(nil)
        try repository.reconnect()
        presenter.reconnectedOnItsOwn(.reconnected)
        #expect(view.last?.message == "reconnected")
        #expect(view.last?.sourceName == "postgres://db")
        #expect(view.last?.position == "2/6")
    }

    @Test("live again: said at once, or with the result of the filter still being searched (which would wipe it)")
    func wentLive() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let scheduler = ManualSearchScheduler()
        let presenter = ListPresenter(repository: directory.repository, arrangement: directory.everyone, wireframe: wireframe,
                                      searcher: scheduler)
        presenter.attach(view: view)
        presenter.wentLive(marksCleared: false, filterPending: false)
        #expect(view.last?.message == "reconnected: live again")

        presenter.applyFilter("comstar")
        presenter.wentLive(marksCleared: true, filterPending: true)
        #expect(view.last?.message == nil)
        scheduler.finishSearches()
        #expect(view.last?.message == "reconnected: live again (marks cleared)")
        #expect(view.last?.position == "1/3")
    }
}
