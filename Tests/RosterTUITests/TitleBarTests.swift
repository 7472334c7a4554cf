import Testing
import RosterCore
@testable import RosterTUI

@Suite("Title bar")
struct TitleBarTests {
    @Test("a long target gives way from its start, keeping the source's state and the screen's name")
    func targetFirst() {
        let left = TitleBar.left(source: "offline as of 14:02 — postgres://ann@db.example.com/staff", then: " › COMGY", columns: 56)
        #expect(left == " Roster — offline as of 14:02 — …ample.com/staff › COMGY")
        #expect(DisplayText.width(left) <= 56)
        let lost = TitleBar.left(source: "connection lost, cached rows only — postgres://ann@db/hr", then: ": counts of city", columns: 70)
        // The target keeps its last 16 cells; then the rest is cut at its end.
        #expect(lost == " Roster — connection lost, cached rows only — …res://ann@db/hr: count…")
    }

    @Test("a file's path keeps its name; a short source is cut at the end as before")
    func filesAndShortNames() {
        #expect(TitleBar.left(source: "/home/ann/work/directories/people.json", then: " › COMGY", columns: 40)
            == " Roster — …rectories/people.json › COMGY")
        #expect(TitleBar.left(source: "test.json", then: ": counts of balance band", columns: 30) == " Roster — test.json: counts o…")
        #expect(TitleBar.left(source: "people.json", then: "", columns: 40) == " Roster — people.json")
    }
}
