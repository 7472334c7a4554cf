import Foundation
import Testing
import TestSupport
import RosterCore
import RosterTUI
@testable import RosterApp

/// Records every search asked for, and runs it in the background as the app does.
@MainActor
final class CountingSearchScheduler: ListSearchScheduling {
    private let real: BackgroundSearchScheduler
    private(set) var queries: [String] = []

    init(mailbox: Mailbox) {
        real = BackgroundSearchScheduler(mailbox: mailbox)
    }

    func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?, repository: any PeopleRepository,
                completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                failed: @escaping @MainActor @Sendable (String) -> Void) {
        queries.append(query.text)
        real.search(query, in: everyone, within: within, repository: repository, completion: completion, failed: failed)
    }

    func cancelPending() { real.cancelPending() }

    func arrange(_ repository: any PeopleRepository, sort: RosterCore.SortOrder, byCompany: Bool, company: Int?,
                 completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
        real.arrange(repository, sort: sort, byCompany: byCompany, company: company, completion: completion)
    }
}

/// Pastes and typed-ahead text reach the search prompt as one edit and
/// one search, however long they are.
@MainActor
@Suite("Paste")
struct PasteTests {
    let terminal = ScriptedTerminal()
    let wakePipe = WakePipe()
    let searcher: CountingSearchScheduler
    let app: AppDependencies
    let loop: EventLoop

    init() throws {
        let loaded = try Fixtures.repository(json: Fixtures.seedJSON, name: "seed.json").repository
        let mailbox = Mailbox(wakePipe: wakePipe)
        let searcher = CountingSearchScheduler(mailbox: mailbox)
        self.searcher = searcher
        app = AppDependencies(screen: terminal.screen, interactor: StubDirectoryLoading(repository: .success(loaded)), sourceName: "seed.json",
                              makeSearcher: { searcher })
        loop = EventLoop(terminal: terminal, dependencies: app, wakePipe: wakePipe, mailbox: mailbox)
    }

    var screen: MemoryScreen { terminal.screen }

    func run(_ steps: [ScriptedTerminal.Step]) {
        terminal.script = [.waitUntil("the list") { [screen] in screen.line(3).hasPrefix("  Bertha Irwin") }] + steps
        _ = loop.run()
        #expect(terminal.timedOut == nil, "gave up waiting for \(terminal.timedOut ?? "")")
        #expect(terminal.failures.isEmpty, "\(terminal.failures)")
    }

    /// 94 KB of words, as the attacker pasted, ending in a word we can see.
    static let hugePaste = (0..<16_000).map { "w\($0 % 977)" }.joined(separator: "\n") + " LASTWORD"

    @Test("a 94 KB bracketed paste shows at once, says it is over the term limit, and the next key answers at once")
    func hugePasteIsOneEdit() {
        let clock = ContinuousClock()
        var elapsed = Duration.zero
        var start = clock.now
        run([
            .key(.character("/")),
            .perform { start = clock.now },
            .key(.paste(Self.hugePaste)),
            .check("the end of the paste in the prompt, its line breaks as spaces, and the term limit said") { [screen] in
                screen.line(23).contains("LASTWORD") && screen.text.contains("at most 256 terms")
            },
            .key(.backspace),
            .perform { elapsed = clock.now - start },
            .check("the edit after it shows") { [screen] in screen.line(23).contains("LASTWOR") && !screen.line(23).contains("LASTWORD") },
            .key(.escape), .key(.character("q")),
        ])
        // 16,001 terms: over the limit every source shares, so the prompt
        // says so and nothing is searched (a shorter paste is searched
        // once: the typed-ahead test below).
        #expect(searcher.queries.isEmpty, "\(searcher.queries.count) searches")
        // A bound far above linear work on a busy machine, far below the
        // quadratic minutes this paste used to take.
        #expect(elapsed < .seconds(60), "took \(elapsed)")
    }

    @Test("characters typed ahead go into the open prompt as one edit: one search for /abbott")
    func typedAheadIsOneEdit() {
        run([
            .key(.typed("/abbott")),
            .check("the prompt holds the text") { [screen] in screen.line(23).contains("abbott") },
            .key(.escape), .key(.character("q")),
        ])
        #expect(searcher.queries == ["abbott"])
    }

    @Test("characters typed ahead on the list are keys, one at a time: jj moves down twice, q quits")
    func typedAheadOnTheListAreKeys() {
        run([
            .key(.typed("jj")),
            .check("the third person selected") { [screen] in screen.style(row: 5, column: 2) == .selected },
            .key(.typed("q")),
        ])
        #expect(app.root.exitStatus == .success)
    }

    @Test("a paste on the list (no prompt open) is never read as keys")
    func pasteOnTheListIsIgnored() {
        run([
            .key(.paste("q")),
            .check("still running, still on the first person") { [app, screen] in
                app.root.exitStatus == nil && screen.style(row: 3, column: 2) == .selected
            },
            .key(.character("q")),
        ])
    }
}
