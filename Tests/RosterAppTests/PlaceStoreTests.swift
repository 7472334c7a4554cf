import Foundation
import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterStore
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
        #expect(first.save(place, now: 10))
        #expect(second.save(RememberedPlace(selectedPosition: 1, selectedID: nil), now: 11))
        #expect(first.load() == .success(Self.saved(place, at: 10)))
        #expect(second.load() == .success(Self.saved(RememberedPlace(selectedPosition: 1, selectedID: nil), at: 11)))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(leftovers == ["state.json"])
    }

    @Test("a corrupt state file is reported, never fatal, and replaced on save")
    func corrupt() async throws {
        let file = Self.temporaryStateFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: file)
        let store = PlaceStore(stateFile: file, dataFile: "/a.json")
        #expect(store.load() == .failure(.unreadable))
        #expect(store.save(RememberedPlace(selectedPosition: 0, selectedID: nil), now: 5))
        #expect(store.load() == .success(Self.saved(RememberedPlace(selectedPosition: 0, selectedID: nil), at: 5)))
    }

    @Test("an older state file (no columns) still loads; columns round-trip; unknown column names are ignored")
    func columnsCompatible() throws {
        let file = Self.temporaryStateFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let old = #"{"version": 1, "places": {"/a.json": {"selectedPosition": 2, "sortKey": "age", "descending": false, "groupedByCompany": true}}}"#
        try Data(old.utf8).write(to: file)
        let store = PlaceStore(stateFile: file, dataFile: "/a.json")
        let loaded = try #require(try store.load().get())
        #expect(loaded.selectedPosition == 2 && loaded.columns == nil)
        var place = loaded
        place.columns = ["-email", "city", "shoeSize"]
        #expect(store.save(place, now: 3))
        let again = try #require(try store.load().get())
        #expect(again.columns == ["-email", "city", "shoeSize"])
        let choice = ColumnChoice(remembered: try #require(again.columns))
        #expect(choice.entries.first == ColumnChoice.Entry(.email, isShown: false))
        #expect(choice.entries.count == ListColumn.allCases.count - 1)
    }

    static func saved(_ place: RememberedPlace, at time: Double) -> RememberedPlace {
        var place = place
        place.savedAt = time
        return place
    }

    @Test("only the most recent places are kept: the file stays small however many files were opened")
    func bounded() throws {
        let file = Self.temporaryStateFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        let extra = 30
        for index in 0..<(PlaceStore.maximumPlaces + extra) {
            let store = PlaceStore(stateFile: file, dataFile: "/data/\(index).json")
            #expect(store.save(RememberedPlace(selectedPosition: index, selectedID: "id\(index)"), now: Double(index)))
        }
        let state = try #require(RememberedPlaces.decode(Array(try Data(contentsOf: file))))
        #expect(state.places.count == PlaceStore.maximumPlaces)
        #expect(state.places["/data/\(extra - 1).json"] == nil)  // the oldest went first
        #expect(state.places["/data/\(extra).json"] != nil)
        #expect(try Data(contentsOf: file).count < PlaceStore.maximumFileBytes / 8)
    }

    @Test("a state file beyond a sane size is ignored (one notice), never parsed, and replaced small on save")
    func oversized() throws {
        let file = Self.temporaryStateFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Valid JSON, but 2 MiB of it: 300k places from an older roster, say.
        var places: [String] = []
        for index in 0..<12_000 { places.append("\"/d/\(index).json\": {\"sortKey\": \"lastName\", \"descending\": false, \"groupedByCompany\": true}") }
        try Data("{\"version\": 1, \"places\": {\(places.joined(separator: ", "))}}".utf8).write(to: file)
        #expect(try Data(contentsOf: file).count > PlaceStore.maximumFileBytes)
        let store = PlaceStore(stateFile: file, dataFile: "/d/1.json")
        #expect(store.load() == .failure(.unreadable))
        #expect(store.save(RememberedPlace(selectedPosition: 2, selectedID: nil), now: 1))
        #expect(try Data(contentsOf: file).count < 1_000)
        #expect(store.load() == .success(Self.saved(RememberedPlace(selectedPosition: 2, selectedID: nil), at: 1)))
    }

    @Test("a state file that is a symbolic link to a FIFO is never replaced by a regular file")
    func neverReplacesSpecialFiles() throws {
        let file = Self.temporaryStateFile()
        let folder = file.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(symlink(fifo, file.path) == 0)
        let store = PlaceStore(stateFile: file, dataFile: "/d.json")
        #expect(store.load() == .failure(.unreadable))
        #expect(!store.save(RememberedPlace(selectedPosition: 2, selectedID: nil)))
        var status = stat()
        #expect(lstat(file.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK)
        #expect(stat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
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
        let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(directory)), sourceName: "seed.json",
                                  makeSearcher: { ImmediateSearchScheduler() }, placeStore: store)
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        let presenter = try #require(app.listWireframe.listPresenter)
        #expect(presenter.sortOrder == SortOrder(.balance, descending: true))
        #expect(presenter.selectedID.map { directory.store[$0.rawValue].lastName } == "Pickett")
        presenter.moveSelection(by: 1)
        app.savePlace()
        #expect((try? store.load().get())??.selectedPosition == 1)

        try Data("garbage".utf8).write(to: file)
        let again = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(directory)), sourceName: "seed.json",
                                    makeSearcher: { ImmediateSearchScheduler() }, placeStore: store)
        again.directoryLoaded(await AppDependencies.loadAndArrange(interactor: again.interactor, progress: LoadProgress()))
        again.root.draw()
        #expect(screen.line(0).contains("state file unreadable; ignored"))
    }
}
