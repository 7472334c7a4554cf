import Testing
import TestSupport
@testable import RosterCore

/// The repository's reads are async: a source that answers at once (a
/// file in memory) is still answered before the screen's next frame, and
/// one that waits hands the main actor back at once and answers later.
@MainActor
@Suite("Reading through the repository seam")
struct ReadingSeamTests {
    /// A source whose person reads wait until `open` is called.
    final class GatedReads: DelegatingRepository {
        let base: any PeopleRepository
        private let gate = Locked<[CheckedContinuation<Void, Never>]>([])
        private let isOpen = Locked(false)
        init(_ base: any PeopleRepository) { self.base = base }

        func person(_ id: PersonID) async throws(RepositoryError) -> Person {
            await withCheckedContinuation { continuation in
                let waits = isOpen.withLock { !$0 }
                if waits { gate.withLock { $0.append(continuation) } } else { continuation.resume() }
            }
            return try await base.person(id)
        }

        func open() {
            isOpen.withLock { $0 = true }
            for waiting in gate.withLock({ $0 }) { waiting.resume() }
        }
    }

    @MainActor final class Delivered<Value> {
        var value: Value?
    }

    @Test("a source that answers at once is delivered before read returns: no frame of loading, no trip through the event loop")
    func atOnceIsDeliveredAtOnce() throws {
        let repository = try FakePeopleRepository(json: Fixtures.seedJSON)
        let delivered = Delivered<String>()
        repository.reads(through: HeldReads()).read({ (try? await repository.person(PersonID(2)))?.lastName ?? "failed" }) {
            delivered.value = $0
        }
        #expect(delivered.value == "Weber", "read, and delivered, on the caller's stack")
        #expect(repository.readsAtOnce && repository.reads(through: HeldReads()) is ReadingNow)
    }

    @Test("a source whose read waits hands the main actor back at once, and delivers when it answers")
    func aWaitingReadDeliversLater() async throws {
        let repository = GatedReads(try FakePeopleRepository(json: Fixtures.seedJSON))
        #expect(repository.atOnce == nil, "a wrapper that changes reads is not read at once")
        let delivered = Delivered<String>()
        ReadingNow().read({ (try? await repository.person(PersonID(2)))?.lastName ?? "failed" }) { delivered.value = $0 }
        #expect(delivered.value == nil, "the read is waiting; the caller is not")
        repository.open()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(600)
        while delivered.value == nil, clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(delivered.value == "Weber")
    }

    @Test("a window keeps what a read answered: rows a source could not read are stand-ins, rows read before are kept")
    func windowFillKeepsWhatItHad() async throws {
        let source = NeverWaitPresenterTests.LockedSource(try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "db"))
        let everyone = source.arrange(sort: .byLastName, byCompany: true, company: nil)
        let window = ListInteractor(repository: source).window(on: everyone)
        #expect(!window.readsWhileDrawing)
        source.failing.withLock { $0 = false }
        window.store(try? await source.rows(in: everyone, positions: 0..<3), for: 0..<3)
        source.failing.withLock { $0 = true }
        window.store(try? await source.rows(in: everyone, positions: 0..<6), for: 0..<6)
        #expect((0..<3).allSatisfy { window.row(at: $0)?.isLoaded == true }, "read before, kept")
        #expect((3..<6).allSatisfy { window.row(at: $0)?.isLoaded == false }, "not read: stand-ins that say so")
        #expect(window.holdsUnread)
        #expect(window.wanted(drawn: 3...5) == nil, "a stand-in is not asked for again and again")
        window.readUnreadAgain()
        #expect(window.row(at: 4)?.isLoaded == false, "the stand-in shows while it is read again: no flicker of loading")
        let again = try #require(window.wanted(drawn: 3...5), "read again by the next frame")
        source.failing.withLock { $0 = false }
        window.store(try? await source.rows(in: everyone, positions: again), for: again)
        #expect(!window.holdsUnread && window.row(at: 4)?.isLoaded == true)
    }
}
