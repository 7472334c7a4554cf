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
        window.store(await Self.rows(of: source, in: everyone, 0..<3), for: 0..<3)
        source.failing.withLock { $0 = true }
        let failed = await Self.rows(of: source, in: everyone, 0..<6)
        guard case .failure(let error) = failed else {
            Issue.record("the locked source read its rows")
            return
        }
        window.store(failed, for: 0..<6)
        #expect((0..<3).allSatisfy { window.row(at: $0).value != nil }, "read before, kept")
        #expect((3..<6).allSatisfy { window.row(at: $0) == .failed(error) }, "not read: rows that say why")
        #expect(window.holdsUnread)
        #expect(window.wanted(drawn: 3...5) == nil, "a row that could not be read is not asked for again and again")
        window.readUnreadAgain()
        #expect(window.row(at: 4) == .failed(error), "why shows while it is read again: no flicker of loading")
        let again = try #require(window.wanted(drawn: 3...5), "read again by the next frame")
        source.failing.withLock { $0 = false }
        window.store(await Self.rows(of: source, in: everyone, again), for: again)
        #expect(!window.holdsUnread && window.row(at: 4).value != nil)
    }

    /// What a window is given after reading `positions` of `source`.
    static func rows(of source: some PeopleRepository, in arrangement: PeopleArrangement,
                     _ positions: Range<Int>) async -> Result<[ListedPerson], RepositoryError> {
        await Result(awaiting: { () async throws(RepositoryError) in try await source.rows(in: arrangement, positions: positions) })
    }
}

/// The list's rows are a value: equal when they would show the same.
@MainActor
@Suite("The list's rows as a value")
struct ListRowsValueTests {
    @Test("rows are equal for the same arrangement, memory, marks and collapsed companies, and differ when any of them does")
    func equality() throws {
        let (repository, everyone) = try Fixtures.repository(json: Fixtures.seedJSON)
        let rows = ListRows(everyone, repository: repository)
        #expect(rows == ListRows(everyone, repository: repository))
        #expect(rows != ListRows(everyone, repository: repository, marked: [PersonID(0)]))
        #expect(rows != ListRows(everyone, repository: repository, collapsedCompanies: [try #require(everyone.sections[0].companyID)]))
        #expect(rows != ListRows(repository.arrange(sort: .byLastName, byCompany: false, company: nil), repository: repository))
        let (another, _) = try Fixtures.repository(json: Fixtures.seedJSON)
        #expect(rows != ListRows(everyone, repository: another), "the same arrangement over other memory (a file read again)")
    }

    @Test("a window's rows differ once a read lands, and a row that could not be read says why")
    func windowRows() {
        let people = (0..<50).map { Person(firstName: "P\($0)", lastName: "L", company: "C\($0 % 3)") }
        let repository = FakePeopleRepository(people: people, readsAtOnce: false)
        let window = ListWindow(repository.everyone, atOnce: nil)
        let before = ListRows(window)
        #expect(before == ListRows(window))
        window.store(.failure(RepositoryError(.connectionLost, reason: "connection lost")), for: 0..<10)
        let after = ListRows(window)
        #expect(before != after)
        guard case .person(let row) = after[1] else {
            Issue.record("row 1 is not a person's")
            return
        }
        #expect(row.person == .failed(RepositoryError(.connectionLost, reason: "connection lost")))
        guard case .person(let unread) = after[20] else {
            Issue.record("row 20 is not a person's")
            return
        }
        #expect(unread.person == .loading)
    }
}
