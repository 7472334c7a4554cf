import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterTUI

/// Issue 18, items 2 and 3: while the connection is lost, the way back
/// (`r`) and the reason come first on every screen, at 80 and 40 columns;
/// a value's list names its value.
@MainActor
@Suite("The way back is visible")
struct WayBackTests {
    let screen = MemoryScreen(rows: 24, columns: 80)

    func app(over repository: any PeopleRepository) async -> AppDependencies {
        let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(repository: .success(repository)),
                                  sourceName: repository.sourceName, makeSearcher: { ImmediateSearchScheduler() }, placeStore: nil)
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

    @Test("lost: the title leads with 'connection lost, r reconnects', the status bar offers r, and r works from the counts")
    func lost() async throws {
        let base = try FakePeopleRepository(json: Fixtures.seedJSON,
                                            sourceName: "postgres://ann@db.example.com/personnel?options=-c search_path=staff")
        let repository = StubReconnectingRepository(base: base, failure: "no server")
        let app = await app(over: repository)
        #expect(screen.line(0).hasPrefix(" Roster — connection lost, r reconnects — …"), "\(screen.line(0))")
        #expect(screen.line(23).contains("r reconnect"), "\(screen.line(23))")
        press(.character("e"), in: app)
        #expect(screen.line(23).contains("export to: personnel?options=-c search_path=staff.csv")
                || screen.line(23).contains("export to: personnel"), "the file's name is the source's, never the problem's: \(screen.line(23))")
        #expect(!screen.line(23).contains("connection lost"), "\(screen.line(23))")
        press(.escape, in: app)
        press(.character("r"), in: app)
        #expect(screen.line(23).contains("still offline: no server"), "\(screen.line(23))")
        press(.character("F"), in: app)
        #expect(screen.line(0).contains("connection lost, r reconnects"))
        #expect(screen.line(0).contains("counts by"), "\(screen.line(0))")
        press(.character("r"), in: app)
        #expect(repository.attempts == 2, "r from the counts reconnects too")
        screen.resize(rows: 12, columns: 40)
        app.root.draw()
        #expect(screen.line(0).hasPrefix(" connection lost, r reconnects"), "\(screen.line(0))")
        press(.escape, in: app)
        #expect(app.root.depth == 1)
        // The message of r ended at Esc: the company gives way for the way back, which outlasts every other hint.
        #expect(screen.line(11).hasSuffix("r reconnect  q quit "), "\(screen.line(11))")
        repository.setFailure(nil)
        press(.character("r"), in: app)
        #expect(!screen.line(0).contains("connection lost"))
    }

    /// A server that went away, having said why in its own words.
    final class LostWithDetail: DelegatingRepository, Reconnecting {
        let base: any PeopleRepository
        init(_ base: any PeopleRepository) { self.base = base }
        var isConnectionLost: Bool { true }
        var problemDetail: String? { "PostgreSQL: server closed the connection unexpectedly" }
        func reconnect() throws(ReconnectFailure) { throw ReconnectFailure(target: "db", reason: "no server answers") }
        var sourceName: String { "postgres://db" }
        var readFailure: String? { "connection lost, r reconnects" }
    }

    @Test("the database's own words are never in the title, and one key away: ? shows them first")
    func detailOneKeyAway() async throws {
        let app = await app(over: LostWithDetail(try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "postgres://db")))
        #expect(!screen.text.contains("PostgreSQL"))
        press(.character("?"), in: app)
        #expect(screen.line(2).contains("What the database said last"), "\(screen.text)")
        #expect(screen.text.contains("PostgreSQL: server closed the"), "\(screen.text)")
    }

    @Test("a value's list from the counts names the field and the value")
    func valueListNamesTheValue() async throws {
        let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(try Fixtures.directory(json: Fixtures.seedJSON))),
                                  sourceName: "test.json", makeSearcher: { ImmediateSearchScheduler() }, placeStore: nil)
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        app.root.draw()
        press(.character("F"), .character("f"), in: app)  // counts by city
        #expect(screen.line(0).contains("counts by city"), "\(screen.line(0))")
        press(.enter, in: app)
        #expect(app.root.depth == 3)
        #expect(screen.line(0).hasPrefix(" Roster — test.json › counts by city › Bawcomville "), "\(screen.line(0))")
    }
}
