import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterSQL
@testable import RosterTUI

/// A source that tells its own changes (a directory server's feed) says
/// what it did as the list is read again; that never wipes what the
/// user's own save said before a key was pressed.
@MainActor
@Suite("A source's note after a save")
struct SourceNoteTests {
    /// A feed that never tells anything by itself: the test tells it.
    final class QuietWatch: TableChangeWatch {
        func start(changed: @escaping @Sendable () -> Void) {}
        func countFromNow() {}
        func stop() {}
    }

    let screen = MemoryScreen(rows: 24, columns: 80)

    @Test("the feed's 'read everyone' landing after a save keeps 'saved to' on screen; after a key it is said")
    func saveOutlivesTheFeedsNote() async throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON, name: "seed.json")
        let note = "read everyone in the directory: 6 people"
        let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(directory)), sourceName: "seed.json",
                                  makeSearcher: { ImmediateSearchScheduler() }, placeStore: nil,
                                  sourceChanges: SourceChanges(watch: QuietWatch(), note: { note }))
        let mailbox = Mailbox(wakePipe: WakePipe())
        app.post = { [mailbox] work in mailbox.post(.run(work)) }
        let pump = EventPump(mailbox)
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        app.root.draw()
        func landed(_ text: String) async -> Bool {
            await pump.until(timeout: .seconds(60)) {
                app.root.draw()
                return screen.line(23).contains(text) && app.listWireframe.listPresenter?.isIdle == true
            }
        }

        app.sourceSaved(recordID: nil, note: .saved)
        #expect(await landed("saved to seed.json"))
        let before = try #require(app.listWireframe.listPresenter)
        app.sourceSaved(recordID: nil, note: .toldByTheSource(note))
        // The re-read landed: a new list is presented.
        #expect(await pump.until(timeout: .seconds(60)) { app.listWireframe.listPresenter !== before })
        #expect(await landed("saved to seed.json"), "the save's message stays until a key")
        #expect(!screen.text.contains(note))

        app.root.handle(.down)
        app.root.draw()
        app.sourceSaved(recordID: nil, note: .toldByTheSource(note))
        #expect(await landed(note), "with a key pressed since, the source's note is said")
    }
}
