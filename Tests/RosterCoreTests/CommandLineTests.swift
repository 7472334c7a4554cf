import Testing
import TestSupport
@testable import RosterCore

/// The command line (`:`): its one table parses, completes and names the
/// commands; its presenter edits, completes and runs a line.
@Suite("Command line")
struct CommandLineTests {
    @Test("commands parse from the table: names cut short, an alias, numbers, asc/desc/flat and --sort's spelling")
    func parsing() throws {
        #expect(try ListCommandTable.parse("sort balance desc") == .sort(SortOrder(.balance, descending: true), flat: false))
        #expect(try ListCommandTable.parse(":s Balance") == .sort(SortOrder(.balance), flat: false))
        #expect(try ListCommandTable.parse("sort balance:desc") == .sort(SortOrder(.balance, descending: true), flat: false))
        #expect(try ListCommandTable.parse("so age desc flat") == .sort(SortOrder(.age, descending: true), flat: true))
        #expect(try ListCommandTable.parse("sort eye-color") == .sort(SortOrder(.text(.eyeColor)), flat: false))
        #expect(try ListCommandTable.parse("  filter company:acme  age>40 ") == .filter("company:acme  age>40"))
        #expect(try ListCommandTable.parse("f") == .filter(nil))
        #expect(try ListCommandTable.parse("export out.csv") == .export("out.csv"))
        #expect(try ListCommandTable.parse("w out.json") == .export("out.json"))
        #expect(try ListCommandTable.parse("col") == .columns)
        #expect(try ListCommandTable.parse("q") == .quit)
        #expect(try ListCommandTable.parse("quit") == .quit)
        #expect(try ListCommandTable.parse("h") == .help)
        #expect(try ListCommandTable.parse("42") == .goTo(42))
        #expect(try ListCommandTable.parse(":") == nil)
        #expect(try ListCommandTable.parse("   ") == nil)
    }

    @Test("a line that is no command says why, with a did-you-mean where a name is near", arguments: [
        ("srot balance", "no command 'srot'; did you mean sort?"),
        ("xyzzy", "no command 'xyzzy': Tab lists the commands"),
        ("sort balanc", "sort: no column 'balanc'; did you mean balance?"),
        ("sort", "sort: which column? Tab lists them"),
        ("sort age sideways", "sort: asc, desc or flat after the column, not 'sideways'"),
        ("export", "export: name the file (.csv, .json or .vcf)"),
        ("quit now", "quit takes nothing after it, not 'now'"),
        ("12 b", "12: a row number takes nothing after it"),
        ("\u{1B}[2J", "no command '␛[2J': Tab lists the commands"),
    ])
    func errors(line: String, message: String) {
        #expect(throws: CommandError(message)) { try ListCommandTable.parse(line) }
    }

    @Test(":filter checks its query as / does, naming the term at fault")
    func filterError() {
        #expect(throws: CommandError.self) { try ListCommandTable.parse("filter agee:3") }
        do {
            _ = try ListCommandTable.parse("filter agee:3")
        } catch {
            #expect(error.message.hasPrefix("filter: 'agee:3' (column 1): unknown field 'agee': did you mean age?"))
        }
    }

    @Test("every sort key of the one list is a :sort field, spelled as --sort spells it")
    func everySortKey() throws {
        for key in SortOrder.Key.allCases {
            #expect(try ListCommandTable.parse("sort \(key.spelling) desc") == .sort(SortOrder(key, descending: true), flat: false))
            #expect(CommandCompletion.complete("sort " + key.spelling, fileNames: { _ in [] }) == .completed("sort \(key.spelling) "))
        }
    }

    @Test("Tab completes the command, then its column and direction, a query's field, an export's file")
    func completion() {
        let files: (String) -> [String] = { $0 == "" ? ["people.csv", "people.json", "out/"] : [] }
        func complete(_ line: String) -> CommandCompletion { CommandCompletion.complete(line, fileNames: files) }
        #expect(complete("") == .listed(["sort", "filter", "export", "write", "columns", "help", "quit"]))
        #expect(complete("s") == .completed("sort "))
        #expect(complete(":co") == .completed(":columns"))
        #expect(complete("sort ") == .listed(SortOrder.Key.allCases.map(\.spelling)))
        #expect(complete("sort ba") == .completed("sort balance "))
        #expect(complete("sort a") == .listed(["age", "active", "address"]))
        #expect(complete("sort ad") == .completed("sort address "))
        #expect(complete("sort balance d") == .completed("sort balance desc "))
        #expect(complete("sort balance desc f") == .completed("sort balance desc flat "))
        #expect(complete("filter age>3 comp") == .completed("filter age>3 company:"))
        #expect(complete("filter company:ac") == CommandCompletion.none)
        #expect(complete("export pe") == .completed("export people."))
        #expect(complete("export people.") == .listed(["people.csv", "people.json"]))
        #expect(complete("quit ") == CommandCompletion.none)
        #expect(complete("zz") == CommandCompletion.none)
        #expect(complete("12") == CommandCompletion.none)
        #expect(CommandCompletion.listed(["sort", "filter"]).note == "sort  filter")
    }

    @Test("did you mean: the nearest name one edit away (two for longer names), else none")
    func nearest() {
        #expect(EditDistance.nearest(to: "srot", among: ["sort", "filter"]) == "sort")
        #expect(EditDistance.nearest(to: "filtr", among: ["sort", "filter"]) == "filter")
        #expect(EditDistance.nearest(to: "xyz", among: ["sort", "filter"]) == nil)
        #expect(EditDistance.nearest(to: "blance", among: SortOrder.Key.allCases.map(\.spelling)) == "balance")
    }

    @Test("the sort menu gives every sort key a letter of its own, from its label where it can")
    func sortMenuLetters() {
        let entries = SortMenu.entries
        #expect(entries.map(\.key) == SortOrder.Key.allCases)
        #expect(Set(entries.map(\.letter)).count == entries.count)
        #expect(entries.allSatisfy { $0.letter.isLowercase && $0.letter.isASCII })
        let letters = Dictionary(uniqueKeysWithValues: entries.map { ($0.key.spelling, $0.letter) })
        #expect(letters["last"] == "l" && letters["first"] == "f" && letters["balance"] == "b" && letters["age"] == "a")
        #expect(letters["email"] == "e" && letters["company"] == "c" && letters["id"] == "i")
        #expect(SortMenu.key(for: "b") == .balance)
        #expect(SortMenu.key(for: "x") == nil)
        #expect(entries.allSatisfy { $0.label.contains($0.letter) })
    }
}

/// The command line's presenter over a spy view and output.
@MainActor
@Suite("Command line presenter")
struct CommandLinePresenterTests {
    final class SpyOutput: CommandLineOutput, CommandLineViewInterface {
        var entered: [ListCommand] = []
        var closed = 0
        var models: [CommandLineViewModel] = []
        func commandEntered(_ command: ListCommand) { entered.append(command) }
        func commandLineClosed() { closed += 1 }
        func show(_ model: CommandLineViewModel) { models.append(model) }
    }

    let spy = SpyOutput()
    let history = PromptHistory()

    func presenter() -> CommandLinePresenter {
        let presenter = CommandLinePresenter(history: history, output: spy, fileNames: { _ in ["out.csv"] })
        presenter.attach(view: spy)
        return presenter
    }

    @Test("typing and Tab edit the line; Enter runs the command and remembers the line for ↑")
    func runs() {
        let line = presenter()
        line.edit(.insert("so"))
        line.edit(.complete)
        line.edit(.insert("bal"))
        line.edit(.complete)
        line.edit(.insert("d"))
        line.edit(.complete)
        #expect(spy.models.last?.text == "sort balance desc ")
        #expect(spy.models.last?.cursor == 18)
        line.accept()
        #expect(spy.entered == [.sort(SortOrder(.balance, descending: true), flat: false)])
        #expect(history.entries(for: .command) == ["sort balance desc"])
        let next = presenter()
        next.edit(.previousEntry)
        #expect(spy.models.last?.text == "sort balance desc")
    }

    @Test("Tab in the middle of the line completes what is before the cursor and keeps the rest")
    func completesBeforeCursor() {
        let line = presenter()
        line.edit(.insert("so desc"))
        for _ in 0..<5 { line.edit(.moveLeft) }
        line.edit(.complete)
        #expect(spy.models.last?.text == "sort  desc")
        #expect(spy.models.last?.cursor == 5)
    }

    @Test("Enter on a line that is no command keeps it open, saying why, until it is edited; a Tab that cannot complete lists")
    func errorsAndNotes() {
        let line = presenter()
        line.edit(.insert("srot"))
        line.accept()
        #expect(spy.entered.isEmpty && spy.closed == 0)
        #expect(spy.models.last?.error == "no command 'srot'; did you mean sort?")
        line.edit(.deleteToStart)
        #expect(spy.models.last?.error == nil)
        line.edit(.complete)
        #expect(spy.models.last?.note == "sort  filter  export  write  columns  help  quit")
        line.edit(.insert("x"))
        #expect(spy.models.last?.note == nil)
        #expect(history.entries(for: .command).isEmpty)
    }

    @Test("Esc, and Enter on an empty line, close it running nothing")
    func closing() {
        presenter().cancel()
        presenter().accept()
        #expect(spy.closed == 2)
        #expect(spy.entered.isEmpty)
    }
}
