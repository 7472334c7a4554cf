import Foundation
import RosterCore
import RosterStore
import Testing
import TestSupport

/// `QueryIndex`'s bytes: read back, the same people in the same order;
/// cut short or garbled, nil or a store that holds together, never a crash.
@Suite("QueryIndex: the bytes roster query keeps of a file")
struct QueryIndexCodecTests {
    static let json = Fixtures.array((0..<40).map { index in
        Fixtures.record(first: ["Ada", "Bob", "Çelik", ""][index % 4], last: ["Garza", "Smith", "Ölz", "Né\u{1b}[2J"][index % 3],
                        company: ["ACME", "Beta", "", "acme"][index % 4], email: index % 5 == 0 ? nil : "p\(index)@x.test", index: index,
                        extra: "\"age\": \(20 + index), \"phone\": \"+1 (555) 01\(index)\", \"address\": \"\(index) Main St, Concho, Kansas, 17\(index)\"")
    })

    static func encoded() throws -> (store: PeopleStore, everyone: GroupedPeople, body: [UInt8]) {
        let store = try Fixtures.directory(json: json).store
        let everyone = GroupedPeople(store: store, sort: .byLastName, byCompany: false)
        return (store, everyone, QueryIndex.encode(store, everyone: everyone))
    }

    /// `bytes` copied to eight-aligned memory (as a mapped file is) and decoded.
    static func decode(_ bytes: some Collection<UInt8>) -> QueryIndex.Contents? {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        defer { memory.deallocate() }
        memory.copyBytes(from: bytes)
        return QueryIndex.decode(UnsafeRawBufferPointer(rebasing: memory[0..<bytes.count]))
    }

    @Test("read back: the same order, and each person's kept fields, numbers and company")
    func roundTrip() throws {
        let (store, everyone, body) = try Self.encoded()
        let contents = try #require(Self.decode(body))
        #expect(contents.everyone.order == everyone.order)
        #expect(contents.store.companies == store.companies)
        for person in 0..<store.count {
            let (was, now) = (store[person], contents.store[person])
            #expect(now.fullName == was.fullName && now.email == was.email && now.company == was.company && now.phone == was.phone
                    && now.address == was.address && now.age == was.age && now.balance.cents == was.balance.cents)
        }
    }

    @Test("every cut of the body, and every byte changed in turn, gives nil or a store that can be searched")
    func damagedBodies() throws {
        let (_, _, body) = try Self.encoded()
        for length in stride(from: 0, to: body.count, by: 7) {
            #expect(Self.decode(body.prefix(length)) == nil, "cut at \(length)")
        }
        for offset in stride(from: 0, to: body.count, by: 3) {
            var damaged = body
            damaged[offset] ^= 0xA5
            guard let contents = Self.decode(damaged) else { continue }
            let repository = InMemoryPeopleRepository(store: contents.store, sourceName: "damaged")
            let everyone = repository.arrangement(of: contents.everyone, sort: .byLastName, byCompany: false)
            let found = try #require(repository.searchNow(SearchQuery("a"), in: everyone, within: nil))
            _ = repository.rowsAtOnce(in: found, positions: 0..<found.count)
        }
    }

    @Test("answers queries on names, company, contacts, address parts and numbers; not on other fields")
    func answeredQueries() throws {
        for text in ["ada", "name:\"ada g\"", "first:a last=b", "company=acme", "email:x phone:5 address:x", "city:a street:b state=k zip:1",
                     "age>3 balance<5 active:yes age= -active="] {
            #expect(QueryIndex.answers(try QueryParser.parse(text)), "\(text)")
        }
        for text in ["eye:blue", "ada fruit:apple", "id:1", "guid=x", "-eye="] {
            #expect(!QueryIndex.answers(try QueryParser.parse(text)), "\(text)")
        }
    }
}
