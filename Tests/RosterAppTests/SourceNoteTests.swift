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

    nonisolated static let note = "read everyone in the directory: 6 people"

    /// The app over the seed people, its feed's note `note`, and a pump of its posted work.
    func app() async throws -> (AppDependencies, EventPump) {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON, name: "seed.json")
        let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(directory)), sourceName: "seed.json",
                                  makeSearcher: { ImmediateSearchScheduler() }, placeStore: nil,
                                  sourceChanges: SourceChanges(watch: QuietWatch(), note: { Self.note }))
        let mailbox = Mailbox(wakePipe: WakePipe())
        app.post = { [mailbox] work in mailbox.post(.run(work)) }
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        app.root.draw()
        return (app, EventPump(mailbox))
    }

    /// Whether the status line says `text`, the list idle (as long as `EventPump` waits: a sanitized run
    /// beside blocking tests held the re-read's thread for over a minute).
    func landed(_ text: String, _ app: AppDependencies, _ pump: EventPump) async -> Bool {
        await pump.until {
            app.root.draw()
            return screen.line(23).contains(text) && app.listWireframe.listPresenter?.isIdle == true
        }
    }

    @Test("the feed's 'read everyone' landing after a save keeps 'saved to' on screen; after a key it is said")
    func saveOutlivesTheFeedsNote() async throws {
        let (app, pump) = try await app()
        let note = Self.note
        func landed(_ text: String) async -> Bool { await self.landed(text, app, pump) }

        app.sourceSaved(recordID: nil, note: .saved)
        #expect(await landed("saved to seed.json"))
        let before = try #require(app.listWireframe.listPresenter)
        app.sourceSaved(recordID: nil, note: .toldByTheSource(note))
        // The re-read landed: a new list is presented.
        #expect(await pump.until { app.listWireframe.listPresenter !== before })
        #expect(await landed("saved to seed.json"), "the save's message stays until a key")
        #expect(!screen.text.contains(note))

        app.root.handle(.down)
        app.root.draw()
        app.sourceSaved(recordID: nil, note: .toldByTheSource(note))
        #expect(await landed(note), "with a key pressed since, the source's note is said")
    }

    @Test("the feed's re-read begun while a save's is in flight lands as the save: 'saved to', at the person saved")
    func feedDuringTheSavesReread() async throws {
        let (app, pump) = try await app()
        let saved = try #require(app.listWireframe.listPresenter?.displayed.count).advanced(by: -1)
        app.listWireframe.listPresenter?.select(position: saved)
        app.root.draw()
        let recordID = try #require(app.listWireframe.place?.selectedID)
        app.listWireframe.listPresenter?.select(position: 0)
        app.sourceSaved(recordID: recordID, note: .saved)
        // Before the save's re-read lands, the feed tells of a change (its own echo, or its reading done).
        app.sourceSaved(recordID: app.listWireframe.place?.selectedID, note: .toldByTheSource(Self.note))
        #expect(await landed("saved to seed.json", app, pump), "the save said, not dropped with its superseded re-read")
        #expect(!screen.text.contains(Self.note))
        #expect(await pump.until { app.listWireframe.place?.selectedID == recordID }, "at the person saved")
    }
}
