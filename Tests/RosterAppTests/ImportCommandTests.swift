import Testing
import TestTraits
@testable import RosterApp
import RosterCore
@testable import RosterStore
import RosterSQL

@Suite("roster import", .blockingWork)
struct ImportCommandTests {
    @Test("reads FILE, --into and --table in any order")
    func parses() throws {
        #expect(try ImportCommand.parse(["people.json", "--into", "postgres://ann@db/dir"])
            == ImportCommand.Arguments(file: "people.json", target: .postgres(conninfo: "postgres://ann@db/dir")))
        #expect(try ImportCommand.parse(["--table=staff", "--into=people.db", "-"])
            == ImportCommand.Arguments(file: "-", target: .sqlite(path: "people.db"), table: "staff"))
        #expect(try ImportCommand.parse(["a.json", "--into", "host=/tmp dbname=x"]).target == .postgres(conninfo: "host=/tmp dbname=x"))
        #expect(try ImportCommand.parse(["-", "--format", "jsonl", "--into", "x.db"]).format == .jsonLines)
    }

    @Test("--help's paragraphs are filled: no line ends far short of the next one's first word")
    func helpIsFilled() {
        let paragraphs = ImportCommand.usage.components(separatedBy: "\n\n")
        for paragraph in paragraphs where !paragraph.hasPrefix("Usage") {
            let lines = paragraph.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.hasPrefix("-") }
            for (line, next) in zip(lines, lines.dropFirst()) {
                let firstWord = next.split(separator: " ").first.map(String.init) ?? ""
                #expect(line.count + 1 + firstWord.count > 60, "\(line)")
            }
        }
        #expect(ImportCommand.usage.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test("each phase of an import has its line, with counts grouped, to the end")
    func progressLines() {
        #expect(ImportProgressBar.line(.writing(done: 12288, total: 20000))
            == "loading rows ██████████████░░░░░░░░░░  61%  12,288 of 20,000 people")
        #expect(ImportProgressBar.line(.merging(rows: 20000)) == "merging 20,000 rows into the table…")
        #expect(ImportProgressBar.line(.indexing(done: 12, total: 12)) == "building indexes ████████████████████████ 100%  12 of 12")
        #expect(ImportProgressBar.line(.waiting) == "waiting for another import into this database to finish…")
        // Narrow: the bar gives way first, the counts stay.
        #expect(ImportProgressBar.line(.writing(done: 12288, total: 20000), width: 39) == "loading rows  61%  12,288 of 20,000 pe…")
        #expect(ImportProgressBar.line(.indexing(done: 3, total: 12), width: 39) == "building indexes ██░░░░░░  25%  3 of 12")
    }

    @Test("says what is missing or wrong")
    func refuses() {
        #expect(throws: Options.UsageError(message: "import needs --into TARGET")) { try ImportCommand.parse(["a.json"]) }
        #expect(throws: Options.UsageError(message: "import takes one FILE, got 0")) { try ImportCommand.parse(["--into", "x.db"]) }
        #expect(throws: Options.UsageError.self) { try ImportCommand.parse(["a.json", "--into", "people.json"]) }
        #expect(throws: Options.UsageError(message: "--table needs a value")) { try ImportCommand.parse(["a.json", "--into", "x.db", "--table"]) }
    }
}
