import Foundation
import Testing
import RosterCore
import RosterTUI
import TestSupport

/// A source whose reads fail while its connection is lost (as a database
/// server that stopped), and work again once `reconnect` does.
final class LostReadsRepository: DelegatingRepository, Reconnecting {
    let base: any PeopleRepository
    private let lost = Locked(true)

    init(_ base: any PeopleRepository) {
        self.base = base
    }

    var isConnectionLost: Bool { lost.withLock { $0 } }
    var readFailure: String? { isConnectionLost ? "connection lost, cached rows only" : nil }
    var problemDetail: String? { isConnectionLost ? "PostgreSQL: server closed the connection unexpectedly" : nil }

    func reconnect() throws(ReconnectFailure) {
        lost.withLock { $0 = false }
    }

    func rows(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [ListedPerson] {
        guard !isConnectionLost else { throw Self.lostError }
        return try await base.rows(in: arrangement, positions: positions)
    }

    static let lostError = RepositoryError(.connectionLost, reason: "connection lost, cached rows only")

    func personIDs(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [PersonID] {
        guard !isConnectionLost else { throw Self.lostError }
        return try await base.personIDs(in: arrangement, positions: positions)
    }

    func people(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [Person] {
        guard !isConnectionLost else { throw Self.lostError }
        return try await base.people(in: arrangement, positions: positions)
    }

    func person(_ id: PersonID) async throws(RepositoryError) -> Person {
        guard !isConnectionLost else { throw Self.lostError }
        return try await base.person(id)
    }

    func companySummaries(in arrangement: PeopleArrangement) async throws(RepositoryError) -> [CompanySummary] {
        guard !isConnectionLost else { throw Self.lostError }
        return try await base.companySummaries(in: arrangement)
    }
}

/// A value that could not be read never looks like a value, nor like an
/// absent one: the person's screen and the list say "not loaded", and `r`
/// reads again.
@MainActor
@Suite("Not loaded")
struct NotLoadedTests {
    @Test("the person's screen says not loaded and why (never a blank person of dashes); r reconnects and shows them")
    func detailNotLoaded() throws {
        let (memory, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "seed.json")
        let repository = LostReadsRepository(memory)
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: everyone),
                                        position: 0, wireframe: SpyDetailWireframe())
        let view = DetailView(presenter: presenter)
        presenter.attach(view: view)
        let screen = MemoryScreen(rows: 24, columns: 80)
        view.draw(on: screen)
        #expect(screen.text.contains("Not loaded: connection lost, cached rows only. r tries again"), "\(screen.text)")
        #expect(!screen.text.contains("First name") && !screen.text.contains("Email"), "no fields that would read as values")
        view.handle(.character("r"), screenSize: screen.size)
        view.draw(on: screen)
        #expect(screen.text.contains("Email  bertha.irwin@comstar.net"), "\(screen.text)")
        #expect(!screen.text.contains("Not loaded"))
    }

    @Test("the list draws rows it could not read as 'not loaded' and why, and they cannot be marked")
    func listRowsNotLoaded() throws {
        let (memory, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "seed.json")
        let repository = LostReadsRepository(memory)
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let wireframe = SpyListWireframe()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository), arrangement: everyone, wireframe: wireframe)
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        let screen = MemoryScreen(rows: 24, columns: 80)
        view.draw(on: screen)
        #expect(screen.line(3).hasPrefix("  loading…"), "a source that may wait is read after the frame, never while drawing")
        view.draw(on: screen)
        #expect(screen.line(3).hasPrefix("  not loaded: connection lost"), "\(screen.text)")
        #expect(!screen.text.contains("(not fetched)"))
        view.handle(.character("m"), screenSize: screen.size)
        view.handle(.character("M"), screenSize: screen.size)
        view.draw(on: screen)
        #expect(!(0...9).contains { screen.text.contains("\($0) marked") }, "\(screen.text)")
        #expect(screen.text.contains("nobody marked: connection lost, cached rows only"), "M says why it marked nobody")
    }

    @Test("every screen's ? has what the database said last, as the title promises: the overview's, the counts', the person's")
    func everyHelpSaysWhy() throws {
        let (memory, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "seed.json")
        let repository = LostReadsRepository(memory)
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let screen = MemoryScreen(rows: 24, columns: 80)
        let companies = CompaniesPresenter(interactor: SummaryInteractor(repository: repository),
                                           shown: everyone, wireframe: SpyCompaniesWireframe())
        let overview = CompaniesView(presenter: companies)
        companies.attach(view: overview)
        let detail = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: everyone),
                                     position: 0, wireframe: SpyDetailWireframe())
        let person = DetailView(presenter: detail)
        detail.attach(view: person)
        for view in [overview, person] as [ScreenView] {
            view.handle(.character("?"), screenSize: screen.size)
            view.draw(on: screen)
            #expect(screen.text.contains("What the database said last"), "\(screen.text)")
            #expect(screen.text.contains("PostgreSQL: server closed the"))
        }
    }
}
