import Testing
import RosterCore
import TestSupport
@testable import RosterTUI

@Suite("Title bar")
struct TitleBarTests {
    /// Titles of every kind: a file, a company's list, a lost connection's
    /// counts, an offline copy, a value's list, the overview under a filter.
    static let titles: [(source: String, rest: String, figures: String)] = [
        ("people.json", "", "400 people · 34 companies"),
        ("/home/ann/work/directories/people.json", " › COMGY", "6 of 400 people · 1 of 34 companies"),
        ("connection lost, r reconnects — postgres://postgres@/postgres?host=/tmp/titles-pg", ": counts by company", "400 people"),
        ("offline as of 14:02, r reconnects — postgres://ann@db.example.com/staff", " › COMGY", "6 people"),
        ("people.json", ": counts by city › Nadine", "3 of 400 people · 1 of 34 companies · 3 skipped (! lists)"),
        ("postgres://ann@db.example.com:5433/personnel", ": companies", "354 of 501 companies"),
        ("a query failed, ? says why — postgres://ann@db/hr", " › COMGY", "6 of 400 people"),
    ]

    @MainActor static func rendered(columns: Int) -> String {
        let screen = MemoryScreen(rows: titles.count, columns: columns)
        for (row, title) in titles.enumerated() {
            screen.putTitleBar(source: title.source, then: title.rest, right: title.figures, row: row)
        }
        return (0..<titles.count).map { screen.line($0) }.joined(separator: "\n")
    }

    @Test("snapshots at 80 and 40 columns", arguments: [80, 40])
    @MainActor func snapshots(columns: Int) {
        let text = Self.rendered(columns: columns)
        #expect(snapshotMismatch(text, named: "title-bars-\(columns)") == nil, "\(text)")
    }

    @Test("the state and the screen stay whole; the target gives way first, at a boundary; figures go whole")
    func rule() {
        let lost = TitleBar.layout(source: Self.titles[2].source, then: Self.titles[2].rest, figures: "400 people", columns: 80)
        #expect(lost.left == " connection lost, r reconnects — …/tmp/titles-pg: counts by company")
        let lostTail = TitleBar.layout(source: "connection lost, r reconnects — postgres://ann@db/hr", then: ": counts by city",
                                       figures: "400 people", columns: 40)
        #expect(lostTail.left == " connection lost, r reconnects: counts…")
        #expect(lost.right == "400 people ")
        let narrow = TitleBar.layout(source: Self.titles[2].source, then: Self.titles[2].rest, figures: "400 people", columns: 40)
        #expect(narrow.left.hasPrefix(" connection lost, r reconnects"))
        let value = TitleBar.layout(source: "people.json", then: ": counts by city › Nadine",
                                    figures: "3 of 400 people · 3 skipped (! lists)", columns: 64)
        #expect(value.left == " Roster — people.json: counts by city › Nadine")
        #expect(value.right == "3 of 400 people ")
        let file = TitleBar.layout(source: "/home/ann/work/directories/people.json", then: " › COMGY", figures: "", columns: 36)
        #expect(file.left == " Roster — …/people.json › COMGY")
        let small = TitleBar.layout(source: "/home/ann/work/directories/people.json", then: " › COMGY",
                                    figures: "6 of 400 people · 1 of 34 companies", columns: 40)
        #expect(small.left + small.right == " …/people.json › COMGY6 of 400 people ")
        #expect(TitleBar.layout(source: "people.json", then: "", figures: "", columns: 40).left == " Roster — people.json")
        // A long file name gives way from its start, down to 16 cells, before any figure does.
        let long = TitleBar.layout(source: "/tmp/roster-e2e-browse-0B5E7A1C-4F2D-4E4B-9C1A-7D3E2F1A0B9C.db", then: "",
                                   figures: "400 people · 34 companies", columns: 80)
        #expect(long.right == "400 people · 34 companies ")
        #expect(long.left.hasPrefix(" Roster — …") && long.left.hasSuffix("7D3E2F1A0B9C.db"), "\(long.left)")
    }

    @Test("the sample keeps its start, the word sample: whole, then short, before a figure goes", arguments: [80, 60, 52, 44, 40])
    func sample(columns: Int) {
        let title = TitleBar.layout(source: DirectorySource.sampleTitle, then: "", figures: "400 people · 34 companies", columns: columns)
        #expect([" Roster — sample directory (read-only)", " Roster — sample (read-only)"].contains(title.left), "\(title.left)")
        if columns == 80 { #expect(title.left == " Roster — sample directory (read-only)" && title.right == "400 people · 34 companies ") }
        if columns == 60 { #expect(title.left == " Roster — sample (read-only)" && title.right == "400 people · 34 companies ") }
        let company = TitleBar.layout(source: DirectorySource.sampleTitle, then: " › COMGY", figures: "6 people", columns: columns)
        #expect(company.left.contains("sample") && company.left.hasSuffix(" › COMGY"), "\(company.left)")
    }
}
