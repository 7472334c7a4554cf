import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

/// Issue 10: every screen says what it shows. The real wireframes on the
/// in-memory screen, keys sent to the root as the event loop would.
@MainActor
@Suite("Screens that tell the truth")
struct TruthfulScreensTests {
    let screen = MemoryScreen(rows: 24, columns: 80)

    func app(json: String = Fixtures.seedJSON, startingView: StartingView = StartingView(),
             placeStore: PlaceStore? = nil) async throws -> AppDependencies {
        let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(try Fixtures.directory(json: json))),
                                  sourceName: "test.json", makeSearcher: { ImmediateSearchScheduler() }, placeStore: placeStore,
                                  startingView: startingView)
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        app.root.draw()
        return app
    }

    func press(_ keys: Key..., in app: AppDependencies) {
        for key in keys {
            app.root.handle(key)
            app.root.draw()
        }
    }

    func type(_ text: String, in app: AppDependencies) {
        for character in text { press(.character(character), in: app) }
    }

    var statusLine: String { screen.line(23) }

    @Test("a company's list opens in the order the list had, says so, and s moves on from it")
    func companyListOrder() async throws {
        let app = try await app()
        // first name, email, age, active, phone, city, balance; then ↓
        press(.character("s"), .character("s"), .character("s"), .character("s"), .character("s"), .character("s"),
              .character("s"), .character("S"), in: app)
        #expect(statusLine.contains("balance ↓"))
        press(.tab, .enter, in: app)  // COMSTAR
        #expect(app.root.depth == 3)
        #expect(screen.line(3).hasPrefix("  Cohen James"))  // $3,334.51 first
        #expect(screen.line(5).hasPrefix("  Vanessa Sanchez"))  // $2,046.56 last
        #expect(statusLine.contains("balance ↓"))
        press(.character("s"), in: app)  // a new key starts ascending, whatever S did to the balance
        #expect(statusLine.contains("last name ↑"))
        #expect(screen.line(3).hasPrefix("  Bertha Irwin"))
    }

    @Test("Tab opens the overview on the selected person's company")
    func overviewOnCurrentCompany() async throws {
        let app = try await app()
        press(.end, .tab, in: app)  // Barnes Pickett, RECRISYS
        #expect(statusLine.hasPrefix(" 3/3 · name ↑"))
        #expect(screen.style(row: 4, column: 1) == .selected)
        #expect(screen.line(4).contains("RECRISYS"))
    }

    @Test("a company's list shows where it is: breadcrumb, its count, Esc overview; ← h Backspace go back")
    func companyListBreadcrumb() async throws {
        let app = try await app()
        press(.tab, .enter, in: app)
        #expect(screen.line(0).hasPrefix(" Roster — test.json › COMSTAR"))
        #expect(screen.line(0).hasSuffix("3 people "))
        #expect(statusLine.contains("Esc overview"))
        for back in [Key.left, .character("h"), .backspace] {
            press(back, in: app)
            #expect(app.root.depth == 2)
            press(.enter, in: app)
            #expect(app.root.depth == 3)
        }
    }

    @Test("from the counts, a value's list says Esc counts and Esc goes straight back, the people list's filter untouched")
    func valueListEscapesToCounts() async throws {
        let app = try await app()
        press(.character("F"), .character("f"), in: app)  // counts by city
        #expect(screen.line(0).contains("counts by city"))
        press(.enter, in: app)
        #expect(app.root.depth == 3)
        #expect(statusLine.contains("filter: city="))
        screen.resize(rows: 24, columns: 120)  // room for the hints after the filter
        app.root.draw()
        #expect(statusLine.contains("Esc counts"))
        press(.escape, in: app)
        #expect(app.root.depth == 2)
        #expect(screen.line(0).contains("counts by city"))
        #expect(app.listWireframe.listPresenter?.filter == nil)
        // A company's list from the counts: Esc says where it goes too.
        press(.character("F"), in: app)
        #expect(screen.line(0).contains("counts by company"))
        press(.enter, in: app)
        #expect(statusLine.contains("Esc counts"))
        press(.escape, in: app)
        #expect(screen.line(0).contains("counts by company"))
    }

    @Test("a filter added in a value's list comes back without the value's term: all states counted, the list filtered by the rest")
    func valueListHandsBackFilterLessTerm() async throws {
        let app = try await app()
        press(.character("F"), .character("f"), .character("f"), in: app)  // counts by state
        #expect(screen.line(0).contains("counts by state"))
        press(.character("j"), .enter, in: app)  // Kansas
        #expect(app.root.depth == 3)
        press(.character("/"), in: app)
        type(" -age>40", in: app)
        press(.enter, in: app)
        #expect(statusLine.contains(#"filter: state="Kansas"  -age>40"#))
        press(.escape, in: app)
        #expect(app.root.depth == 2)
        #expect(statusLine.contains("filter: -age>40"))
        #expect(!statusLine.contains("Kansas"))
        #expect(screen.line(0).hasSuffix("6 of 6 people matching '-age>40' "))  // every state counted again, not Kansas alone
        #expect(screen.line(2).contains("Arizona"))
        press(.tab, in: app)
        #expect(app.root.depth == 1)
        #expect(app.listWireframe.listPresenter?.filter == "-age>40")
    }

    @Test("/ in a value's list opens on its term and a space: a term typed at once stands apart, and goes back without it")
    func valueListPromptSpacesTheTerm() async throws {
        let app = try await app()
        press(.character("F"), .character("f"), .character("f"), .character("j"), .enter, .character("/"), in: app)  // Kansas
        #expect(screen.text.contains(#"state="Kansas" "#))
        type("-age>40", in: app)
        press(.enter, in: app)
        #expect(statusLine.contains(#"filter: state="Kansas" -age>40"#))
        press(.escape, .tab, in: app)
        #expect(app.listWireframe.listPresenter?.filter == "-age>40")
    }

    @Test("the overview counts only the filter's matches, says so, and Esc clears the filter everywhere")
    func overviewUnderFilter() async throws {
        let app = try await app()
        press(.character("/"), in: app)
        type("sanchez", in: app)
        press(.enter, in: app)
        #expect(screen.line(0).hasSuffix("1 of 6 people · 1 of 3 companies "))
        press(.tab, in: app)
        #expect(screen.line(0).contains("1 of 6 people · 1 of 3 companies"))
        #expect(screen.line(2).contains("COMSTAR"))
        #expect(screen.line(2).contains("$2,046.56"))  // Vanessa's balance only, not the company's three
        #expect(!screen.text.contains("RECRISYS"))
        #expect(statusLine.contains("filter: sanchez"))
        #expect(statusLine.contains("Esc clear"))
        press(.escape, in: app)
        #expect(app.root.depth == 2)  // Esc cleared the filter; still in the overview
        #expect(!statusLine.contains("filter:"))
        #expect(screen.text.contains("RECRISYS"))
        #expect(screen.line(2).contains("$7,488.22"))
        press(.escape, in: app)
        #expect(app.root.depth == 1)
        #expect(app.listWireframe.listPresenter?.filter == nil)
        #expect(screen.line(0).hasSuffix("6 people · 3 companies "))
    }

    @Test("a company's list opens under the filter, shows it, edits it with /, clears it with Esc; the overview follows")
    func companyListUnderFilter() async throws {
        let app = try await app()
        press(.character("/"), in: app)
        type("sanchez", in: app)
        press(.enter, .tab, .enter, in: app)
        #expect(app.root.depth == 3)
        #expect(screen.line(0).hasSuffix("1 of 3 people "))
        #expect(screen.line(2).hasPrefix("COMSTAR (1/3)"))
        #expect(statusLine.contains("filter: sanchez"))
        press(.character("/"), in: app)
        #expect(statusLine.hasPrefix(" /sanchez "))
        press(.escape, in: app)  // cancels the edit: the filter stays
        #expect(statusLine.contains("filter: sanchez"))
        press(.escape, in: app)  // on the list, Esc clears the filter
        #expect(!statusLine.contains("filter:"))
        #expect(screen.text.contains("Bertha Irwin"))
        #expect(screen.text.contains("Cohen James"))
        press(.escape, in: app)  // back to the overview, which takes up the cleared filter
        #expect(app.root.depth == 2)
        #expect(!statusLine.contains("filter:"))
        #expect(screen.line(2).contains("$7,488.22"))
        #expect(app.listWireframe.listPresenter?.filter == nil)
    }

    @Test("a filter typed in a company's list becomes the list's and the overview's on the way back")
    func filterFromCompanyList() async throws {
        let app = try await app()
        press(.tab, .enter, .character("/"), in: app)
        type("cohen", in: app)
        press(.enter, .escape, in: app)  // Enter keeps the filter; Esc clears it first...
        #expect(app.root.depth == 3)
        press(.character("/"), in: app)
        type("cohen", in: app)
        press(.enter, .tab, in: app)  // ...so leave with Tab
        #expect(app.root.depth == 2)
        #expect(statusLine.contains("filter: cohen"))
        #expect(screen.line(0).contains("1 of 6 people"))
        press(.tab, in: app)
        #expect(statusLine.contains("filter: cohen"))
        #expect(screen.line(3).hasPrefix("  Cohen James"))
    }

    @Test("a search landing in a collapsed company opens it")
    func searchOpensCollapsedCompany() async throws {
        let app = try await app()
        press(.character(" "), in: app)  // collapse COMSTAR
        #expect(screen.line(2).hasPrefix("▸ COMSTAR"))
        press(.character("/"), in: app)
        type("vanessa", in: app)
        #expect(screen.line(2).hasPrefix("COMSTAR (1/3)"))
        #expect(screen.line(3).hasPrefix("  Vanessa Sanchez"))
        #expect(screen.style(row: 3, column: 79) == .selected)
    }

    @Test("coming back from a person in a collapsed company opens it")
    func detailReturnOpensCollapsedCompany() async throws {
        let app = try await app()
        press(.down, .down, .down, .character(" "), in: app)  // collapse PERMADYNE (Zamora)
        press(.up, .enter, .down, .escape, in: app)  // Vanessa, then Zamora in the detail
        #expect(app.listWireframe.listPresenter?.collapsedCompanies.isEmpty == true)
        #expect(screen.line(7).hasPrefix("  Zamora Weber"))
        #expect(screen.style(row: 7, column: 2) == .selected)
    }

    @Test("] at the last company stays put and says so; also in one company and the flat list")
    func nextCompanyAtTheEnd() async throws {
        let app = try await app()
        press(.end, in: app)
        #expect(statusLine.hasPrefix(" 6/6"))
        press(.character("]"), in: app)
        #expect(statusLine.hasPrefix(" 6/6"))
        #expect(statusLine.contains("already at the last company"))
        press(.home, .character("["), in: app)
        #expect(statusLine.hasPrefix(" 1/6"))
        #expect(statusLine.contains("already at the first company"))
        press(.character("c"), in: app)  // flat
        let flatPosition = String(statusLine.prefix(5))
        press(.character("]"), in: app)
        #expect(statusLine.hasPrefix(flatPosition))
        #expect(statusLine.contains("c groups by company"))
        press(.character("c"), .tab, .enter, .down, .character("]"), in: app)  // COMSTAR's own list
        #expect(statusLine.hasPrefix(" 2/3"))
        #expect(statusLine.contains("only one company here"))
    }

    @Test("--filter and --sort open the app filtered and ordered")
    func startingView() async throws {
        _ = try await app(startingView: StartingView(filter: "comstar", sort: SortOrder(.balance, descending: true)))
        #expect(statusLine.contains("balance ↓"))
        #expect(statusLine.contains("filter: comstar"))
        #expect(screen.line(3).hasPrefix("  Cohen James"))
        #expect(screen.line(0).hasSuffix("3 of 6 people · 1 of 3 companies "))
    }

    @Test("an explicit --sort wins over the remembered order")
    func sortBeatsRememberedPlace() async throws {
        let folder = NSTemporaryDirectory() + "roster-state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PlaceStore(stateFile: URL(fileURLWithPath: folder + "/state.json"), dataFile: "/data/people.json")
        _ = store.save(RememberedPlace(selectedPosition: 4, selectedID: "58f9a196361f66d65c9b39f8", sortKey: "age", descending: false))
        _ = try await app(startingView: StartingView(sort: SortOrder(.firstName)), placeStore: store)
        #expect(statusLine.contains("first name ↑"))
        #expect(statusLine.hasPrefix(" 2/6 · COMSTAR"))  // Cohen James, remembered, after Bertha
        let remembered = try await self.app(placeStore: store)
        #expect(remembered.listWireframe.listPresenter?.sortOrder == SortOrder(.age))
    }

    @Test("! with nothing skipped says so")
    func nothingSkipped() async throws {
        let app = try await app()
        press(.character("!"), in: app)
        #expect(app.root.depth == 1)
        #expect(statusLine.contains("no records were skipped"))
    }
}

import Foundation

@MainActor
@Suite("What is at an export's path")
struct FileExportTargetTests {
    @Test("nothing, a file, a directory, links, a device, a pipe and a socket, told apart with lstat")
    func targets() throws {
        let folder = NSTemporaryDirectory() + "roster-targets-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = FileManager.default.createFile(atPath: folder + "/file.csv", contents: Data("x".utf8))
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.csv", withDestinationPath: folder + "/gone.csv")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.csv", withDestinationPath: folder + "/file.csv")
        #expect(mkfifo(folder + "/pipe.csv", 0o600) == 0)
        let socketPath = folder + "/s.sock"
        let descriptor = SpecialFiles.socket(at: socketPath)
        defer { close(descriptor) }
        let writer = FileExportWriter()
        #expect(writer.target(at: folder + "/new.csv") == .nothing)
        #expect(writer.target(at: folder + "/file.csv") == .regularFile)
        #expect(writer.target(at: folder + "/link.csv") == .regularFile)
        #expect(writer.target(at: folder + "/sub") == .directory)
        #expect(writer.target(at: folder + "/dangling.csv") == .brokenSymbolicLink)
        #expect(writer.target(at: "/dev/null") == .characterDevice)
        #expect(writer.target(at: folder + "/pipe.csv") == .namedPipe)
        if descriptor >= 0 { #expect(writer.target(at: socketPath) == .socket) }
        if case .unusable = writer.target(at: folder + "/file.csv/inside.csv") {} else { Issue.record("a path through a file is unusable") }
    }
}

@MainActor
@Suite("Status lines that keep the reason")
struct StatusLineTests {
    @Test("a failure longer than the line shortens the path, never the reason")
    func longFailure() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let path = "/very/long/folder/name/that/goes/on/and/on/and/on/for/ever/people.csv"
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe(), exportWriter: FailingExportWriter())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        presenter.beginExport()
        presenter.editExportName(path)
        presenter.commitExport()
        let screen = MemoryScreen(rows: 24, columns: 80)
        view.draw(on: screen)
        #expect(screen.line(23).contains("(Permission denied)"))
        #expect(screen.line(23).contains("…"))
        #expect(screen.line(23).contains("people.csv"))
        let narrow = MemoryScreen(rows: 10, columns: 40)
        presenter.beginExport()
        presenter.editExportName("folder/" + path)
        presenter.commitExport()
        view.draw(on: narrow)
        #expect(narrow.line(9).contains("(Permission denied)"))
    }
}

@MainActor
@Suite("Status lines at 40 columns")
struct NarrowStatusLineTests {
    @Test("the order and the filter stay readable: the company (on screen anyway) and the hints give way first")
    func narrow() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe())
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        presenter.applyFilter("sanchez")
        let screen = MemoryScreen(rows: 10, columns: 40)
        view.draw(on: screen)
        #expect(screen.line(9).hasPrefix(" 1/1 · last name ↑ · filter: sanchez"))
        presenter.beginExport()
        presenter.editExportName("foo.txt")
        presenter.commitExport()
        view.draw(on: screen)
        #expect(screen.line(9).hasPrefix(" …: unknown extension, write CSV? (y/n)"))
    }
}

/// Fails every write as the real writer reports a refused open.
@MainActor
final class FailingExportWriter: ExportWriting {
    func target(at path: String) -> ExportTarget { .nothing }
    nonisolated func write(to path: String, replacing: Bool, _ produce: (inout OutputBuffer) async -> String?) async -> String? {
        "could not write \(path) (Permission denied)"
    }
}

#if canImport(Glibc)
import Glibc
#endif
