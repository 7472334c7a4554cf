import Testing
import RosterCore
@testable import RosterTUI

@Suite("Key reader")
struct KeyReaderTests {
    /// Reads every key from `raws` (nothing more arrives after them).
    static func keys(_ raws: [KeyReader.Raw]) -> [Key] {
        var queue = raws[...]
        var reader = KeyReader()
        var keys: [Key] = []
        while let key = reader.next(read: { queue.popFirst() }, waitForMore: { false }) { keys.append(key) }
        return keys
    }

    static func typed(_ text: String) -> [KeyReader.Raw] { text.map { .key(.character($0)) } }

    @Test("a bracketed paste is one key, line ends and tabs as spaces, control characters and keys inside it dropped")
    func pasteIsOneKey() {
        let raws: [KeyReader.Raw] = [.pasteBegin] + Self.typed("ann") + [.key(.enter), .key(.tab)] + Self.typed("bob\u{7}")
            + [.key(.up), .key(.control("c")), .key(.escape)] + Self.typed("q") + [.pasteEnd, .key(.down)]
        #expect(Self.keys(raws) == [.paste("ann  bobq"), .down])
    }

    @Test("a paste whose end mark never comes ends when nothing more arrives")
    func pasteWithoutEnd() {
        #expect(Self.keys([.pasteBegin] + Self.typed("abc")) == [.paste("abc")])
    }

    @Test("printable characters already waiting come as one typed run; other keys stay keys, in order")
    func typedAheadIsCoalesced() {
        #expect(Self.keys(Self.typed("/abc") + [.key(.enter)] + Self.typed("j") + [.key(.down)] + Self.typed("xy"))
                == [.typed("/abc"), .enter, .character("j"), .down, .typed("xy")])
    }

    @Test("a paste is capped at its limit; the rest of it is dropped, never read as keys")
    func pasteLimit() {
        let keys = Self.keys([.pasteBegin] + Array(repeating: .key(.character("a")), count: PastedText.limit) + Self.typed("qqq")
                             + [.pasteEnd, .key(.down)])
        guard case .paste(let text) = keys.first else {
            Issue.record("no paste: \(keys.prefix(3))")
            return
        }
        #expect(text.count == PastedText.limit)
        #expect(keys.count == 2 && keys.last == .down)
    }
}
