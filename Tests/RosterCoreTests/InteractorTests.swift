import Testing
import TestSupport
@testable import RosterCore

/// A person's screen's data, held until the test answers: the presenter
/// alone, with no repository under it.
@MainActor
final class HeldDetailInteractor: DetailInteractorInput {
    let arrangement: PeopleArrangement
    var asked: [Range<Int>] = []
    var answers: [@MainActor @Sendable ([Result<Person, RepositoryError>]) -> Void] = []
    var reconnects = 0

    init(arrangement: PeopleArrangement) {
        self.arrangement = arrangement
    }

    func peopleAtOnce(at positions: Range<Int>) -> [Result<Person, RepositoryError>]? { nil }
    func readPeople(at positions: Range<Int>, then deliver: @escaping @MainActor @Sendable ([Result<Person, RepositoryError>]) -> Void) {
        asked.append(positions)
        answers.append(deliver)
    }
    var canReconnect: Bool { true }
    func reconnect(then deliver: @escaping @MainActor @Sendable (ReconnectFailure?) -> Void) {
        reconnects += 1
        deliver(nil)
    }
    var problemDetail: String? { nil }
    func retryLater(_ work: @escaping @MainActor @Sendable () -> Void) {}
}

/// The overview's and the counts' data, held until the test answers.
@MainActor
final class HeldSummaryInteractor: SummaryInteractorInput {
    var titleName: String { "people.db" }
    var personCount: Int { 3 }
    var companiesWithPeople: Int { 2 }
    func isCompany(_ companyID: Int) -> Bool { true }
    var isConnectionLost = false
    var problemDetail: String? { nil }
    var companyCounts: [@MainActor @Sendable (Result<[CompanySummary], RepositoryError>) -> Void] = []

    func companySummaries(in shown: PeopleArrangement,
                          then deliver: @escaping @MainActor @Sendable (Result<[CompanySummary], RepositoryError>) -> Void) {
        companyCounts.append(deliver)
    }
    func valueSummaries(of field: SummaryField, in shown: PeopleArrangement,
                        then deliver: @escaping @MainActor @Sendable (Result<[ValueSummary], RepositoryError>) -> Void) {}
    func reconnect(then said: @escaping @MainActor @Sendable (_ message: String, _ reconnected: Bool) -> Void) {
        said("reconnected", true)
    }
    func retryLater(_ work: @escaping @MainActor @Sendable () -> Void) {}
}

@MainActor
@Suite("Interactors: each screen's data, apart from its presenter")
struct InteractorTests {
    static let people = [
        Person(firstName: "Ann", lastName: "Abel", company: "Beta", email: "ann@beta.example"),
        Person(firstName: "Bo", lastName: "Bell", company: "Alpha", email: "bo@alpha.example"),
        Person(firstName: "Cy", lastName: "Cole", company: "Beta", email: "cy@beta.example"),
    ]

    /// The person's screen at `position`, over a held interactor.
    func detail(at position: Int) -> (HeldDetailInteractor, DetailPresenter, SpyDetailView) {
        let interactor = HeldDetailInteractor(arrangement: FakePeopleRepository(people: Self.people).everyone)
        let presenter = DetailPresenter(interactor: interactor, position: position, wireframe: SpyDetailWireframe())
        let view = SpyDetailView()
        presenter.attach(view: view)
        return (interactor, presenter, view)
    }

    @Test("the person's screen asks its interactor for the people around the one shown, and says loading until they come")
    func detailWaitsOnItsInteractor() throws {
        let (interactor, presenter, view) = detail(at: 1)
        defer { withExtendedLifetime(presenter) {} }  // the interactor answers it weakly
        #expect(view.models.last?.title == "loading…")
        #expect(interactor.asked == [0..<3])
        let answer = try #require(interactor.answers.first)
        answer(Self.people.map { .success($0) })
        let shown = try #require(view.models.last)
        #expect(shown.title == "Bo Bell")  // the second of the three read, at position 1
        #expect(shown.fields.contains { $0.label == "Email" && $0.value == "bo@alpha.example" })
    }

    @Test("a person the interactor could not read is not loaded, and r asks it to reconnect")
    func detailSaysWhyNot() throws {
        let (interactor, presenter, view) = detail(at: 0)
        let answer = try #require(interactor.answers.first)
        let lost = RepositoryError(.connectionLost, reason: "connection lost")
        answer([.failure(lost), .failure(lost)])
        #expect(view.models.last?.title == "not loaded")
        #expect({ if case .failed(let words)? = view.models.last?.state { words.hasPrefix("Not loaded: connection lost.") } else { false } }())
        presenter.retry()
        #expect(interactor.reconnects == 1)
        #expect(interactor.asked.count == 2)  // read again once reconnected
    }

    @Test("the overview counts through its interactor: counting… until the figures come, then its rows")
    func overviewWaitsOnItsInteractor() async throws {
        let repository = FakePeopleRepository(people: Self.people)
        let interactor = HeldSummaryInteractor()
        let presenter = CompaniesPresenter(interactor: interactor, shown: repository.everyone, wireframe: SpyCompaniesWireframe())
        let view = SpyCompaniesView()
        presenter.attach(view: view)
        #expect(view.models.last?.summary == "counting…")
        #expect(view.models.last?.rows.isEmpty == true)
        let figures = try await repository.companySummaries(in: repository.everyone)
        let deliver = try #require(interactor.companyCounts.first)
        deliver(.success(figures))
        #expect(view.models.last?.rows.map(\.title) == ["Alpha", "Beta"])
        #expect(view.models.last?.sourceName == "people.db")
    }

    @Test("the list's interactor: where a result's selected person lands, and a flat list's companies")
    func listPlacement() throws {
        let repository = FakePeopleRepository(people: Self.people)
        let interactor = ListInteractor(repository: repository, scheduler: ImmediateSearchScheduler())
        let flat = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        var placed: ListPlacement?
        interactor.placement(of: PersonID(2), orAt: nil, in: flat, byCompany: false) { placed = $0 }
        #expect(placed == ListPlacement(position: 2, companies: 2))
        let grouped = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        interactor.placement(of: PersonID(1), orAt: nil, in: grouped, byCompany: true) { placed = $0 }
        #expect(placed == ListPlacement(position: 0, companies: 2))  // Alpha's Bo comes first
    }

    @Test("the list's interactor copies the marked people in the list's order, else the selected one")
    func listCopiesMarkedThenSelected() throws {
        let repository = FakePeopleRepository(people: Self.people)
        let interactor = ListInteractor(repository: repository, scheduler: ImmediateSearchScheduler())
        let grouped = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        var copied: [String] = []
        interactor.peopleToCopy(marked: [PersonID(0), PersonID(1)], orderedBy: grouped, selected: PersonID(2)) {
            copied = ((try? $0.get()) ?? []).map(\.firstName)
        }
        #expect(copied == ["Bo", "Ann"])
        interactor.peopleToCopy(marked: [], orderedBy: grouped, selected: PersonID(2)) {
            copied = ((try? $0.get()) ?? []).map(\.firstName)
        }
        #expect(copied == ["Cy"])
        guard case .marks(let marks, _, _) = interactor.exportContent(marked: [PersonID(1)], shown: grouped, orderedBy: grouped) else {
            Issue.record("marks export the marked people")
            return
        }
        #expect(marks == [PersonID(1)])
    }
}
