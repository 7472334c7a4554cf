import Testing
import TestSupport
@testable import RosterCore

@MainActor
@Suite("List presenter: r reconnects")
struct ReconnectPresenterTests {
    let view = SpyListView()
    let wireframe = SpyListWireframe()

    func presenter(over repository: any PeopleRepository, searcher: ListSearchScheduling? = nil) -> ListPresenter {
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: searcher),
                                      arrangement: repository.arrange(sort: .byLastName, byCompany: true, company: nil), wireframe: wireframe)
        presenter.attach(view: view)
        return presenter
    }

    /// The seed's people over a connection that is lost until a reconnect
    /// works (failing with `failure` while it is set).
    static func lostDatabase(json: String = Fixtures.seedJSON, failure: String? = nil) throws -> StubReconnectingRepository {
        StubReconnectingRepository(base: try FakePeopleRepository(json: json, sourceName: "postgres://db"), failure: failure)
    }

    @Test("a wrapper reads through its base's connection (no downcast finds it); a file has none")
    func connectionThroughWrappers() throws {
        let lost = try Self.lostDatabase()
        let wrapped = GatedSearchRepository(lost, holding: [])
        #expect(wrapped.connection === lost)
        #expect(ConnectionStatus(wrapped)?.isLost == true)
        let file = try FakePeopleRepository(json: Fixtures.seedJSON)
        #expect(file.connection == nil)
        #expect(GatedSearchRepository(file, holding: []).connection == nil)
    }

    @Test("a reconnect that works puts the title back and keeps the place")
    func reconnected() throws {
        let repository = try Self.lostDatabase()
        let presenter = presenter(over: repository)
        presenter.moveSelection(by: 3)
        #expect(view.last?.sourceName == "connection lost, r reconnects — postgres://db")
        presenter.reconnect()
        #expect(repository.attempts == 1)
        #expect(view.last?.sourceName == "postgres://db")
        #expect(view.last?.message == "reconnected; read again")
        #expect(view.last?.position == "4/6")
    }

    @Test("a reconnect that fails says why in one line and keeps the screen")
    func stillUnreachable() throws {
        let repository = try Self.lostDatabase(failure: "server closed the connection")
        let presenter = presenter(over: repository)
        presenter.moveSelection(by: 2)
        presenter.reconnect()
        #expect(view.last?.message == "still offline: server closed the connection")
        #expect(view.last?.connection == ConnectionStatus(isLost: true))
        #expect(view.last?.sourceName == "connection lost, r reconnects — postgres://db")
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
        #expect(view.last?.message == "nothing to reconnect: a local file")
        #expect(view.last?.sourceName == "seed.json")
        #expect(view.last?.connection == nil)
    }

    /// A local database file (SQLite): reconnecting would be a no-op.
    final class LocalDatabase: DelegatingRepository, Reconnecting {
        let base: any PeopleRepository
        init(_ base: any PeopleRepository) { self.base = base }
        var isConnectionLost: Bool { false }
        var isLocal: Bool { true }
        func reconnect() throws(ReconnectFailure) {}
    }

    @Test("r over a local database file says there is nothing to reconnect, not that it reconnected")
    func localDatabase() throws {
        let presenter = presenter(over: LocalDatabase(try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "people.db")))
        presenter.reconnect()
        #expect(view.last?.message == "read again (a local file: nothing to reconnect)")
        #expect(view.last?.connection == nil)
    }

    @Test("a try on its own says nothing when it fails (the title says it) and reconnected when it works")
    func onItsOwn() throws {
        let repository = try Self.lostDatabase()
        let presenter = presenter(over: repository)
        presenter.moveSelection(by: 1)
        presenter.reconnectedOnItsOwn(.failed(ReconnectFailure(target: "postgres://db", reason: "no server"), nextTry: .seconds(8)))
        #expect(view.last?.message == nil)
        #expect(view.last?.position == "2/6")
        #expect(view.last?.sourceName == "connection lost, r reconnects — postgres://db")
        repository.setFailure(nil)
        try repository.reconnect()
        presenter.reconnectedOnItsOwn(.reconnected)
        #expect(view.last?.message == "reconnected; read again")
        #expect(view.last?.sourceName == "postgres://db")
        #expect(view.last?.position == "2/6")
    }

    @Test("live again: said at once, or once the filter and order being applied have landed (their frames would wipe it)")
    func wentLive() throws {
        let scheduler = ManualSearchScheduler()
        let presenter = presenter(over: try Fixtures.directory(json: Fixtures.seedJSON).repository, searcher: scheduler)
        presenter.wentLive(marksNotFound: 0)
        #expect(view.last?.message == "reconnected: live again")

        // A filter and a new order in flight: said when both have landed.
        presenter.applyFilter("comstar")
        presenter.applySortOrder(SortOrder(.age, descending: true))
        presenter.wentLive(marksNotFound: 2)
        #expect(view.last?.message == nil)
        scheduler.finishSearches()
        #expect(view.last?.message == nil)
        scheduler.finishArrangements()
        #expect(view.last?.message == "reconnected: live again (2 marked people not found)")
        #expect(view.last?.position == "1/3")
        #expect(view.last?.filter == "comstar")
    }

    @Test("r with nothing lost says so once a read over it worked; a reconnect has the screens above count again")
    func nothingLostAndRecount() throws {
        let repository = try Self.lostDatabase()
        let presenter = presenter(over: repository)
        presenter.reconnect()
        #expect(view.last?.message == "reconnected; read again")
        #expect(wireframe.recounts.count == 1)
        presenter.reconnect()
        #expect(view.last?.message == "the connection was fine; read again")
        #expect(repository.attempts == 1, "a connection read over just now is not connected again")
        repository.loseConnection()
        presenter.reconnectedOnItsOwn(.reconnected)
        #expect(wireframe.recounts.count == 3)
    }

    @Test("issue 34: r over a connection broken with nothing read since never says fine: the read-over finds it lost, and it reconnects")
    func brokenUnnoticed() throws {
        let repository = try Self.lostDatabase()
        try repository.reconnect()
        let presenter = presenter(over: repository)
        repository.breakUnnoticed()
        #expect(view.last?.sourceName == "postgres://db", "nothing has read over it yet")
        presenter.reconnect()
        #expect(view.last?.message == "reconnected; read again")
        #expect(repository.attempts == 2)
        #expect(!repository.isConnectionLost)
    }

    @Test("issue 34: r, and a reconnect on its own, have the source read again whole by the wireframe, which says how it went once it lands")
    func readAgainWhole() throws {
        let repository = try Self.lostDatabase()
        wireframe.readsSourceAgain = true
        let presenter = presenter(over: repository)
        presenter.reconnect()
        presenter.reconnect()
        repository.loseConnection()
        try repository.reconnect()
        presenter.reconnectedOnItsOwn(.reconnected)
        #expect(wireframe.readsAgain == ["reconnected; read again", "the connection was fine; read again", "reconnected; read again"])
        #expect(wireframe.recounts.isEmpty, "counted again once the source read again lands, not before")
    }

    @Test("issue 34: the person's screen, read while the connection is lost, says it shows them as last seen; not once it is back")
    func personAsLastSeen() throws {
        let repository = try Self.lostDatabase()
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let view = SpyDetailView()
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: everyone), position: 0,
                                        wireframe: SpyDetailWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.state == .loaded)
        #expect(view.models.last?.status == "connection lost: as last seen; r reconnects")
        try repository.reconnect()
        presenter.showNext()
        #expect(view.models.last?.status == nil)
    }

    @Test("the watcher finding the connection lost redraws the title at once, saying nothing more")
    func foundLost() throws {
        let repository = try Self.lostDatabase()
        try repository.reconnect()
        let presenter = presenter(over: repository)
        #expect(view.last?.sourceName == "postgres://db")
        repository.loseConnection()
        presenter.reconnectedOnItsOwn(.lost)
        #expect(view.last?.sourceName == "connection lost, r reconnects — postgres://db")
        #expect(view.last?.message == nil)
    }

    @Test("the connection lost again takes back a message that it was back ('reconnected; …'), never one of another kind")
    func lostAgainTakesBackReconnected() throws {
        let repository = try Self.lostDatabase()
        let presenter = presenter(over: repository)
        presenter.reconnect()
        #expect(view.last?.message == "reconnected; read again")
        repository.loseConnection()
        presenter.reconnectedOnItsOwn(.lost)
        #expect(view.last?.sourceName == "connection lost, r reconnects — postgres://db")
        #expect(view.last?.message == nil, "not 'reconnected' under a title saying it is lost")
        presenter.say("not sent: Ada Lovelace's edit (someone deleted them meanwhile)")
        presenter.reconnectedOnItsOwn(.lost)
        #expect(view.last?.message == "not sent: Ada Lovelace's edit (someone deleted them meanwhile)")
    }

    @Test("counts over a lost connection say why there are no rows, not that there is nobody")
    func countsWhileLost() throws {
        let repository = try Self.lostDatabase(json: "[]")
        let view = SpyFrequencyView()
        let counts = FrequencyPresenter(interactor: SummaryInteractor(repository: repository),
                                        field: .city, shown: repository.arrange(sort: .byLastName, byCompany: true, company: nil), wireframe: SpyFrequencyWireframe())
        counts.attach(view: view)
        #expect(view.models.last?.emptyMessage.hasPrefix("r reconnects: the connection is lost") == true)
        try repository.reconnect()
        counts.update(shown: repository.arrange(sort: .byLastName, byCompany: true, company: nil), filter: nil)
        #expect(view.models.last?.emptyMessage == "Nobody to count.")
    }

    /// Searches that fail, as a database's do while its server is away.
    final class FailingScheduler: ListSearchScheduling {
        func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?, repository: any PeopleRepository,
                    completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                    failed: @escaping @MainActor @Sendable (String) -> Void) {
            failed("the connection was lost")
        }
        func cancelPending() {}
        func arrange(_ repository: any PeopleRepository, sort: SortOrder, byCompany: Bool, company: Int?,
                     completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
            completion(repository.arrange(sort: sort, byCompany: byCompany, company: company))
        }
    }

    @Test("a search that fails says so under the prompt and, after Enter, in the status line; the filter stays as it was")
    func searchFails() throws {
        let presenter = presenter(over: try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "postgres://db"),
                                  searcher: FailingScheduler())
        presenter.beginSearch()
        presenter.editSearch("garza")
        #expect(view.last?.searchError?.message == "search failed: the connection was lost")
        #expect(view.last?.position == "1/6")
        presenter.commitSearch()
        #expect(view.last?.searchPrompt == nil)
        #expect(view.last?.message == "search failed: the connection was lost")
        #expect(view.last?.filter == nil)
        #expect(presenter.failedFilter == "garza", "still the search asked for: a re-read of the source asks it again")
        presenter.applyFilter(nil)
        #expect(presenter.failedFilter == nil)
    }

    /// Searches that fail while `failing`, then run in memory, over `memory`.
    final class RecoveringScheduler: ListSearchScheduling {
        var failing = true
        let working = ImmediateSearchScheduler()
        let memory: any PeopleRepository
        init(_ memory: any PeopleRepository) { self.memory = memory }
        func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?, repository: any PeopleRepository,
                    completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                    failed: @escaping @MainActor @Sendable (String) -> Void) {
            if failing { return failed("database busy: another program is writing to it") }
            working.search(query, in: everyone, within: within, repository: memory, completion: completion, failed: failed)
        }
        func cancelPending() {}
        func arrange(_ repository: any PeopleRepository, sort: SortOrder, byCompany: Bool, company: Int?,
                     completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
            completion(repository.arrange(sort: sort, byCompany: byCompany, company: company))
        }
    }

    @Test("a failed search is never remembered for its text: the prompt opened on it again runs it, and so does r")
    func failedSearchRunsAgain() throws {
        let (memory, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "postgres://db")
        let searcher = RecoveringScheduler(memory)
        let repository = StubReconnectingRepository(base: memory)
        let presenter = presenter(over: repository, searcher: searcher)
        presenter.beginSearch()
        presenter.editSearch("irwin")
        presenter.commitSearch()
        #expect(view.last?.message == "search failed: database busy: another program is writing to it")
        searcher.failing = false
        presenter.beginSearch()  // on "irwin", as it was left
        #expect(view.last?.searchError == nil, "run again, not the old failure")
        presenter.commitSearch()
        #expect(view.last?.filter == "irwin")
        #expect(view.last?.position == "1/1")

        presenter.beginSearch()
        presenter.editSearch("garza")
        searcher.failing = true
        presenter.editSearch("garz")
        presenter.commitSearch()
        #expect(view.last?.filter == "garza", "the last good filter stays")
        searcher.failing = false
        presenter.reconnect()
        #expect(view.last?.filter == "garz", "r ran the failed search again")
    }

    @Test("a search stopped by a lock runs again by itself once the lock is over (the watcher's recovered), with no key")
    func failedSearchRunsAgainOnceALockIsOver() throws {
        let (memory, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "postgres://db")
        let searcher = RecoveringScheduler(memory)
        let presenter = presenter(over: StubReconnectingRepository(base: memory), searcher: searcher)
        presenter.beginSearch()
        presenter.editSearch("irwin")
        presenter.commitSearch()
        #expect(view.last?.message == "search failed: database busy: another program is writing to it")
        #expect(view.last?.filter == nil)
        searcher.failing = false
        presenter.reconnectedOnItsOwn(.recovered)
        #expect(view.last?.filter == "irwin")
        #expect(view.last?.position == "1/1")
        #expect(view.last?.message != "search failed: database busy: another program is writing to it")
    }
}

@MainActor
@Suite("Overview and counts: r reconnects, as their titles promise")
struct TableReconnectTests {
    @Test("r in the overview connects again, counts again and says so; a failure says why; a file has nothing to reconnect")
    func overview() throws {
        let repository = try ReconnectPresenterTests.lostDatabase(failure: "server closed the connection")
        let view = SpyCompaniesView()
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: repository),
                                           shown: repository.arrange(sort: .byLastName, byCompany: true, company: nil), wireframe: SpyCompaniesWireframe())
        presenter.attach(view: view)
        presenter.reconnect()
        #expect(view.models.last?.notice == "still offline: server closed the connection")
        #expect(view.models.last?.sourceName == "connection lost, r reconnects — postgres://db")
        repository.setFailure(nil)
        presenter.reconnect()
        #expect(repository.attempts == 2)
        #expect(view.models.last?.notice == "reconnected; read again")
        #expect(view.models.last?.sourceName == "postgres://db")
        #expect(view.models.last?.rows.count == 3)
        presenter.moveSelection(by: 1)
        #expect(view.models.last?.notice == nil)
        let file = try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "seed.json")
        let local = CompaniesPresenter(interactor: SummaryInteractor(repository: file),
                                       shown: file.everyone, wireframe: SpyCompaniesWireframe())
        local.attach(view: view)
        local.reconnect()
        #expect(view.models.last?.notice == ConnectionStatus.nothingToReconnect)
    }

    @Test("r in the counts connects again and counts again")
    func counts() throws {
        let repository = try ReconnectPresenterTests.lostDatabase()
        let view = SpyFrequencyView()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: repository),
                                           field: .company, shown: repository.arrange(sort: .byLastName, byCompany: true, company: nil), wireframe: SpyFrequencyWireframe())
        presenter.attach(view: view)
        presenter.reconnect()
        #expect(repository.attempts == 1)
        #expect(view.models.last?.notice == "reconnected; read again")
        #expect(view.models.last?.sourceName == "postgres://db")
    }
}
