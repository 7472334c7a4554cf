import Testing
import TestSupport
import RosterCore
@testable import RosterStore
@testable import RosterApp

/// Runs the mailbox's work on the main actor, as the event loop would,
/// until a condition holds (or a timeout passes: no fixed sleeps). The
/// timeout is generous: the searches run on the cooperative pool (two
/// threads here), which tests blocking in the database or tmux can hold for
/// seconds under the sanitizers; a condition that holds returns at once.
@MainActor
final class EventPump {
    let mailbox: Mailbox
    /// Pieces of work run so far.
    private(set) var ran = 0

    init(_ mailbox: Mailbox) {
        self.mailbox = mailbox
    }

    func until(timeout: Duration = .seconds(600), _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            for event in mailbox.takeAll() {
                if case .run(let work) = event {
                    work()
                    ran += 1
                }
            }
            if condition() { return true }
            await Task.yield()
        }
        return false
    }
}

@Suite("Background search scheduling")
@MainActor
struct SchedulingTests {
    static func setUp(holding: Set<String>, honoursCancellation: Bool = true) throws
        -> (BackgroundSearchScheduler, EventPump, GatedSearchRepository, PeopleArrangement) {
        let (memory, everyone) = try Fixtures.repository(json: Fixtures.seedJSON)
        let repository = GatedSearchRepository(memory, holding: holding, honoursCancellation: honoursCancellation)
        let mailbox = Mailbox(wakePipe: WakePipe())
        return (BackgroundSearchScheduler(mailbox: mailbox), EventPump(mailbox), repository, everyone)
    }

    @Test("a newer keystroke cancels the older search inside the repository; only the newer result shows")
    func newerCancelsOlder() async throws {
        let (scheduler, pump, repository, everyone) = try Self.setUp(holding: ["co"])
        var shown: [String] = []
        scheduler.search(SearchQuery("co"), in: everyone, within: nil, repository: repository) { shown.append("co: \($0.count)") }
        #expect(await pump.until { repository.started == ["co"] })
        scheduler.search(SearchQuery("com"), in: everyone, within: nil, repository: repository) { shown.append("com: \($0.count)") }
        #expect(await pump.until { !shown.isEmpty && repository.cancelled == ["co"] })
        #expect(shown == ["com: 3"])
    }

    @Test("a result that arrives after a newer keystroke is dropped, even from a source that ignores cancelling")
    func lateResultDropped() async throws {
        let (scheduler, pump, repository, everyone) = try Self.setUp(holding: ["co"], honoursCancellation: false)
        var shown: [String] = []
        scheduler.search(SearchQuery("co"), in: everyone, within: nil, repository: repository) { _ in shown.append("co") }
        #expect(await pump.until { repository.started == ["co"] })
        scheduler.search(SearchQuery("irwin"), in: everyone, within: nil, repository: repository) { shown.append("irwin: \($0.count)") }
        #expect(await pump.until { shown == ["irwin: 1"] })
        repository.release("co")
        // The old search finishes and posts its result; its generation is
        // stale, so the work runs and shows nothing.
        #expect(await pump.until { repository.finished == ["irwin", "co"] && pump.ran == 2 })
        #expect(shown == ["irwin: 1"])
    }

    @Test("cancelPending drops the search in flight")
    func cancelPending() async throws {
        let (scheduler, pump, repository, everyone) = try Self.setUp(holding: ["co"])
        var shown: [String] = []
        scheduler.search(SearchQuery("co"), in: everyone, within: nil, repository: repository) { _ in shown.append("co") }
        #expect(await pump.until { repository.started == ["co"] })
        scheduler.cancelPending()
        #expect(await pump.until { repository.cancelled == ["co"] })
        #expect(shown.isEmpty)
    }

    /// A source whose searches fail as a database's do when its server went away.
    final class FailingSearches: DelegatingRepository {
        let base: any PeopleRepository
        init(_ base: any PeopleRepository) { self.base = base }
        func search(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?) async throws(RepositoryError)
            -> PeopleArrangement {
            throw RepositoryError(.connectionLost, reason: "the connection was lost")
        }
    }

    @Test("a search that fails (not cancelled) is said through the mailbox, and never as a result")
    func failure() async throws {
        let mailbox = Mailbox(wakePipe: WakePipe())
        let pump = EventPump(mailbox)
        let repository = FailingSearches(try Fixtures.repository(json: Fixtures.seedJSON, name: "seed.json").repository)
        let scheduler = BackgroundSearchScheduler(mailbox: mailbox)
        var said: [String] = []
        scheduler.search(SearchQuery("co"), in: repository.arrange(sort: .byLastName, byCompany: true, company: nil), within: nil,
                         repository: repository, completion: { _ in said.append("a result") }, failed: { said.append($0) })
        #expect(await pump.until { !said.isEmpty })
        #expect(said == ["the connection was lost"])
    }

    @Test("a new order arrives through the mailbox")
    func arrange() async throws {
        let (scheduler, pump, repository, _) = try Self.setUp(holding: [])
        var arranged: PeopleArrangement?
        scheduler.arrange(repository, sort: SortOrder(.age), byCompany: false, company: nil) { arranged = $0 }
        #expect(await pump.until { arranged != nil })
        #expect(arranged?.sort == SortOrder(.age))
        #expect(arranged?.sections.count == 1)
    }
}

@Suite("Mailbox")
struct MailboxTests {
    @Test("posting wakes the pipe; takeAll hands events over once, in order")
    func postAndTake() {
        let pipe = WakePipe()
        let mailbox = Mailbox(wakePipe: pipe)
        #expect(pipe.drain().isEmpty)
        mailbox.post(.loaded(.failure(.empty(file: "a"))))
        mailbox.post(.loaded(.failure(.empty(file: "b"))))
        #expect(pipe.drain() == [WakePipe.mailByte, WakePipe.mailByte])
        let names = mailbox.takeAll().compactMap { event -> String? in
            if case .loaded(.failure(let error)) = event { return error.message }
            return nil
        }
        #expect(names.count == 2)
        #expect(names[0].contains("a") && names[1].contains("b"))
        #expect(mailbox.takeAll().isEmpty)
    }
}
