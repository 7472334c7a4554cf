import Testing
@testable import RosterStore

@Suite("Spelling table: distinct byte strings, numbered")
struct SpellingTableTests {
    @Test("every spelling keeps the number it was first given, through growth; lengths about eight bytes, equal heads, zero bytes")
    func numbersAreStable() {
        var table = SpellingTable()
        // Spellings a lookup could confuse: a zero byte against the
        // padding, equal first eight bytes with different tails, the empty one.
        var spellings: [[UInt8]] = [[], [0], [0, 0], Array("a".utf8), Array("a".utf8) + [0], Array("abcdefgh".utf8),
                                    Array("abcdefgh".utf8) + [0], Array("abcdefghi".utf8), Array("abcdefghj".utf8)]
        spellings += (0..<5_000).map { Array("company \($0 % 2 == 0 ? "long name " : "")\($0)".utf8) }
        for (expected, spelling) in spellings.enumerated() {
            let (number, isNew) = spelling.withUnsafeBufferPointer { table.number(of: $0) }
            #expect(number == expected && isNew, "\(spelling)")
        }
        #expect(table.count == spellings.count)
        for (expected, spelling) in spellings.enumerated().reversed() {
            let (number, isNew) = spelling.withUnsafeBufferPointer { table.number(of: $0) }
            #expect(number == expected && !isNew, "\(spelling)")
        }
    }
}
