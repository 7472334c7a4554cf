import Testing
import TestSupport
@testable import RosterCore
@testable import RosterTUI

/// Records what the org chart's keys ask for.
@MainActor
final class SpyOrgChartModule: OrgChartModuleInterface {
    enum Call: Equatable {
        case move(Int), first, last, expandOrEnter, collapseOrLeave, expand, collapse, toggle, open, search(String)
        case clearSearchOrBack, back, quit
    }
    private(set) var calls: [Call] = []
    func move(by delta: Int) { calls.append(.move(delta)) }
    func moveToFirst() { calls.append(.first) }
    func moveToLast() { calls.append(.last) }
    func expandOrEnter() { calls.append(.expandOrEnter) }
    func collapseOrLeave() { calls.append(.collapseOrLeave) }
    func expand() { calls.append(.expand) }
    func collapse() { calls.append(.collapse) }
    func toggle() { calls.append(.toggle) }
    func openPerson() { calls.append(.open) }
    func search(_ query: String) { calls.append(.search(query)) }
    func clearSearchOrBack() { calls.append(.clearSearchOrBack) }
    func goBack() { calls.append(.back) }
    func quit() { calls.append(.quit) }
}

struct LabelledPeople: OrgChartPeople {
    static let names = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Orphan \u{1B}[31mRed"]
    func name(of person: Int) -> String { Self.names[person] }
    func email(of person: Int) -> String { Self.names[person].split(separator: " ")[0].lowercased() + "@example.org" }
    func person(recordID: String) -> Int? { nil }
}

/// Ann Lee, Ann Lee and Cy Young.
struct AnnLees: OrgChartPeople {
    static let names = ["Ann Lee", "Ann Lee", "Cy Young"]
    func name(of person: Int) -> String { Self.names[person] }
    func email(of person: Int) -> String { Self.names[person].split(separator: " ")[0].lowercased() + "@example.org" }
    func person(recordID: String) -> Int? { nil }
}

@Suite("The org chart screen's view")
@MainActor
struct OrgChartViewTests {
    /// Ada at the top; Grace reports to her, Alan to Grace; the last one's manager is not here.
    static func model(selected: Int = 1, filter: String? = nil) -> OrgChartViewModel {
        let chart = OrgChart(tree: OrgTree(managers: [-1, 0, 1, 42]), people: LabelledPeople())
        var rows = OrgChartRows(chart.tree.outline)
        rows.open(at: 1)
        let lines = OrgChartLines(chart: chart, rows: rows, isSearch: false)
        return OrgChartViewModel(sourceName: "org.json", content: .chart, problems: chart.tree.problemSummary,
                                 summary: "4 people · 2 at the top", rowCount: rows.count, selectedRow: selected, filter: filter,
                                 lines: { lines.lines($0) })
    }

    @Test("draws the tree indented with ▾/▸, counts, problems in the title and on the line, the position in the status bar",
          arguments: [(24, 80), (12, 40)])
    func draws(rows: Int, columns: Int) {
        let view = OrgChartView(presenter: SpyOrgChartModule())
        view.show(Self.model())
        let screen = MemoryScreen(rows: rows, columns: columns)
        view.draw(on: screen)
        #expect(screen.line(0).contains("! 1 with a manager not here") || columns < 60)
        #expect(screen.line(1).hasPrefix(" ▾ Ada Lovelace"))
        #expect(screen.line(2).hasPrefix("   ▸ Grace Hopper"))
        #expect(screen.style(row: 2, column: 3) == .selected && screen.style(row: 1, column: 3) == .normal)
        #expect(screen.line(3).hasPrefix("   Orphan [31mRed") || screen.line(3).hasPrefix("   Orphan"))
        #expect(!screen.text.contains("\u{1B}"), "no escape reaches the terminal")
        #expect(screen.line(rows - 1).hasPrefix(" 2/3 · everyone"))
        #expect(screen.line(3).contains("! manager not here"), "the problem stays in sight; the email goes first")
        if columns >= 80 {
            #expect(screen.line(1).contains("ada@example.org  (1 report · 2 in all)"))
            #expect(screen.line(3).contains("orphan@example.org"))
        } else {
            #expect(screen.line(1).contains("(1 report · 2 in all)") && !screen.line(1).contains("ada@"))
        }
    }

    @Test("a search no one matches says so and how to get everyone back, in place of the chart")
    func nobodyMatches() {
        let model = OrgChartViewModel(sourceName: "org.json", content: .chart, summary: "4 people · 2 at the top",
                                      rowCount: 0, filter: "zzz", notice: "no one matches",
                                      emptyText: "No one matches 'zzz': Esc shows everyone.")
        let view = OrgChartView(presenter: SpyOrgChartModule())
        view.show(model)
        let screen = MemoryScreen(rows: 10, columns: 60)
        view.draw(on: screen)
        #expect(screen.line(2).hasPrefix(" No one matches 'zzz': Esc shows everyone."))
        #expect(screen.line(9).hasPrefix(" nobody shown · search: zzz · no one matches"))
    }

    @Test("problems too long for the title are said in brief, never dropped: the full words where they fit", arguments: [80, 50, 160])
    func problemsInBrief(columns: Int) {
        let long = "1 with a manager not here, 1 with an ambiguous manager, 1 their own manager, 1 loop of managers"
        let model = OrgChartViewModel(sourceName: "org.json", content: .chart, problems: long, problemsBrief: "4 problems",
                                      summary: "18 people · 8 at the top", rowCount: 1)
        let view = OrgChartView(presenter: SpyOrgChartModule())
        view.show(model)
        let screen = MemoryScreen(rows: 12, columns: columns)
        view.draw(on: screen)
        let title = screen.line(0)
        if columns >= 160 {
            #expect(title.contains("! " + long), "\(title)")
        } else {
            #expect(title.contains("! 4 problems") && !title.contains("ambiguous"), "\(title)")
        }
        #expect(title.contains("org chart"), "\(title)")
    }

    @Test("a manager two people fit: the line says what the reference was and how many it names, reason first when cut; the title too",
          arguments: [40, 80, 120])
    func ambiguousManager(columns: Int) {
        // Two Ann Lees; Cy names "Ann Lee".
        let references = PersonReferenceColumns([.init(id: "a", names: ["Ann Lee"]), .init(id: "b", names: ["Ann Lee"]),
                                                 .init(id: "c", names: ["Cy Young"], manager: "Ann Lee")])
        let chart = OrgChart(tree: OrgTree(ManagerResolution(PersonReferenceIndex(references))), people: AnnLees())
        let rows = OrgChartRows(chart.tree.outline)
        let lines = OrgChartLines(chart: chart, rows: rows, isSearch: false)
        let view = OrgChartView(presenter: SpyOrgChartModule())
        view.show(OrgChartViewModel(sourceName: "org.json", content: .chart, problems: chart.tree.problemSummary, problemsBrief: "1 problem",
                                    summary: "3 people · 3 at the top", rowCount: rows.count, lines: { lines.lines($0) }))
        let screen = MemoryScreen(rows: 12, columns: columns)
        view.draw(on: screen)
        let line = String(screen.line(3).reversed().drop { $0 == " " }.reversed())
        if columns >= 80 {
            #expect(line == #"   Cy Young  cy@example.org  ! manager ambiguous: "Ann Lee" names 2 people"#)
        } else {
            #expect(line == #"   Cy Young  ! manager ambiguous: "Ann …"#, "the email goes first; the reason stays")
        }
        let title = screen.line(0)
        if columns >= 120 {
            #expect(title.contains(#"! 1 with an ambiguous manager ("Ann Lee" names 2 people) · 3 people"#), "\(title)")
        } else if columns >= 80 {
            #expect(title.contains(#"! 1 with an ambiguous manager ("Ann Lee" names 2 people)"#), "the figures give way first: \(title)")
        } else {
            #expect(title.contains("! 1 problem"), "\(title)")
        }
    }

    @Test("a file without managers says so in place of the chart")
    func message() {
        let view = OrgChartView(presenter: SpyOrgChartModule())
        view.show(OrgChartViewModel(sourceName: "plain.json", content: .message("No one in plain.json has a \"manager\" field")))
        let screen = MemoryScreen(rows: 12, columns: 40)
        view.draw(on: screen)
        #expect(screen.line(2).hasPrefix(" No one in plain.json has a"))
        #expect(screen.line(11).hasPrefix(" ") && !screen.line(11).contains("everyone"), "no position without rows: \(screen.line(11))")
    }

    @Test("keys: arrows and vi keys move, open and close as tree tools do; ⏎ opens; Esc and q go back")
    func keys() {
        let spy = SpyOrgChartModule()
        let view = OrgChartView(presenter: spy)
        view.show(Self.model())
        let size = ScreenSize(rows: 24, columns: 80)
        let keys: [Key] = [.down, .character("k"), .pageDown, .character("G"), .character("g"), .right, .character("l"), .left,
                           .character("h"), .character("+"), .character("-"), .character(" "), .enter, .escape, .character("q")]
        for key in keys { #expect(view.handle(key, screenSize: size)) }
        #expect(spy.calls == [.move(1), .move(-1), .move(21), .last, .first, .expandOrEnter, .expandOrEnter, .collapseOrLeave,
                              .collapseOrLeave, .expand, .collapse, .toggle, .open, .clearSearchOrBack, .back])
    }

    @Test("/ opens a prompt over the status bar; each key typed searches, ⏎ keeps it, Esc puts back the search before")
    func searchPrompt() {
        let spy = SpyOrgChartModule()
        let view = OrgChartView(presenter: spy)
        view.show(Self.model())
        let size = ScreenSize(rows: 24, columns: 80)
        view.handle(.character("/"), screenSize: size)
        #expect(view.acceptsTypedText)
        view.handle(.typed("grac"), screenSize: size)
        view.handle(.character("q"), screenSize: size)
        view.handle(.backspace, screenSize: size)
        let screen = MemoryScreen(rows: 24, columns: 80)
        view.draw(on: screen)
        #expect(screen.line(23).hasPrefix(" / grac"))
        view.handle(.enter, screenSize: size)
        view.handle(.character("/"), screenSize: size)
        view.handle(.escape, screenSize: size)
        #expect(!view.acceptsTypedText)
        #expect(spy.calls == [.search("grac"), .search("gracq"), .search("grac"), .search("")])
    }
}
