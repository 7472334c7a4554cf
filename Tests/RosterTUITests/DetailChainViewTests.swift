import Testing
import TestSupport
@testable import RosterCore
@testable import RosterTUI

/// Records what the person's screen's keys ask for.
@MainActor
final class SpyDetailModule: DetailModuleInterface {
    private(set) var opened = 0
    func showPrevious() {}
    func showNext() {}
    func goBack() {}
    func quit() {}
    func edit(inEditor: Bool) {}
    func moveFieldCursor(by delta: Int) {}
    func copyField() {}
    func retry() {}
    func openSelected() { opened += 1 }
    private(set) var chartsShown = 0
    func showOrgChart() { chartsShown += 1 }
}

@Suite("The person's screen's chain of managers, drawn")
@MainActor
struct DetailChainViewTests {
    static let chain = ["Frances Lamarr", "Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Margaret Hamilton"]

    @Test("T on the person's screen asks for the org chart")
    func orgChartKey() {
        let module = SpyDetailModule()
        let view = DetailView(presenter: module)
        #expect(view.handle(.character("T"), screenSize: ScreenSize(rows: 24, columns: 80)))
        #expect(module.chartsShown == 1)
    }

    @Test("the whole chain when it fits, with › between and the problem after")
    func fits() {
        let line = NamedPeopleLine(people: ["Frances Lamarr", "Ada Lovelace"], after: "⚠ manager not here", selected: nil, columns: 80)
        #expect(line.text == "Frances Lamarr › Ada Lovelace › ⚠ manager not here")
    }

    @Test("too long, it keeps the direct manager, the top and the one under the cursor, the rest one …",
          arguments: [(40, nil, "Frances Lamarr › … › Margaret Hamilton"),
                      (44, 2, "Frances Lamarr › … › Grace Hopper › …"),
                      (30, 3, "… › Katherine Johnson › …")])
    func cuts(columns: Int, selected: Int?, expected: String) {
        let line = NamedPeopleLine(people: Self.chain, after: nil, selected: selected, columns: columns)
        #expect(line.text == expected)
        #expect(DisplayText.width(line.text) <= columns)
        if let selected { #expect(line.segments.contains { $0 == .person(index: selected, text: Self.chain[selected]) }) }
    }

    @Test("the problem goes before a name is cut; a narrow line never overflows", arguments: [10, 17, 25, 31])
    func narrow(columns: Int) {
        let line = NamedPeopleLine(people: Self.chain, after: "⚠ in a loop of managers", selected: nil, columns: columns)
        #expect(DisplayText.width(line.text) <= columns)
        #expect(line.text.hasPrefix(String("Frances Lamarr".prefix(min(columns, 14) - 1))))
    }

    @Test("a long note is cut at its end while its reason fits, the top of the chain kept where the reason fits beside it, else it goes",
          arguments: [(100, #"Frances Lamarr › … › Margaret Hamilton › ⚠ manager ambiguous: "Ann Lee" names 2 people"#),
                      (80, #"Frances Lamarr › … › Margaret Hamilton › ⚠ manager ambiguous: "Ann Lee" names 2…"#),
                      (60, #"Frances Lamarr › … › ⚠ manager ambiguous: "Ann Lee" names 2…"#),
                      (52, #"Frances Lamarr › … › ⚠ manager ambiguous: "Ann Lee"…"#),
                      (30, "Frances Lamarr › …")])
    func longNote(columns: Int, expected: String) {
        let note = #"⚠ manager ambiguous: "Ann Lee" names 2 people"#
        let line = NamedPeopleLine(people: Self.chain, after: note, selected: nil, columns: columns)
        #expect(line.text == expected)
        #expect(DisplayText.width(line.text) <= columns)
    }

    /// A person whose chain has five managers and who has two reports, the cursor on the chain's `selected`.
    static func model(selected: Int) -> DetailViewModel {
        DetailViewModel(title: "Ines Ruiz", company: "ACME", position: "3/9",
                        fields: [.init(label: "Email", value: "ines@example.org"),
                                 .init(label: "Manager", value: "Frances Lamarr <frances@example.org>"),
                                 .init(label: "Chain", value: chain.joined(separator: " › "), people: chain),
                                 .init(label: "Reports", value: "2 (5 in all)"),
                                 .init(label: "", value: "Alan Turing", people: ["Alan Turing"]),
                                 .init(label: "", value: "Edsger Dijkstra", people: ["Edsger Dijkstra"])],
                        selectedField: 2, selectedPerson: selected)
    }

    @Test("at 80 and 60 columns the chain is one line cut to fit, the person under the cursor in reverse video; Enter opens",
          arguments: [(24, 80), (15, 60)])
    func draws(rows: Int, columns: Int) throws {
        let presenter = SpyDetailModule()
        let view = DetailView(presenter: presenter)
        view.show(Self.model(selected: 1))
        let screen = MemoryScreen(rows: rows, columns: columns)
        view.draw(on: screen)
        let row = try #require((0..<rows).first { screen.line($0).contains("Chain  ") })
        let line = screen.line(row)
        #expect(line.contains("Frances Lamarr › Ada Lovelace › "))
        #expect(DisplayText.width(line.trimmingCharacters(in: .whitespaces)) <= columns)
        #expect(line.trimmingCharacters(in: .whitespaces).hasSuffix(columns == 80 ? "Grace Hopper › … › Margaret Hamilton" : "Grace Hopper › …"))
        let ada = try #require(line.range(of: "Ada Lovelace"))
        let column = line.distance(from: line.startIndex, to: ada.lowerBound)
        #expect(screen.style(row: row, column: column) == .selected)
        #expect(screen.style(row: row, column: 4) == .dim, "the label is not the cursor: a field names several")
        #expect(screen.line(row + 2).trimmingCharacters(in: .whitespaces) == "Alan Turing", "each report on a line of its own under the count")
        view.handle(.enter, screenSize: ScreenSize(rows: rows, columns: columns))
        #expect(presenter.opened == 1)
    }
}
