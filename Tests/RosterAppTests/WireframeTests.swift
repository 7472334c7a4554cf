import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

/// The whole app without a terminal: real wireframes, presenters and views
/// on an in-memory screen, keys sent to the root as the event loop would.
@MainActor
@Suite("Wireframes and navigation")
struct WireframeTests {
    let screen = MemoryScreen(rows: 24, columns: 80)

    func app(_ result: Result<LoadedDirectory, LoadError>) async -> AppDependencies {
        let dependencies = AppDependencies(screen: screen, interactor: StubDirectoryLoading(result), sourceName: "seed.json", makeSearcher: { ImmediateSearchScheduler() })
        dependencies.directoryLoaded(await AppDependencies.loadAndArrange(interactor: dependencies.interactor, progress: LoadProgress()))
        dependencies.root.draw()
        return dependencies
    }

    func press(_ keys: Key..., in dependencies: AppDependencies) {
        for key in keys {
            dependencies.root.handle(key)
            dependencies.root.draw()
        }
    }

    @Test("list → detail → next → back selects the person last shown")
    func detailRoundTrip() async throws {
        let app = await app(.success(try Fixtures.directory(json: Fixtures.seedJSON, name: "seed.json")))
        #expect(screen.line(3).hasPrefix("  Bertha Irwin"))
        press(.down, .enter, in: app)
        #expect(app.root.depth == 2)
        #expect(screen.text.contains("Email  cohen.james@comvene.name"))
        press(.down, in: app)
        #expect(screen.text.contains("Vanessa Sanchez"))
        press(.escape, in: app)
        #expect(app.root.depth == 1)
        #expect(app.listWireframe.listPresenter?.selection == 2)
        #expect(screen.style(row: 5, column: 2) == .selected)
        #expect(screen.line(5).hasPrefix("  Vanessa Sanchez"))
        for back in [Key.left, .character("h"), .backspace] {
            press(.enter, back, in: app)
            #expect(app.root.depth == 1)
        }
        #expect(app.root.exitStatus == nil)
        press(.character("q"), in: app)
        #expect(app.root.exitStatus == .success)
    }

    @Test("q quits from the detail screen too, and Ctrl-C quits with 130")
    func quitting() async throws {
        let app = await app(.success(try Fixtures.directory(json: Fixtures.seedJSON)))
        press(.enter, .character("q"), in: app)
        #expect(app.root.exitStatus == .success)
        let other = await self.app(.success(try Fixtures.directory(json: Fixtures.seedJSON)))
        press(.control("c"), in: other)
        #expect(other.root.exitStatus == .interrupted)
    }

    @Test("a load error shows the error screen; q then exits with status 1")
    func errorScreen() async {
        let app = await app(.failure(.notFound(file: "missing.json")))
        #expect(screen.text.contains("Roster could not open missing.json"))
        #expect(screen.text.contains("missing.json: no such file"))
        press(.character("q"), in: app)
        #expect(app.root.exitStatus == .failure)
    }

    @Test("! lists skipped records; Esc comes back")
    func skippedRecords() async throws {
        let json = Fixtures.array([Fixtures.record(), "null", #"{"name": {"first": ""}}"#])
        let app = await app(.success(try Fixtures.directory(json: json)))
        #expect(screen.line(0).contains("2 skipped (! lists)"))
        press(.character("!"), in: app)
        #expect(screen.text.contains("record 2 (line 3): expected a person (an object), found null"))
        #expect(screen.text.contains("record 3 (line 4): no name (needs name.first or name.last)"))
        press(.escape, in: app)
        #expect(app.root.depth == 1)
        #expect(screen.line(3).hasPrefix("  Ada Lovelace"))
    }

    @Test("a too-small terminal shows a notice until it grows, keeping the selection")
    func resize() async throws {
        let app = await app(.success(try Fixtures.directory(json: Fixtures.seedJSON)))
        press(.down, .down, in: app)
        screen.resize(rows: 8, columns: 30)
        press(.down, in: app)  // ignored while too small
        #expect(screen.text.contains("Terminal too small"))
        screen.resize(rows: 12, columns: 60)
        app.root.draw()
        #expect(screen.line(5).hasPrefix("  Vanessa Sanchez"))
        #expect(screen.style(row: 5, column: 0) == .selected)
    }

    @Test("while loading, the progress screen shows and q cancels")
    func loadingScreen() {
        let dependencies = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.failure(.empty(file: "x"))), sourceName: "big.json", makeSearcher: { ImmediateSearchScheduler() })
        dependencies.progress.totalBytes.store(4_000_000, ordering: .relaxed)
        dependencies.progress.bytesRead.store(1_000_000, ordering: .relaxed)
        dependencies.progress.peopleLoaded.store(2_100, ordering: .relaxed)
        dependencies.startLoading { _ in }
        dependencies.root.draw()
        #expect(screen.text.contains("Loading big.json…"))
        #expect(screen.text.contains("25%"))
        #expect(screen.text.contains("1 MB of 4 MB · 2,100 people"))
        press(.character("q"), in: dependencies)
        #expect(dependencies.root.exitStatus == .success)
    }

    @Test("while a database's table is read, the screen says what it waits on; ? shows the keys at once, other keys wait")
    func databaseLoadingScreen() {
        let dependencies = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.failure(.empty(file: "x"))),
                                           sourceName: "postgres://db/hr", makeSearcher: { ImmediateSearchScheduler() })
        dependencies.progress.stage.withLock { $0 = "waiting: the table is locked, or the server busy" }
        dependencies.startLoading { _ in }
        dependencies.root.draw()
        #expect(screen.text.contains("Loading postgres://db/hr…"))
        #expect(screen.text.contains("waiting: the table is locked, or the server busy"))
        #expect(!screen.text.contains("kB"), "no bytes to count: no byte counter")
        press(.character("j"), .character("?"), in: dependencies)
        #expect(screen.line(0).contains("Keys while loading"))
        #expect(screen.text.contains("stop loading and quit"))
        #expect(dependencies.root.typedAhead == [.character("j")], "j waits for the list; ? did not")
        press(.escape, in: dependencies)
        #expect(screen.text.contains("waiting: the table is locked"), "Esc closed the help, not the app")
        #expect(dependencies.root.exitStatus == nil)
        press(.escape, in: dependencies)
        #expect(dependencies.root.exitStatus == .success)
    }
}

@MainActor
@Suite("Company overview navigation")
struct CompaniesNavigationTests {
    @Test("Tab opens the overview; Enter a company's people; Esc back twice")
    func overview() async throws {
        let screen = MemoryScreen(rows: 24, columns: 80)
        let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(try Fixtures.directory(json: Fixtures.seedJSON))),
                                  sourceName: "seed.json", makeSearcher: { ImmediateSearchScheduler() })
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        func press(_ key: Key) {
            app.root.handle(key)
            app.root.draw()
        }
        press(.tab)
        #expect(screen.line(0).contains("test.json: companies"))
        #expect(screen.text.contains("COMSTAR"))
        #expect(screen.line(2).contains("$7,488.22"))  // COMSTAR's three balances, exactly
        press(.down)
        press(.down)
        press(.enter)  // RECRISYS
        #expect(app.root.depth == 3)
        #expect(screen.line(2).hasPrefix("RECRISYS (2)"))
        #expect(screen.text.contains("Barnes Pickett"))
        #expect(!screen.text.contains("Bertha Irwin"))
        press(.character("s"))  // re-sorting keeps to the company's people
        #expect(!screen.text.contains("Bertha Irwin"))
        press(.escape)
        #expect(app.root.depth == 2)
        press(.escape)
        #expect(app.root.depth == 1)
        #expect(screen.text.contains("Bertha Irwin"))
    }
}

@MainActor
@Suite("Counts by field navigation")
struct FrequencyNavigationTests {
    /// The whole app on an in-memory screen, as `WireframeTests` drives it.
    let driver = WireframeTests()
    var screen: MemoryScreen { driver.screen }

    func app(_ result: Result<LoadedDirectory, LoadError>) async -> AppDependencies { await driver.app(result) }
    func press(_ keys: Key..., in app: AppDependencies) { for key in keys { driver.press(key, in: app) } }

    @Test("F counts by field; Enter lists a value's people under the filter and its term; back hands the filter back without it")
    func counts() async throws {
        let app = await app(.success(try Fixtures.directory(json: Fixtures.seedJSON)))
        press(.character("/"), in: app)
        for character in "-irwin" { press(.character(character), in: app) }
        press(.enter, in: app)
        #expect(app.listWireframe.listPresenter?.filter == "-irwin")
        press(.character("F"), in: app)
        #expect(app.root.depth == 2)
        #expect(screen.line(0).contains("counts by company"))
        #expect(screen.line(0).contains("5 of 6 people matching '-irwin'"))
        press(.character("f"), .character("f"), .character("f"), in: app)  // eye colour
        #expect(screen.line(0).contains("counts by eye color"))
        #expect(screen.line(3).hasPrefix(" brown "))
        press(.down, .enter, in: app)  // brown: Zamora Weber and Cohen James
        #expect(app.root.depth == 3)
        #expect(screen.line(0).contains("counts by eye color"))
        #expect(screen.text.contains("filter: -irwin eye=\"brown\""))
        #expect(screen.text.contains("Zamora Weber") && screen.text.contains("Cohen James"))
        #expect(!screen.text.contains("Vanessa Sanchez"))
        press(.left, in: app)
        #expect(app.root.depth == 2)
        #expect(app.listWireframe.listPresenter?.filter == "-irwin")
        press(.tab, in: app)
        #expect(app.root.depth == 1)
    }

    @Test("F in a company's own list counts that company's people; a value's list keeps to the company")
    func countsInACompanysList() async throws {
        let app = await app(.success(try Fixtures.directory(json: Fixtures.seedJSON)))
        press(.tab, .enter, in: app)  // COMSTAR: Bertha Irwin, Cohen James, Vanessa Sanchez
        #expect(screen.line(2).hasPrefix("COMSTAR (3)"))
        press(.character("F"), .character("f"), .character("f"), .character("f"), in: app)  // eye colour
        #expect(app.root.depth == 4)
        #expect(screen.line(0).contains("counts by eye color"))
        #expect(screen.line(0).contains("3 people"))
        #expect(screen.line(2).hasPrefix(" brown ") && screen.line(3).hasPrefix(" green "))
        press(.down, .enter, in: app)  // green: Bertha Irwin and Vanessa Sanchez
        #expect(app.root.depth == 5)
        #expect(screen.text.contains("Bertha Irwin") && screen.text.contains("Vanessa Sanchez"))
        #expect(!screen.text.contains("Norton Curtis"))  // green too, but at RECRISYS
        press(.left, .tab, in: app)
        #expect(app.root.depth == 3)
    }

    @Test("a value's term joins the filter, and leaves it again when the list closes, whatever was added")
    func valueTerms() {
        #expect(FrequencyScreenWireframe.adding("age:30-39", to: nil) == "age:30-39")
        #expect(FrequencyScreenWireframe.adding("age:30-39", to: "  ") == "age:30-39")
        #expect(FrequencyScreenWireframe.adding("age:30-39", to: "acme") == "acme age:30-39")
        #expect(FrequencyScreenWireframe.removing("age:30-39", from: "acme age:30-39") == "acme")
        #expect(FrequencyScreenWireframe.removing("age:30-39", from: "age:30-39") == nil)
        #expect(FrequencyScreenWireframe.removing("age:30-39", from: "acme age:30-39 jo") == "acme jo")  // added to: the term goes
        #expect(FrequencyScreenWireframe.removing("age:30-39", from: "acme age:30-35") == "acme age:30-35")  // the term edited: kept
        #expect(FrequencyScreenWireframe.removing("age:30-39", from: nil) == nil)
        #expect(FrequencyScreenWireframe.removing(nil, from: "acme") == "acme")
    }
}
