import Foundation
import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
import RosterTUI

@Suite("Remembered place")
struct PlaceStoreTests {
    static func temporaryStateFile() -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-state-\(UUID().uuidString)/roster/state.json")
    }

    @Test("round trip, per data file, written 0600 and atomically")
    func roundTrip() throws {
        let file = Self.temporaryStateFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        let first = PlaceStore(stateFile: file, dataFile: "/data/a.json")
        let second = PlaceStore(stateFile: file, dataFile: "/data/b.json")
        #expect(first.load() == .success(nil))
        let place = RememberedPlace(selectedPosition: 3, selectedID: "x3", sortKey: "balance", descending: true, groupedByCompany: false)
        #expect(first.save(place))
        #expect(second.save(RememberedPlace(selectedPosition: 1, selectedID: nil)))
        #expect(first.load() == .success(place))
        #expect(second.load() == .success(RememberedPlace(selectedPosition: 1, selectedID: nil)))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(leftovers == ["state.json"])
    }

    @Test("a corrupt state file is reported, never fatal, and replaced on save")
    func corrupt() throws {
        let file = Self.temporaryStateFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: file)
        let store = PlaceStore(stateFile: file, dataFile: "/a.json")
        #expect(store.load() == .failure(.unreadable))
        #expect(store.save(RememberedPlace(selectedPosition: 0, selectedID: nil)))
        #expect(store.load() == .success(RememberedPlace(selectedPosition: 0, selectedID: nil)))
    }

    @Test("XDG_STATE_HOME, else ~/.local/state")
    func location() {
        #expect(PlaceStore.defaultStateFile(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path == "/s/roster/state.json")
        #expect(PlaceStore.defaultStateFile(environment: ["HOME": "/h"]).path == "/h/.local/state/roster/state.json")
        #expect(PlaceStore.defaultStateFile(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]).path == "/h/.local/state/roster/state.json")
    }

    @MainActor
    @Test("the app restores the person, order and grouping, and notes a corrupt file")
    func appRestores() async throws {
        let file = Self.temporaryStateFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let store = PlaceStore(stateFile: file, dataFile: "/seed.json")
        store.save(RememberedPlace(selectedPosition: 3, selectedID: "58f9a196fe6014ff5fd07cb5", sortKey: "balance",
                                   descending: true, groupedByCompany: true))
        let screen = MemoryScreen(rows: 24, columns: 80)
        let app = AppDependencies(screen: screen, interactor: StubListInteractor(.success(directory)), sourceName: "seed.json",
                                  searcher: ImmediateSearchScheduler(), placeStore: store)
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        let presenter = try #require(app.listWireframe.listPresenter)
        #expect(presenter.sortOrder == SortOrder(.balance, descending: true))
        #expect(directory.store[Int(presenter.displayed.order[presenter.selection])].lastName == "Pickett")
        presenter.moveSelection(by: 1)
        app.savePlace()
        #expect((try? store.load().get())??.selectedPosition == 1)

        try Data("garbage".utf8).write(to: file)
        let again = AppDependencies(screen: screen, interactor: StubListInteractor(.success(directory)), sourceName: "seed.json",
                                    searcher: ImmediateSearchScheduler(), placeStore: store)
        again.directoryLoaded(await AppDependencies.loadAndArrange(interactor: again.interactor, progress: LoadProgress()))
        again.root.draw()
        #expect(screen.line(0).contains("state file unreadable; ignored"))
    }
}
