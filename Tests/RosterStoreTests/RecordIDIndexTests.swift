import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("Finding a person by _id")
struct RecordIDIndexTests {
    @Test("every _id found at its first person, a duplicate at the first, an unknown or empty one at nobody")
    func findsFirst() throws {
        var records = (0..<3_000).map { Fixtures.record(first: "P\($0)", index: $0, extra: #""_id": "id-\#($0)""#) }
        records.append(Fixtures.record(first: "Again", index: 3_000, extra: #""_id": "id-7""#))
        records.append(Fixtures.record(first: "Nobody", index: 3_001, extra: #""_id": """#))
        let store = try Fixtures.directory(json: Fixtures.array(records)).store
        let index = RecordIDIndex(store)
        for person in 0..<3_000 {
            #expect(index.position(of: "id-\(person)", in: store) == person)
        }
        #expect(index.position(of: "id-7", in: store) == 7)
        #expect(index.position(of: "id-3000", in: store) == nil)
        #expect(index.position(of: "", in: store) == nil)
        #expect(index.position(of: "id-", in: store) == nil)
    }
}
