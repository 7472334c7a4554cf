import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// A directory after one record was rewritten in place is the directory a
/// fresh load of the file would give: the same people in the same places,
/// file offsets, companies (headcounts and spellings), order, search
/// matches and summaries; only the one record is read.
@Suite("A record rewritten in place")
struct RewrittenRecordTests {
    static let companies = ["ACME", "Globex", "Initech", "acme", "", "Hooli"]

    static func records(_ count: Int) -> [String] {
        (0..<count).map { index in
            Fixtures.record(first: "First\(index % 31)", last: ["Núñez", "Smith", "Ölberg", "Doe"][index % 4],
                            company: companies[index % companies.count], email: "p\(index)@mail.test", index: index,
                            extra: #""_id": "r\#(index)", "address": "\#(index) Main Street, Town\#(index % 5), Ohio, 1000""#)
        }
    }

    static func text(_ records: [String], format: InputFormat) -> String {
        format == .json ? Fixtures.array(records) : records.joined(separator: "\n") + "\n"
    }

    /// Loaded from a file as the app loads it: two halves at once.
    static func load(_ text: String, format: InputFormat) async throws -> LoadedDirectory {
        let path = NSTemporaryDirectory() + "roster-rewrite-\(UUID().uuidString)." + (format == .json ? "json" : "jsonl")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        return try await PeopleLoader(chunkSize: 512, parallelThreshold: 1).load(path: path, sourceName: "people")
    }

    /// Everything a screen shows of `store`, by value (company numbers aside).
    static func expectSame(_ fast: PeopleStore, _ fresh: PeopleStore, _ context: String) {
        #expect(fast.count == fresh.count, "\(context)")
        for position in 0..<min(fast.count, fresh.count) {
            #expect(fast[position] == fresh[position], "\(context): person \(position)")
            #expect(fast.fileOffset(of: position) == fresh.fileOffset(of: position), "\(context): offset of \(position)")
            #expect(fast.companies[fast.companyID(of: position)] == fresh.companies[fresh.companyID(of: position)],
                    "\(context): company of \(position)")
        }
        #expect(Set(fast.companies.map(\.name)) == Set(fresh.companies.map(\.name)), "\(context)")
        let (fastGroups, freshGroups) = (GroupedPeople(store: fast), GroupedPeople(store: fresh))
        #expect(fastGroups.order == freshGroups.order, "\(context): order")
        #expect(fastGroups.sections.map(\.title) == freshGroups.sections.map(\.title), "\(context): sections")
        for query in ["smith", "changed", "town3", "acme", "first1 doe", "zeta"] {
            let matched = PeopleSearch.filter(fastGroups, store: fast, query: SearchQuery(query))?.grouped.order
            #expect(matched == PeopleSearch.filter(freshGroups, store: fresh, query: SearchQuery(query))?.grouped.order,
                    "\(context): search \(query)")
        }
        #expect(ValueSummary.all(of: .city, in: fast, grouped: fastGroups) == ValueSummary.all(of: .city, in: fresh, grouped: freshGroups),
                "\(context): cities")
    }

    @Test("one record rewritten, at either end, beside the halves' boundary, in either format: as a fresh load",
          arguments: [InputFormat.json, .jsonLines])
    func asFreshLoad(format: InputFormat) async throws {
        let original = Self.records(120)
        let before = try await Self.load(Self.text(original, format: format), format: format)
        #expect(before.store.segments.count == 2)
        let boundary = before.store.segmentStarts[1]
        let edits: [(Int, String)] = [
            (0, Fixtures.record(first: "Zed", last: "Aaron", company: "Zeta Corp", email: "changed@x.test", index: 0,
                                extra: #""_id": "r0", "address": "9 Long Road, Town3, Ohio, 1000", "unknown": [1, 2]"#)),
            (boundary - 1, Fixtures.record(first: "B", last: "Smith", company: "Globex", email: "changed@y.test", index: boundary - 1,
                                           extra: #""_id": "r\#(boundary - 1)""#)),
            (boundary, Fixtures.record(first: "Changed", last: "Doe", company: "acme", index: boundary, extra: #""_id": "r\#(boundary)""#)),
            (3, Fixtures.record(first: "Short", last: "X", company: "Initech", email: nil, balance: nil, index: 3, extra: #""_id": "r3""#)),
            (119, Fixtures.record(first: "Last", last: "Ölberg", company: "Hooli", index: 119, extra: #""_id": "r119""#)),
            // Company and name as they were (the companies and arrays are shared), then the name alone changed.
            (7, Fixtures.record(first: "First7", last: "Doe", company: "Globex", email: "changed.and.longer@mail.test", index: 7,
                                extra: #""_id": "r7", "address": "7 Main Street, Town2, Ohio, 1000""#)),
            (boundary + 1, Fixtures.record(first: "Aaa", last: "Aaa", company: Self.companies[(boundary + 1) % 6], index: boundary + 1,
                                           extra: #""_id": "r\#(boundary + 1)""#)),
        ]
        for (position, edited) in edits {
            var records = original
            records[position] = edited
            let after = Self.text(records, format: format)
            let fresh = try await Self.load(after, format: format)
            let directory = InMemoryPeopleRepository(before)
            let offset = before.store.fileOffset(of: position)
            let fast = try #require(directory.rewriting(recordID: "r\(position)", record: Array(edited.utf8), format: format,
                                                        offset: offset, shift: edited.utf8.count - original[position].utf8.count)?.directory)
            Self.expectSame(fast.store, fresh.store, "\(format), record \(position)")
        }
    }

    @Test("rewrites upon rewrites: windows on windows stay right")
    func successiveRewrites() async throws {
        var records = Self.records(60)
        var directory = InMemoryPeopleRepository(try await Self.load(Self.text(records, format: .json), format: .json))
        for (step, position) in [30, 31, 29, 0, 59, 30, 45, 12, 13].enumerated() {
            let company = step >= 7 ? Self.companies[position % 6] : "Co\(step % 3)"
            let edited = Fixtures.record(first: "Step\(step)", last: "Smith" + String(repeating: "x", count: step), company: company,
                                         index: position, extra: #""_id": "r\#(position)""#)
            let offset = directory.store.fileOffset(of: position)
            let shift = edited.utf8.count - records[position].utf8.count
            records[position] = edited
            directory = try #require(directory.rewriting(recordID: "r\(position)", record: Array(edited.utf8), format: .json,
                                                         offset: offset, shift: shift)?.directory)
            let fresh = try await Self.load(Self.text(records, format: .json), format: .json)
            Self.expectSame(directory.store, fresh.store, "step \(step)")
        }
        #expect(directory.store.segments.count > 2)
    }

    @Test("the list's order is kept when the rewrite moved nobody in it, and made again when it did")
    func keptOrder() async throws {
        let records = Self.records(80)
        let directory = InMemoryPeopleRepository(try await Self.load(Self.text(records, format: .json), format: .json))
        let order = directory.arrange(sort: .byLastName, byCompany: true, company: nil)
        let same = Fixtures.record(first: "First9", last: "Smith", company: Self.companies[9 % 6], email: "moved.nobody@x.test", index: 9,
                                   extra: #""_id": "r9""#)
        let renamed = Fixtures.record(first: "First9", last: "Aaa", company: Self.companies[9 % 6], index: 9, extra: #""_id": "r9""#)
        let moved = Fixtures.record(first: "First9", last: "Smith", company: "Elsewhere", index: 9, extra: #""_id": "r9""#)
        func rewrite(_ edited: String, keeping: PeopleArrangement?) -> (directory: InMemoryPeopleRepository, kept: PeopleArrangement?)? {
            directory.rewriting(recordID: "r9", record: Array(edited.utf8), format: .json, offset: directory.store.fileOffset(of: 9),
                                shift: edited.utf8.count - records[9].utf8.count, keeping: keeping)
        }
        var edited = records
        edited[9] = same
        let fresh = GroupedPeople(store: try await Self.load(Self.text(edited, format: .json), format: .json).store)
        let kept = try #require(rewrite(same, keeping: order)?.kept)
        #expect((kept.handle as? InMemoryPeopleRepository.Handle)?.grouped.order == fresh.order)
        #expect(kept.sections.map(\.title) == fresh.sections.map(\.title))
        edited[9] = renamed
        let freshRenamed = GroupedPeople(store: try await Self.load(Self.text(edited, format: .json), format: .json).store)
        let movedWithin = try #require(rewrite(renamed, keeping: order)?.kept, "the name sorts them elsewhere in their company")
        #expect((movedWithin.handle as? InMemoryPeopleRepository.Handle)?.grouped.order == freshRenamed.order)
        #expect((movedWithin.handle as? InMemoryPeopleRepository.Handle)?.grouped.order != fresh.order)
        #expect(rewrite(moved, keeping: order)?.kept == nil, "another company")
        #expect(rewrite(same, keeping: directory.arrange(sort: .byLastName, byCompany: false, company: nil))?.kept == nil)
        #expect(rewrite(same, keeping: nil)?.kept == nil)
    }

    @Test("a new name moves the one person within their company, as a fresh sort places them, ties in file order")
    func nameMovesWithinCompany() async throws {
        let records = Self.records(90)
        let directory = InMemoryPeopleRepository(try await Self.load(Self.text(records, format: .json), format: .json))
        let order = directory.arrange(sort: .byLastName, byCompany: true, company: nil)
        // To the front, to the back, onto someone else's very name (before and after them in the file), accented.
        for (position, first, last) in [(9, "A", "Aaa"), (9, "Z", "Zzzz"), (10, "First10", "Ölberg"), (70, "First8", "Ölberg"),
                                        (0, "Zed", "Núñez"), (45, "Ánne", "smith")] {
            let edited = Fixtures.record(first: first, last: last, company: Self.companies[position % 6], email: "p\(position)@mail.test",
                                         index: position, extra: #""_id": "r\#(position)", "address": "\#(position) Main Street, Town\#(position % 5), Ohio, 1000""#)
            var changed = records
            changed[position] = edited
            let fresh = GroupedPeople(store: try await Self.load(Self.text(changed, format: .json), format: .json).store)
            let kept = try #require(directory.rewriting(recordID: "r\(position)", record: Array(edited.utf8), format: .json,
                                                        offset: directory.store.fileOffset(of: position),
                                                        shift: edited.utf8.count - records[position].utf8.count, keeping: order)?.kept)
            #expect((kept.handle as? InMemoryPeopleRepository.Handle)?.grouped.order == fresh.order, "\(first) \(last) at \(position)")
            #expect(kept.sections.map(\.range) == fresh.sections.map(\.range))
        }
    }

    @Test("a record that is not the one found there, or not one person with that _id, is refused (the file is read whole)")
    func refusals() async throws {
        let records = Self.records(10)
        let directory = InMemoryPeopleRepository(try await Self.load(Self.text(records, format: .json), format: .json))
        let offset = directory.store.fileOffset(of: 4)
        let edited = Array(Fixtures.record(first: "New", index: 4, extra: #""_id": "r4""#).utf8)
        #expect(directory.rewriting(recordID: "r4", record: edited, format: .json, offset: offset + 1, shift: 0) == nil)
        #expect(directory.rewriting(recordID: "r5", record: edited, format: .json, offset: offset, shift: 0) == nil)
        let other = Array(Fixtures.record(first: "New", index: 4, extra: #""_id": "r9""#).utf8)
        #expect(directory.rewriting(recordID: "r4", record: other, format: .json, offset: offset, shift: 0) == nil)
        #expect(directory.rewriting(recordID: "r4", record: Array("{\"_id\": \"r4\"".utf8), format: .json, offset: offset, shift: 0) == nil)
        #expect(directory.rewriting(recordID: "r4", record: edited, format: .csv, offset: offset, shift: 0) == nil)
        #expect(directory.rewriting(recordID: "r4", record: edited, format: .json, offset: offset, shift: 0) != nil)
    }
}
