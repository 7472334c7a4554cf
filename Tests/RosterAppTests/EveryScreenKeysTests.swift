import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

/// The keys the root sees before any screen (Ctrl-L), what a key no
/// screen uses gets, and the list's sort menu and command line through
/// the real wireframes, on an in-memory screen.
@MainActor
@Suite("Keys on every screen")
struct EveryScreenKeysTests {
    /// The app on an in-memory screen, as the wireframe tests run it.
    let harness = WireframeTests()
    var screen: MemoryScreen { harness.screen }

    func app(json: String = Fixtures.seedJSON) async throws -> AppDependencies {
        await harness.app(.success(try Fixtures.directory(json: json, name: "seed.json")))
    }

    func press(_ keys: Key..., in dependencies: AppDependencies) {
        for key in keys { harness.press(key, in: dependencies) }
    }

    func type(_ text: String, in dependencies: AppDependencies) {
        for character in text { press(.character(character), in: dependencies) }
    }

    var bottom: String { screen.line(23) }

    @Test("Ctrl-L repaints the whole screen on every screen, over the help and the too-small notice too, and changes nothing else")
    func redraw() async throws {
        let app = try await app()
        let screens: [[Key]] = [[], [.enter], [.escape, .tab], [.escape, .character("F")], [.escape, .character("?")]]
        for (index, keys) in screens.enumerated() {
            for key in keys { press(key, in: app) }
            let before = screen.text
            let presented = screen.presentCount
            press(.control("l"), in: app)
            #expect(screen.repaints == index + 1)
            #expect(screen.presentCount == presented + 1)
            #expect(screen.text == before)
            #expect(app.root.unusedKeyNotice == nil)
        }
        #expect(screen.text.contains("List keys"), "the help stays open")
        screen.resize(rows: 8, columns: 30)
        press(.control("l"), in: app)
        #expect(screen.repaints == screens.count + 1)
        #expect(screen.text.contains("Terminal too small"))
    }

    @Test("a key no screen uses says so once, on every screen, naming the way to help; the next key takes it away", arguments: [
        ([Key](), Key.character("x"), "x: no such key · ? help"),
        ([.enter], .character("n"), "n: no such key · ? help"),
        ([.tab], .character("x"), "x: no such key · ? help"),
        ([.character("F")], .control("x"), "Ctrl-X: no such key · ? help"),
        ([.character("!")], .character("z"), "z: no such key · Esc back"),
        ([.character("C")], .character("z"), "z: no such key · ? help"),
        ([.character("/")], .function(5), "F5: no such key · Esc closes the prompt"),
        ([.character("o")], .character("x"), "x: no such key · a column's letter, or Esc"),
        ([.character(":")], .function(5), "F5: no such key · Esc closes the line"),
    ])
    func unusedKey(opening: [Key], key: Key, notice: String) async throws {
        let app = try await app(json: Fixtures.array([Fixtures.record(), "null"] + (1..<6).map { Fixtures.record(first: "P\($0)") }))
        for key in opening { press(key, in: app) }
        let before = screen.text.components(separatedBy: "\n")
        press(key, in: app)
        #expect(bottom.hasSuffix(" \(notice) "), "\(bottom)")
        #expect(screen.text.components(separatedBy: "\n").dropLast() == before.dropLast(), "only the bottom line changes")
        press(.control("l"), in: app)
        #expect(!bottom.contains("no such key"))
    }

    @Test("keys that do something say nothing: the help closes on any key, r reconnects from a screen without it, a click off the rows")
    func usedKeys() async throws {
        let app = try await app()
        press(.character("?"), .character("x"), in: app)
        #expect(app.root.unusedKeyNotice == nil)
        #expect(!screen.text.contains("List keys"))
        press(.character("!"), in: app)
        #expect(app.root.depth == 1, "nothing skipped: the list says so")
        press(.character("C"), .character("r"), in: app)
        #expect(app.root.unusedKeyNotice == nil)
        press(.escape, .mouse(MouseEvent(.click, row: 0, column: 3)), in: app)
        #expect(app.root.unusedKeyNotice == nil)
    }

    @Test("O B sorts everyone by balance, largest first, as one flat list; the status bar names it; g shows the top")
    func sortMenu() async throws {
        let app = try await app()
        press(.down, .down, .down, .character("O"), in: app)
        #expect(app.root.depth == 2)
        #expect(screen.text.contains("b  balance"))
        press(.character("B"), in: app)
        #expect(app.root.depth == 1)
        #expect(bottom.hasPrefix(" 3/6 · PERMADYNE · balance ↓, flat"), "Zamora Weber kept selected: \(bottom)")
        press(.character("g"), in: app)
        #expect(screen.line(3).hasPrefix("  Cohen James") && screen.line(4).hasPrefix("  Barnes Pickett"))
        #expect(screen.line(1).contains("Balance ↓"))
        press(.character("o"), .escape, in: app)
        #expect(app.root.depth == 1)
        #expect(bottom.contains("balance ↓, flat"))
    }

    @Test("the command line: :sort balance desc, :filter, :4, Tab, an unknown command, :help, :columns, :q")
    func commandLine() async throws {
        let app = try await app()
        press(.character(":"), in: app)
        type("sort balance desc", in: app)
        #expect(bottom.hasPrefix(" :sort balance desc"))
        press(.enter, in: app)
        #expect(app.root.depth == 1)
        #expect(bottom.contains("balance ↓"))
        press(.character(":"), in: app)
        type("filter company:recrisys", in: app)
        press(.enter, in: app)
        #expect(bottom.contains("filter: company:recrisys"))
        press(.character(":"), in: app)
        type("fi", in: app)
        press(.tab, .enter, in: app)
        #expect(!bottom.contains("filter:"))
        press(.character(":"), .character("4"), .enter, in: app)
        #expect(bottom.hasPrefix(" 4/6"))
        press(.character(":"), in: app)
        type("srot", in: app)
        press(.enter, in: app)
        #expect(screen.line(22).hasPrefix(" no command 'srot'; did you mean sort?"))
        #expect(app.root.depth == 2)
        press(.control("u"), in: app)
        type("h", in: app)
        press(.enter, in: app)
        #expect(screen.line(0).contains("List keys"))
        press(.escape, .character(":"), in: app)
        type("col", in: app)
        press(.enter, in: app)
        #expect(screen.text.contains("Columns"))
        press(.enter, .character(":"), .up, .up, in: app)
        #expect(bottom.hasPrefix(" :h "), "↑ recalls the commands run: \(bottom)")
        press(.control("u"), .character("q"), .enter, in: app)
        #expect(app.root.exitStatus == .success)
    }
}
