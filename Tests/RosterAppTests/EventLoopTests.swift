import Foundation
import Testing
import TestSupport
import RosterCore
import RosterTUI
@testable import RosterStore
@testable import RosterApp
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// The real event loop, wake pipe, mailbox and background search, on a
/// scripted terminal: keys in, screens and exit statuses out.
@MainActor
@Suite("Event loop")
struct EventLoopTests {
    let terminal = ScriptedTerminal()
    let wakePipe = WakePipe()
    let mailbox: Mailbox
    let app: AppDependencies
    let loop: EventLoop

    init() throws {
        try self.init(loading: nil)
    }

    /// The app loading `repository` (nil: the seed's six people in memory).
    init(loading repository: Result<any PeopleRepository, LoadError>?) throws {
        let loaded = try repository ?? .success(Fixtures.repository(json: Fixtures.seedJSON, name: "seed.json").repository)
        let mailbox = Mailbox(wakePipe: wakePipe)
        self.mailbox = mailbox
        app = AppDependencies(screen: terminal.screen, interactor: StubDirectoryLoading(repository: loaded), sourceName: "seed.json",
                              makeSearcher: { BackgroundSearchScheduler(mailbox: mailbox) })
        loop = EventLoop(terminal: terminal, dependencies: app, wakePipe: wakePipe, mailbox: mailbox)
    }

    var screen: MemoryScreen { terminal.screen }

    /// Waits for the loaded list (it arrives through the mailbox).
    func listShown() -> ScriptedTerminal.Step {
        .waitUntil("the list") { [screen] in screen.line(3).hasPrefix("  Bertha Irwin") }
    }

    /// Runs the loop on the script; the checks and waits must all have held.
    func run(_ steps: [ScriptedTerminal.Step]) -> RosterApp.ExitStatus {
        terminal.script = steps
        let status = loop.run()
        #expect(terminal.timedOut == nil, "gave up waiting for \(terminal.timedOut ?? "")")
        #expect(terminal.failures.isEmpty, "\(terminal.failures)")
        return status
    }

    @Test("keys move between screens: Enter opens the detail, Esc comes back, Tab the overview, q ends with success")
    func keysToScreens() {
        let root = app.root
        let status = run([
            .check("the loading screen first") { [screen] in screen.text.contains("Loading seed.json…") },
            listShown(),
            .key(.down), .key(.enter),
            .check("the detail of the second person") { [screen] in
                root.depth == 2 && screen.text.contains("Email  cohen.james@comvene.name")
            },
            .key(.escape),
            .check("back on the list, Cohen James selected") { [screen] in
                root.depth == 1 && screen.line(4).hasPrefix("  Cohen James") && screen.style(row: 4, column: 2) == .selected
            },
            .key(.tab),
            .check("the company overview") { [screen] in root.depth == 2 && screen.text.contains("PERMADYNE") },
            .key(.escape),
            .check("the list again") { root.depth == 1 },
            .key(.character("q")),
        ])
        #expect(status == .success)
        #expect(loop.handledEvents == 1)
    }

    @Test("a search result that comes through the mailbox after a newer keystroke never shows")
    func staleSearchDropped() throws {
        let (memory, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "seed.json")
        // "c" is held and ignores being cancelled: it finishes after "co", as a slow source might.
        let repository = GatedSearchRepository(memory, holding: ["c"], honoursCancellation: false)
        let harness = try EventLoopTests(loading: .success(repository))
        let screen = harness.screen
        let loop = harness.loop
        // "co" keeps 4 people; "c" would show all 6, Norton Curtis among them.
        let coShown: @MainActor @Sendable () -> Bool = { screen.text.contains("Zamora Weber") && !screen.text.contains("Norton Curtis") }
        let status = harness.run([
            harness.listShown(),
            .key(.character("/")), .key(.character("c")),
            .waitUntil("the search for c begins") { repository.started == ["c"] },
            .key(.character("o")),
            .waitUntil("the matches of co") { coShown() },
            .check("c is still held") { repository.finished == ["co"] },
            .perform { repository.release("c") },
            .waitUntil("c's result handled: the load, co and c") { repository.finished == ["co", "c"] && loop.handledEvents == 3 },
            .check("still the matches of co") { coShown() && screen.text.contains("/co") },
            .key(.enter), .key(.character("q")),
        ])
        #expect(status == .success)
        #expect(harness.loop.handledEvents == 3)
    }

    @Test("keys typed ahead of a search wait for it and act on its result, in order (/co^N⏎Mj marks the 4 of co, selects the 3rd)")
    func keysTypedAheadWaitForTheSearch() throws {
        let (memory, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "seed.json")
        let repository = GatedSearchRepository(memory, holding: ["co"])
        let harness = try EventLoopTests(loading: .success(repository))
        let screen = harness.screen
        let root = harness.app.root
        let status = harness.run([
            harness.listShown(),
            // One burst, as a paste or a fast typist sends it.
            .key(.character("/")), .key(.character("c")), .key(.character("o")), .key(.control("n")), .key(.enter),
            .key(.character("M")), .key(.character("j")),
            .waitUntil("the search for co begins") { repository.started.contains("co") },
            .check("^N, Enter, M and j wait for it; nothing marked yet") {
                root.typedAhead == [.control("n"), .enter, .character("M"), .character("j")] && !screen.text.contains("marked")
            },
            .perform { repository.release("co") },
            .waitUntil("the 4 people of co marked, the third selected") { screen.line(23).hasPrefix(" 3/4 · 4 marked") },
            .check("nothing left waiting") { root.typedAhead.isEmpty },
            .key(.character("q")),
        ])
        #expect(status == .success)
    }

    @Test("keys typed while the directory loads act on the list once it shows; q still quits at once")
    func keysTypedWhileLoading() {
        let status = run([
            .key(.down), .key(.down),
            listShown(),
            .check("the third person selected") { [screen] in screen.line(23).hasPrefix(" 3/6") },
            .key(.character("q")),
        ])
        #expect(status == .success)
    }

    @Test("a resize redraws at the new size: too small, then larger")
    func resizeRedraws() {
        let status = run([
            listShown(),
            .resize(rows: 8, columns: 30),
            .check("the too-small notice") { [screen] in screen.text.contains("Terminal too small") && screen.text.contains("30×8") },
            .resize(rows: 30, columns: 100),
            .check("the list at 100×30") { [screen] in
                screen.line(3).hasPrefix("  Bertha Irwin") && !screen.text.contains("too small")
                    && screen.line(29).count == 100 && screen.style(row: 29, column: 0) == .bar
            },
            .key(.character("q")),
        ])
        #expect(status == .success)
        #expect(terminal.repaints == 2)
    }

    @Test("Ctrl-C ends with 130; Ctrl-Z suspends and comes back")
    func interrupt() {
        let status = run([listShown(), .key(.control("z")), .check("still running") { [app] in app.root.exitStatus == nil },
                          .key(.control("c"))])
        #expect(status == .interrupted)
        #expect(status.code == 130)
        #expect(terminal.suspensions == 1)
    }

    @Test("a signal on the wake pipe ends with 128 + its number")
    func signal() {
        let status = run([listShown(), .perform { [wakePipe] in wakePipe.wake(UInt8(SIGTERM)) },
                          .waitUntil("the loop to end") { false }])
        #expect(status == .signal(SIGTERM))
        #expect(status.code == 143)
    }

    @Test("a load error shows the error screen; q ends with failure")
    func loadFailure() throws {
        let harness = try EventLoopTests(loading: .failure(.notFound(file: "missing.json")))
        let screen = harness.screen
        let status = harness.run([
            .waitUntil("the error screen") { screen.text.contains("Roster could not open missing.json") },
            .key(.character("q")),
        ])
        #expect(status == .failure)
    }

    @Test("q on the loading screen ends with success before the load is shown")
    func quitWhileLoading() {
        let status = run([.key(.character("q"))])
        #expect(status == .success)
        #expect(!screen.text.contains("Bertha Irwin"))
    }

    @Test("a lost connection is tried again on its own: quietly while it fails, then reconnected")
    func reconnectsOnItsOwn() throws {
        let (memory, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "postgres://db")
        let repository = StubReconnectingRepository(base: memory, failure: "no server")
        let harness = try EventLoopTests(loading: .success(repository))
        let screen = harness.screen
        let status = harness.run([
            .waitUntil("the list, its title saying the connection is lost") { screen.line(0).contains("connection lost, r reconnects") },
            // The first try comes 1 s after loading; the next 2 s after it.
            .waitUntil("a failed try, on its own") { repository.attempts == 1 },
            .check("said by the title alone") { screen.line(0).contains("connection lost") && screen.line(23).hasPrefix(" 1/6 ·") },
            .perform { repository.setFailure(nil) },
            .waitUntil("reconnected, on its own") { screen.text.contains("reconnected") && !screen.text.contains("connection lost") },
            .check("tried twice, no key pressed") { repository.attempts == 2 },
            .key(.character("q")),
        ])
        #expect(status == .success)
    }

    @Test("from the offline copy, the server is tried on its own and with r; once it answers the live directory replaces the copy at the same person")
    func offlineCopyGoesLive() throws {
        let path = NSTemporaryDirectory() + "roster-live-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try PeopleImporter(table: PeopleTable(name: "people", dialect: .sqlite))
            .importPeople(Fixtures.directory(json: Fixtures.seedJSON).store, into: SQLiteConnection(path: path, access: .readWrite))
        let serverUp = Locked(false)
        let tries = Locked(0)
        let link = LiveDirectoryLink(target: "postgres://db") {
            tries.withLock { $0 += 1 }
            guard serverUp.withLock({ $0 }) else {
                return .failure(DatabaseSource.OpenFailure(target: "postgres://db", table: "people",
                                                           error: DatabaseError(.cannotConnect, "no server")))
            }
            return DatabaseSource.open(.sqlite(path: path), table: nil)
        }
        let (copy, _) = try Fixtures.repository(json: Fixtures.seedJSON, name: "offline as of 14:02, r reconnects — postgres://db")
        let harness = try EventLoopTests(loading: .success(OfflineCopyRepository(copy: copy, link: link)))
        let screen = harness.screen
        let status = harness.run([
            .waitUntil("the copy") { screen.line(0).contains("offline as of 14:02, r reconnects — ") && screen.text.contains("Bertha Irwin") },
            .key(.down), .key(.down),
            .waitUntil("a failed try, on its own") { tries.withLock { $0 } == 1 },
            .check("the copy and the place still shown, nothing said") {
                screen.line(0).contains("offline as of 14:02, r reconnects — ") && screen.line(23).hasPrefix(" 3/6 · COMSTAR")
            },
            .key(.character("r")),
            .waitUntil("r says why not") { screen.text.contains("still offline: the server cannot be reached") },
            // Marked, then the overview over the list: both were of the copy.
            .key(.character("m")), .key(.tab),
            .waitUntil("the overview") { screen.line(1).contains("Company") },
            .perform { serverUp.withLock { $0 = true } },
            .waitUntil("the live directory in the copy's place, on its own") {
                !screen.line(0).contains("offline") && screen.line(0).contains(".db ")
            },
            // The person is looked up in the live directory in the background.
            .waitUntil("at the same person, the same person marked, the overview closed") {
                let status = screen.line(23)
                return status.hasPrefix(" 4/6 · 1 marked · PERMADYNE") && status.contains("reconnected: live again")
                    && screen.line(1).contains("Last name")
            },
            .check("opened once") { link.live != nil },
            .key(.character("q")),
        ])
        #expect(status == .success)
    }
}
