#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// Everyone's folded text for a text sort key (email, city, …), made once
/// per sort: case and Latin accents folded as search folds them, so that
/// "Zoe@…" and "zoe@…" sit together and every source orders alike (the
/// databases fold the same way in SQL). One buffer of bytes and their ends,
/// not a string per person: 1M emails take about 30 MB while sorting.
struct TextSortKeys: Sendable {
    private let bytes: [UInt8]
    private let ends: [Int]

    /// Nil for a key that is not text (names, figures).
    init?(store: PeopleStore, key: SortOrder.Key) {
        guard key.isText else { return nil }
        var bytes: [UInt8] = []
        var ends: [Int] = []
        ends.reserveCapacity(store.count)
        var folded: [UInt8] = []
        for person in 0..<store.count {
            Self.withText(of: key, person: person, store: store) { LatinFolding.fold($0, into: &folded) }
            bytes += folded
            ends.append(bytes.count)
        }
        self.bytes = bytes
        self.ends = ends
    }

    /// The raw bytes `key` sorts a person by: a field, or a part of the
    /// address cut as `city:` and `state:` cut it.
    private static func withText(of key: SortOrder.Key, person: Int, store: PeopleStore,
                                 _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let field: TextField
        let part: Int?
        switch key {
        case .city: (field, part) = (.address, 1)
        case .state: (field, part) = (.address, 2)
        case .zip: (field, part) = (.address, 3)
        default:
            guard let recorded = key.recordField else { return }  // a name or a figure
            (field, part) = (recorded, nil)
        }
        store.withBytes(field, of: person) { text in body(part.map { AddressPart.bytes($0, of: text) } ?? text) }
    }

    func withKey<R>(of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = person == 0 ? 0 : ends[person - 1]
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<ends[person]])) }
    }

    /// Byte order of two people's keys (negative: `a` first).
    func compare(_ a: Int, _ b: Int) -> Int32 {
        withKey(of: a) { left in withKey(of: b) { right in GroupedPeople.compareBytes(left, right) } }
    }
}
