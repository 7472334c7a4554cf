import Foundation
import Testing
@testable import RosterCore

/// A pasted line of 100,000 characters costs linear time to show and to
/// edit: no per-frame or per-key work grows with its square.
@Suite("Long lines")
struct LongLineTests {
    static let line = String(repeating: "abcdefghi ", count: 10_000)

    @Test("the window of a 100,000-character line with the cursor at its end comes back (it took minutes when quadratic)")
    func windowIsLinear() {
        let clock = ContinuousClock()
        let start = clock.now
        let window = LineWindow(text: Self.line, cursor: Self.line.count, columns: 40)
        // Not a speed measurement (that is `make bench`'s): a bound far above
        // any busy machine's time for linear work, far below the quadratic
        // version's (no answer after 100 s).
        #expect(clock.now - start < .seconds(60))
        #expect(window.text == "…" + String(Self.line.suffix(38)))
        #expect(window.cursorColumn == 39)
    }

    @Test("pasted text is cleaned: line ends and tabs become spaces, other control characters go")
    func pastedTextCleaned() {
        #expect(PastedText.cleaned("ann\r\nbob\tcarl\u{1B}[31m\u{0}\u{85}dee\u{2028}é") == "ann bob carl[31m dee é")
    }

    @Test("a query of thousands of terms does not compare every pair of terms to narrow an earlier one")
    func narrowingIsBounded() {
        let words = (0..<3000).map { "w\($0)" }.joined(separator: " ")
        let earlier = SearchQuery(words)
        let later = SearchQuery(words + " x")
        #expect(!later.narrows(earlier), "gave up past the limit, rather than compare 9 million pairs")
        #expect(SearchQuery("abbott be").narrows(SearchQuery("abbott b")))
    }
}
