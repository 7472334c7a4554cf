import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

extension WireframeTests {
    @Test("the list's message ends at the next key, whatever the key opens or closes: o Esc, : Esc, ? q, :col Esc, Esc, h, ←")
    func messageEndsAtTheNextKey() async throws {
        let app = await app(.success(try Fixtures.directory(json: Fixtures.seedJSON, name: "seed.json")))
        let said = "no search yet"
        let ways: [[Key]] = [[.character("o"), .escape], [.character(":"), .escape], [.character("?"), .character("q")],
                             [.character(":"), .character("c"), .character("o"), .character("l"), .escape],
                             [.escape], [.character("h")], [.left]]
        for keys in ways {
            press(.character("n"), in: app)
            #expect(screen.line(23).contains(said))
            for key in keys { press(key, in: app) }
            #expect(app.root.depth == 1)
            #expect(!screen.text.contains(said), "\(keys): the message came back")
        }
    }

    @Test("the sort menu: q closes it, ? shows help and the next key comes back to it; the overview's : takes :2 and :q")
    func sortMenuAndOverviewCommandLine() async throws {
        let app = await app(.success(try Fixtures.directory(json: Fixtures.seedJSON, name: "seed.json")))
        press(.character("o"), in: app)
        #expect(app.root.depth == 2)
        press(.character("?"), in: app)
        #expect(screen.line(0).contains("List keys"))
        press(.escape, in: app)
        #expect(screen.line(23).contains("sort ↑ by which column?"))
        press(.character("q"), in: app)
        #expect(app.root.depth == 1)
        #expect(app.root.exitStatus == nil, "q closed the menu, not the app")
        press(.tab, .character(":"), .character("2"), .enter, in: app)
        #expect(screen.line(23).hasPrefix(" 2/3"))
        press(.character(":"), .character("q"), .enter, in: app)
        #expect(app.root.exitStatus == .success)
    }
}
