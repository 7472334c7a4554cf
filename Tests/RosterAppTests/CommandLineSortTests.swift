import Foundation
import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterStore
import RosterTUI

@MainActor
@Suite("--sort is for its run only")
struct CommandLineSortTests {
    func start(_ store: PlaceStore, sort: RosterCore.SortOrder?) async throws -> (AppDependencies, ListPresenter) {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let app = AppDependencies(screen: MemoryScreen(rows: 24, columns: 80), interactor: StubDirectoryLoading(.success(directory)),
                                  sourceName: "seed.json", makeSearcher: { ImmediateSearchScheduler() }, placeStore: store,
                                  startingView: StartingView(filter: nil, sort: sort))
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        let presenter = try #require(app.listWireframe.listPresenter)
        return (app, presenter)
    }

    @Test("a one-off --sort is not the next plain start's order; an order chosen with s or S is")
    func notRemembered() async throws {
        let file = PlaceStoreTests.temporaryStateFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = PlaceStore(stateFile: file, dataFile: "/seed.json")
        store.save(RememberedPlace(selectedPosition: nil, selectedID: nil, sortKey: "firstName"))
        let (app, presenter) = try await start(store, sort: RosterCore.SortOrder(.age, descending: true))
        #expect(presenter.sortOrder == RosterCore.SortOrder(.age, descending: true))
        app.savePlace()
        #expect((try? store.load().get())??.sortOrder == RosterCore.SortOrder(.firstName))
        // With no remembered place, a plain start goes back to the default order.
        let fresh = PlaceStore(stateFile: file, dataFile: "/other.json")
        let (other, _) = try await start(fresh, sort: RosterCore.SortOrder(.balance))
        other.savePlace()
        #expect((try? fresh.load().get())??.sortOrder == .byLastName)
        // Reversed by the user: their choice is remembered.
        presenter.reverseSortOrder()
        app.savePlace()
        #expect((try? store.load().get())??.sortOrder == RosterCore.SortOrder(.age))
    }
}
