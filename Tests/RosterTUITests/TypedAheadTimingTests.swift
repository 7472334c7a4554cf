import Testing
import TestSupport
@testable import RosterCore
@testable import RosterTUI

/// Which keys wait for work in flight: those that act on the rows it will
/// bring wait (typed ahead, in order); the ways out and the help never do.
@MainActor
@Suite("Keys typed while a screen works")
struct TypedAheadTimingTests {
    @Test("while a search or a new order is in flight, q, ? and Esc answer at once; keys that act on the rows wait")
    func listWaysOutNeverWait() {
        let presenter = SpyListModule()
        let view = ListView(presenter: presenter)
        presenter.hasWorkInFlight = true
        for key in [Key.character("q"), .character("?"), .escape] { #expect(view.timing(of: key) == .inOrder, "\(key)") }
        for key in [Key.character("j"), .enter, .character("M"), .character("e")] { #expect(view.timing(of: key) == .waits, "\(key)") }
        presenter.hasWorkInFlight = false
        #expect(view.timing(of: .character("j")) == .inOrder)
    }

    @Test("the overview's keys that act on its rows wait while its figures are counted (Tab j j ⏎ opens the third company)")
    func overviewRowsWaitForTheCount() throws {
        let repository = try FakePeopleRepository.seedThatMayWait()
        let reads = HeldReads()
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: repository, reader: reads), shown: repository.everyone,
                                           wireframe: SpyCompaniesWireframe())
        let view = CompaniesView(presenter: presenter)
        presenter.attach(view: view)
        #expect(presenter.isCounting)
        #expect(view.timing(of: .character("j")) == .waits)
        #expect(view.timing(of: .enter) == .waits)
        #expect(view.timing(of: .character("q")) == .inOrder && view.timing(of: .tab) == .inOrder)
        reads.finish()
        #expect(!presenter.isCounting)
        #expect(view.timing(of: .character("j")) == .inOrder)
    }

    @Test("in the counts, f waits for the field being counted, and so do the keys after it")
    func countsFieldWaitsForTheCount() throws {
        let repository = try FakePeopleRepository.seedThatMayWait()
        let reads = HeldReads()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: repository, reader: reads), field: .company,
                                           shown: repository.everyone, wireframe: SpyFrequencyWireframe())
        let view = FrequencyView(presenter: presenter)
        presenter.attach(view: view)
        #expect(view.timing(of: .character("f")) == .waits)
        #expect(view.timing(of: .character("j")) == .waits)
        #expect(view.timing(of: .escape) == .inOrder)
        reads.finish()
        #expect(view.timing(of: .character("f")) == .inOrder)
    }
}
