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
}
