import Testing
import TestSupport
@testable import RosterCore

/// Screens over a source that may wait (a database) never read it on the
/// main actor: what is not read yet says so ("loading…", "Counting…",
/// "reconnecting…"), and the answer shows when it comes. `HeldReads` plays
/// a database that has not answered yet.
@MainActor
@Suite("Screens never wait on the data")
struct NeverWaitPresenterTests {
    /// The six people of the fixture, as a source that may wait.
    static func slowSource() throws -> FakePeopleRepository {
        try FakePeopleRepository.seedThatMayWait()
    }

    /// The names the list's rows show now (a stand-in: "loading" or "not loaded").
    static func names(_ rows: ListRows) -> [String] {
        rows.compactMap { row in
            guard case .person(let person) = row else { return nil }
            switch person.person {
            case .loaded(let person): return person.name
            case .loading: return "loading"
            case .failed: return "not loaded"
            }
        }
    }

    /// A list over `slowSource`, its reads held.
    static func list() throws -> (FakePeopleRepository, HeldReads, SpyListView, ListPresenter) {
        let repository = try slowSource()
        let reads = HeldReads()
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                      arrangement: repository.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        return (repository, reads, view, presenter)
    }

    /// A list of `people` over a source that may wait, its reads held, the
    /// rows of its first frame read.
    static func firstFrameRead(_ people: [Person]) -> (FakePeopleRepository, HeldReads, SpyListView, ListPresenter) {
        let repository = FakePeopleRepository(people: people, readsAtOnce: false)
        let (reads, view) = (HeldReads(), SpyListView())
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                      arrangement: repository.everyone, wireframe: SpyListWireframe())
        presenter.attach(view: view)
        presenter.frameDrawn(rows: 0..<24)
        reads.finish()
        return (repository, reads, view, presenter)
    }

    @Test("the list draws rows not read yet as loading, reads them in the background after the frame, and draws them when they come")
    func listRowsLoadInTheBackground() async throws {
        let (repository, reads, view, presenter) = try Self.list()
        let before = repository.calls.count
        let first = try #require(view.last)
        #expect(Self.names(first.rows) == Array(repeating: "loading", count: 6))
        #expect(repository.calls.count == before, "drawing read nothing")
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        #expect(reads.waiting == 1)
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        #expect(reads.waiting == 1, "a span being read is not asked for twice")
        reads.finish()
        #expect(repository.calls.last == .rows(0..<6), "one read for the whole span drawn and around it")
        let second = try #require(view.last)
        #expect(try await Self.names(second.rows) == repository.rows(in: repository.everyone, positions: 0..<6).map(\.name))
        #expect(Self.names(second.rows).first == "Bertha Irwin")
        #expect(presenter.selectedID != nil)
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        #expect(reads.waiting == 0, "everything drawn is read: nothing more to read")
    }

    @Test("rows read for an arrangement the list has left are dropped, never drawn under another one")
    func staleRowsDropped() throws {
        let (_, reads, view, presenter) = try Self.list()
        _ = Self.names(try #require(view.last).rows)
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        presenter.toggleGrouping()  // a new order: HeldReads arranges at once, and holds where the selection lands
        #expect(presenter.hasWorkInFlight, "keys wait until the selected person is placed in the new order")
        reads.finish()  // the old list's rows, then the placement
        #expect(!presenter.hasWorkInFlight)
        #expect(view.last?.sortLabel.contains("flat") == true)
        #expect(Self.names(try #require(view.last).rows).allSatisfy { $0 == "loading" }, "the old order's rows are not drawn in the new one")
    }

    @Test("the window reads the drawn rows with as many again either side, keeps stand-ins for rows left out, and forgets far rows past its capacity")
    func windowSpans() async throws {
        let people = (0..<20_000).map { Person(firstName: "P\($0)", lastName: "L", company: "C\($0 % 7)") }
        let repository = FakePeopleRepository(people: people, readsAtOnce: false)
        let everyone = repository.everyone
        let window = ListWindow(everyone, atOnce: nil)
        for position in 5_000..<5_020 { #expect(window.row(at: position) == .loading) }
        let span = try #require(window.wanted(drawn: 5_000...5_019))
        #expect(span == 4_968..<5_052)
        #expect(window.wanted(drawn: 5_000...5_019) == nil, "a span being read is not asked for twice")
        window.store(.success(Array(repository.rowsAtOnce(in: everyone, positions: span).dropLast(2))), for: span)
        #expect(window.row(at: 5_051) == .failed(ListWindow.leftOut), "a row the source left out says so, and is not asked for again")
        #expect(window.row(at: 5_010) == .loaded(try #require(repository.rowsAtOnce(in: everyone, positions: 5_010..<5_011).first)))
        #expect(window.wanted(drawn: 5_010...5_051) == 4_968..<5_094, "drawn near the edge of what is read: the next rows are read ahead")
        window.store(.success(repository.rowsAtOnce(in: everyone, positions: 8_000..<(8_000 + ListWindow.capacity))),
                     for: 8_000..<(8_000 + ListWindow.capacity))
        #expect(window.row(at: 5_010) == .loading, "the rows farthest from the last read are forgotten")
    }

    @Test("s right after G, before the last row is read: the new order keeps the person G went to, not the one selected before")
    func sortRightAfterLast() async throws {
        let people = (0..<2_000).map { Person(firstName: "F\(($0 * 7) % 2_000)", lastName: "L\($0)", company: "C\($0 % 7)") }
        let (repository, reads, _, presenter) = Self.firstFrameRead(people)
        #expect(presenter.selectedID != nil, "the first person is read")
        let end = repository.everyone.count - 1
        let last = try #require(try await repository.rows(in: repository.everyone, positions: end..<(end + 1)).first)
        presenter.selectLast()
        #expect(presenter.selectedID == nil, "the end is not read yet")
        presenter.cycleSortOrder()
        reads.finish()
        let arranged = repository.arrange(sort: presenter.sortOrder, byCompany: true, company: nil)
        let expected = try #require(try await repository.position(of: last.id, in: arranged))
        #expect(presenter.selection == expected, "\(last.name) kept")
    }

    @Test("Esc on a search prompt that found nothing yet closes it at once and reads nothing (a locked table never holds it open)")
    func escapeOnAnEmptyPrompt() throws {
        let (_, reads, view, presenter) = try Self.list()
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        reads.finish()
        let selection = presenter.selection
        presenter.beginSearch()
        #expect(view.last?.searchPrompt != nil)
        presenter.cancelSearch()
        #expect(view.last?.searchPrompt == nil, "closed at once")
        #expect(reads.waiting == 0, "nothing to read: the list shows everyone already")
        #expect(presenter.selection == selection && !presenter.hasWorkInFlight)
    }

    @Test("the person's screen says loading until the person is read, then shows them; ↓ finds the next one read already")
    func detailLoads() async throws {
        let repository = try Self.slowSource()
        let reads = HeldReads()
        let view = SpyDetailView()
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: repository, arrangement: repository.everyone, reader: reads),
                                        position: 0, wireframe: SpyDetailWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.title == "loading…")
        #expect(view.models.last?.fields.isEmpty == true, "no field that would read as a value")
        reads.finish()
        #expect(view.models.last?.title == "Bertha Irwin")
        presenter.showNext()
        #expect(view.models.last?.title == "Cohen James", "read ahead with the first")
        #expect(reads.waiting == 0)
        presenter.showNext()
        #expect(view.models.last?.title == "loading…")
        #expect(reads.waiting == 1)
        reads.finish()
        #expect(try await view.models.last?.title == repository.people(in: repository.everyone, positions: 2..<3).first?.fullName)
    }

    @Test("the overview says it is counting until the counts come; an older count that comes last is dropped")
    func overviewCounts() async throws {
        let repository = try Self.slowSource()
        let reads = HeldReads()
        let view = SpyCompaniesView()
        let presenter = CompaniesPresenter(interactor: SummaryInteractor(repository: repository, reader: reads),
                                           shown: repository.everyone, wireframe: SpyCompaniesWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.summary == "counting…")
        #expect(view.models.last?.emptyMessage == "Counting…")
        #expect(view.models.last?.rows.isEmpty == true)
        let narrowed = try await repository.search(SearchQuery("company:comstar"), in: repository.everyone, within: nil)
        presenter.update(shown: narrowed, filter: "comstar")
        reads.finishNewest()
        #expect(view.models.last?.rows.map(\.title) == ["COMSTAR"])
        reads.finish()
        #expect(view.models.last?.rows.map(\.title) == ["COMSTAR"], "the count of everyone, asked first, is not shown over the newer one")
    }

    @Test("the counts say counting, and a new field shows no rows of the old one meanwhile")
    func frequencyCounts() throws {
        let repository = try Self.slowSource()
        let reads = HeldReads()
        let view = SpyFrequencyView()
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: repository, reader: reads),
                                           field: .company, shown: repository.everyone, wireframe: SpyFrequencyWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.summary == "counting…")
        reads.finish()
        #expect(view.models.last?.rows.count == 3)
        presenter.cycleField(by: 1)
        #expect(view.models.last?.rows.isEmpty == true)
        #expect(view.models.last?.emptyMessage == "Counting…")
        reads.finish()
        #expect(view.models.last?.rows.isEmpty == false)
    }

    @Test("r connects in the background: the list says reconnecting, then how it went")
    func reconnectInTheBackground() throws {
        let repository = StubReconnectingRepository(base: try Self.slowSource())
        let reads = HeldReads()
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                      arrangement: repository.arrange(sort: .byLastName, byCompany: true, company: nil), wireframe: SpyListWireframe())
        presenter.attach(view: view)
        presenter.reconnect()
        #expect(view.last?.message == "reconnecting…")
        #expect(repository.attempts == 0, "not connected on the main actor")
        reads.finish()
        #expect(repository.attempts == 1)
        #expect(view.last?.message == "reconnected; read again")
    }

    @Test("an export is written in the background: the status says so meanwhile, one export at a time, the first q warns")
    func exportInTheBackground() throws {
        let repository = try Self.slowSource()
        let (reads, view, writer, wireframe) = (HeldReads(), SpyListView(), InMemoryExportWriter(), SpyListWireframe())
        let exporting = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                      arrangement: repository.everyone, wireframe: wireframe, exportWriter: writer)
        exporting.attach(view: view)
        exporting.beginExport()
        exporting.editExportName("out.csv")
        exporting.commitExport()
        #expect(view.last?.message == "writing out.csv…")
        #expect(writer.files["out.csv"] == nil, "not written on the main actor")
        exporting.moveSelection(by: 1)
        #expect(view.last?.message == "writing out.csv…", "said until it is done")
        exporting.beginExport()
        #expect(view.last?.message == "one export at a time: still writing out.csv")
        #expect(view.last?.exportPrompt == nil)
        exporting.quit()
        #expect(view.last?.message == "still writing out.csv: q again quits without it")
        #expect(wireframe.routes.isEmpty)
        reads.finish()
        #expect(view.last?.message == "wrote 6 people to out.csv (csv)")
        #expect(String(decoding: try #require(writer.files["out.csv"]), as: UTF8.self).split(whereSeparator: \.isNewline).count == 7)
        exporting.quit()
        #expect(wireframe.routes.count == 1, "nothing being written: q quits")
    }

    @Test("a message stays when rows read in the background come in (it goes with the next key, as without them)")
    func messageOutlivesRows() throws {
        let (_, reads, view, presenter) = try Self.list()
        presenter.jumpToCompany(by: -1)
        #expect(view.last?.message == "already at the first company")
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        reads.finish()
        #expect(view.last?.message == "already at the first company")
        #expect(Self.names(try #require(view.last).rows).first == "Bertha Irwin")
        presenter.moveSelection(by: 1)
        #expect(view.last?.message == nil)
    }

    @Test("a remembered person is looked up in the background; a key typed meanwhile waits, then moves on from them")
    func rememberedPlaceInTheBackground() async throws {
        let (repository, reads, _, presenter) = try Self.list()
        let fourth = try await repository.rows(in: repository.everyone, positions: 3..<4)[0]
        let place = RememberedPlace(selectedPosition: fourth.id.rawValue, selectedID: try await repository.person(fourth.id).id)
        let before = repository.calls.count
        presenter.restore(place)
        #expect(repository.calls.count == before, "nothing read on the main actor")
        #expect(presenter.hasWorkInFlight)
        presenter.moveSelection(by: 1)
        #expect(presenter.selection == 0, "the key waits for the person")
        reads.finish()  // the person, by id
        reads.finish()  // where they are in the list
        #expect(!presenter.hasWorkInFlight)
        #expect(presenter.selection == 4, "placed on them, then one down")
    }

    @Test("Esc while a remembered person is looked up clears the filter for good: the lookup landing after it does not bring the filter back")
    func escWhileTheRememberedPersonIsLookedUp() async throws {
        let (repository, reads, view, presenter) = try Self.list()
        let irwin = try await repository.search(SearchQuery("irwin"), in: repository.everyone, within: nil)
        presenter.showSearchResult(irwin)
        reads.finish()
        #expect(view.last?.filter == "irwin")
        let first = try await repository.rows(in: repository.everyone, positions: 0..<1)[0]
        presenter.restore(RememberedPlace(selectedPosition: nil, selectedID: try await repository.person(first.id).id))
        presenter.cancelSearch()  // Esc, as a re-read lands and looks its place up
        while reads.waiting > 0 { reads.finish() }
        #expect(view.last?.filter == nil, "Esc's, not the filter from before it")
        #expect(view.last?.position == "1/6")
    }

    @Test("Tab on a row not read yet opens the overview on the company the row is under")
    func overviewFromARowNotRead() throws {
        let repository = try Self.slowSource()
        let wireframe = SpyListWireframe()
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: HeldReads()),
                                      arrangement: repository.everyone, wireframe: wireframe)
        presenter.attach(view: SpyListView())
        presenter.selectLast()
        presenter.showCompanies()
        let last = repository.everyone.sections.last?.companyID
        guard case .companies(_, _, let selected)? = wireframe.routes.last else {
            Issue.record("no overview: \(wireframe.routes)")
            return
        }
        #expect(selected != nil && selected == last)
    }

    @Test("the place remembered as the app quits reads nothing: the selected row's _id once it was read")
    func placeReadsNothing() async throws {
        let (repository, reads, view, presenter) = try Self.list()
        let before = repository.calls.count
        #expect(presenter.place.selectedID == nil, "the row is not read yet")
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        reads.finish()
        let afterRows = repository.calls.count
        let place = presenter.place
        #expect(repository.calls.count == afterRows && afterRows == before + 1, "only the rows' own read")
        #expect(try await place.selectedID == repository.rows(in: repository.everyone, positions: 0..<1)[0].recordID)
    }

    @Test("M reads everyone's ids in the background; keys wait for it; the marks shown under a search are counted in the background")
    func markAllInTheBackground() async throws {
        let repository = try Self.slowSource()
        let (reads, view, session) = (HeldReads(), SpyListView(), ListSession())
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                      arrangement: repository.everyone, wireframe: SpyListWireframe(), session: session)
        presenter.attach(view: view)
        presenter.markAllShown()
        #expect(presenter.hasWorkInFlight, "keys typed now wait for the marks")
        #expect(view.last?.message == "marking 6 people…", "said while the keys wait")
        #expect(view.last?.marks == nil)
        reads.finish()
        #expect(!presenter.hasWorkInFlight)
        #expect(view.last?.marks == "6 marked", "everyone shown: nothing to count")
        let comstar = try await repository.search(SearchQuery("company:comstar"), in: repository.everyone, within: nil)
        let narrowed = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                     arrangement: comstar, wireframe: SpyListWireframe(), session: session)
        narrowed.attach(view: view)
        #expect(view.last?.marks == "6 marked (… shown)")
        reads.finish()
        #expect(view.last?.marks == "6 marked (\(comstar.count) shown)")
    }

    @Test("y reads the people to copy in the background, then copies them")
    func copyInTheBackground() throws {
        let repository = try Self.slowSource()
        let (reads, view, clipboard) = (HeldReads(), SpyListView(), SpyClipboard())
        let presenter = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                      arrangement: repository.everyone, wireframe: SpyListWireframe(), clipboard: clipboard)
        presenter.attach(view: view)
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        reads.finish()  // the rows, so that someone is selected
        presenter.toggleMark()
        presenter.copyAddresses()
        #expect(clipboard.copied.isEmpty, "not read on the main actor")
        reads.finish()
        #expect(clipboard.copied == ["Bertha Irwin <bertha.irwin@comstar.net>"])
    }

    @Test("D right after G, before the last row is read: it waits for the row (never dropped), then asks about that person; a row that could not be read says so")
    func deleteWaitsForItsRow() async throws {
        let people = (0..<2_000).map { Person(id: "id\($0)", firstName: "F\($0)", lastName: "L\($0)", company: "C\($0 % 7)") }
        let (repository, reads, view, presenter) = Self.firstFrameRead(people)
        presenter.selectLast()
        #expect(presenter.selectedID == nil, "the end is not read yet")
        presenter.deleteMarkedOrSelected()
        #expect(presenter.pendingDeletion == nil)
        let shown = view.last?.rows.count ?? 0
        presenter.frameDrawn(rows: (shown - 24)..<shown)  // the frame of the end asks for its rows
        reads.finish()  // the rows
        reads.finish()  // the person to delete, read whole
        let end = repository.everyone.count - 1
        let last = try #require(try await repository.rows(in: repository.everyone, positions: end..<(end + 1)).first)
        #expect(presenter.pendingDeletion?.map(\.fullName) == [last.name], "the question names the last person")
        // A row the source could not read: said, not asked about (nor waited for).
        let unread = ListPresenter(interactor: ListInteractor(repository: repository, scheduler: reads),
                                   arrangement: repository.everyone, wireframe: SpyListWireframe())
        unread.attach(view: view)
        unread.selectLast()
        unread.window.store(.failure(RepositoryError(.connectionLost, reason: "connection lost")), for: end..<(end + 1))
        unread.deleteMarkedOrSelected()
        #expect(unread.pendingDeletion == nil)
        #expect(view.last?.message == "the selected row could not be read: connection lost")
    }

    @Test("a read spans the rows a frame drew and a margin, clamped at the end, and never more than one read's worth")
    func readsSpanWhatWasDrawn() throws {
        let people = (0..<200_000).map { Person(firstName: "P\($0)", lastName: "L", company: "C\($0 % 7)") }
        let repository = FakePeopleRepository(people: people, readsAtOnce: false)
        let window = ListWindow(repository.everyone, atOnce: nil)
        let span = try #require(window.wanted(drawn: 199_980...199_999))
        #expect(span.lowerBound >= 199_900 && span.upperBound == 200_000, "\(span)")
        #expect(try #require(window.wanted(drawn: 0...2_999)).count <= ListWindow.longestRead)
    }

    /// A source whose reads fail (with a reason that heals) while `failing` is set: a lock held by another program.
    final class LockedSource: DelegatingRepository {
        let base: any PeopleRepository
        let failing = Locked(true)
        init(_ base: any PeopleRepository) { self.base = base }
        var readFailure: String? { failing.withLock { $0 } ? "a query failed, ? says why" : nil }
        func rows(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [ListedPerson] {
            guard !failing.withLock({ $0 }) else { throw failure.withLock { $0 } }
            return try await base.rows(in: arrangement, positions: positions)
        }
        /// How a failing read fails.
        let failure = Locked(RepositoryError(.waiting, reason: "a query failed, ? says why"))
        func people(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [Person] {
            guard !failing.withLock({ $0 }) else { throw failure.withLock { $0 } }
            return try await base.people(in: arrangement, positions: positions)
        }
        func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) async throws(RepositoryError) -> [ValueSummary] {
            guard !failing.withLock({ $0 }) else { throw failure.withLock { $0 } }
            return try await base.valueSummaries(of: field, in: arrangement)
        }
    }

    /// Waits (on the main actor, letting its tasks run) until `condition`
    /// holds: at most 600 s, as the suite's blocking tests may hold the
    /// cooperative pool that long under a sanitizer; it returns as soon as
    /// the condition holds.
    func waitUntil(_ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(600)
        while !condition() {
            if clock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    @Test("rows that could not be read are read again on their own, a little later, while shown: a released lock fills the list without a key")
    func unreadRowsRetried() async throws {
        let source = LockedSource(try Self.slowSource())
        let (reads, view) = (HeldReads(), SpyListView())
        let presenter = ListPresenter(interactor: ListInteractor(repository: source, scheduler: reads),
                                      arrangement: source.arrange(sort: .byLastName, byCompany: true, company: nil), wireframe: SpyListWireframe())
        presenter.attach(view: view)
        _ = Self.names(try #require(view.last).rows)
        presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0))
        reads.finish()
        #expect(Self.names(try #require(view.last).rows).allSatisfy { $0 == "not loaded" })
        source.failing.withLock { $0 = false }
        _ = Self.names(try #require(view.last).rows)  // the frame drawn
        #expect(reads.waiting == 0, "not asked again at once: the stand-ins are held")
        #expect(await waitUntil { _ = Self.names(view.last!.rows); presenter.frameDrawn(rows: 0..<(view.last?.rows.count ?? 0)); return reads.waiting > 0 }, "asked again on its own")
        reads.finish()
        #expect(Self.names(try #require(view.last).rows).first == "Bertha Irwin")
    }

    @Test("a count that failed says not counted and why, never nobody, and is counted again on its own")
    func failedCountSaid() async throws {
        let source = LockedSource(try Self.slowSource())
        let (reads, view) = (HeldReads(), SpyFrequencyView())
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: source, reader: reads),
                                           field: .city, shown: source.arrange(sort: .byLastName, byCompany: true, company: nil), wireframe: SpyFrequencyWireframe())
        presenter.attach(view: view)
        reads.finish()
        #expect(view.models.last?.emptyMessage == "Not counted: a query failed, ? says why; trying again…")
        #expect(view.models.last?.position == "—" && view.models.last?.summary == "not counted", "never 0/0, which reads as nobody")
        #expect(reads.scheduledLater == 1)
        source.failing.withLock { $0 = false }
        #expect(await waitUntil { reads.waiting > 0 }, "counted again on its own")
        reads.finish()
        #expect(view.models.last?.rows.isEmpty == false)
    }

    @Test("a person who could not be read says why and is read again on its own, the reason staying on screen meanwhile (no flicker)")
    func unreadPersonRetried() async throws {
        let source = LockedSource(try Self.slowSource())
        let (reads, view) = (HeldReads(), SpyDetailView())
        let presenter = DetailPresenter(interactor: DetailInteractor(repository: source, arrangement: source.arrange(sort: .byLastName, byCompany: true, company: nil), reader: reads),
                                        position: 0, wireframe: SpyDetailWireframe())
        presenter.attach(view: view)
        reads.finish()
        #expect(view.models.last?.state == .failed("Not loaded: a query failed, ? says why. r tries again. Esc goes back to the list."))
        #expect(reads.scheduledLater == 1)
        let shown = view.models.count
        #expect(await waitUntil { reads.waiting > 0 }, "read again on its own")
        #expect(view.models.count == shown || view.models.last?.title == "not loaded", "never back to loading meanwhile")
        source.failing.withLock { $0 = false }
        reads.finish()
        #expect(view.models.last?.title == "Bertha Irwin")
    }

    @Test("a count that cannot work by itself (a summary out of date) is not tried again on its own: r counts again")
    func unhealableCountLeftToR() async throws {
        let source = LockedSource(try Self.slowSource())
        source.failure.withLock { $0 = RepositoryError(.unreadable, reason: "company summary out of date: roster import rebuilds it") }
        let (reads, view) = (HeldReads(), SpyFrequencyView())
        let presenter = FrequencyPresenter(interactor: SummaryInteractor(repository: source, reader: reads),
                                           field: .city, shown: source.arrange(sort: .byLastName, byCompany: true, company: nil), wireframe: SpyFrequencyWireframe())
        presenter.attach(view: view)
        #expect(view.models.last?.figures == .loading, "counting")
        reads.finish()
        #expect(view.models.last?.emptyMessage == "Not counted: company summary out of date: roster import rebuilds it. r counts again.")
        #expect(view.models.last?.figures == .failed("Not counted: company summary out of date: roster import rebuilds it. r counts again."))
        #expect(view.models.last?.rows.isEmpty == true, "no figures in a failed count's place")
        #expect(reads.scheduledLater == 0, "not tried again on its own")
    }
}
