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

    @Test("says what is missing or wrong")
    func refuses() {
        #expect(throws: Options.UsageError(message: "import needs --into TARGET")) { try ImportCommand.parse(["a.json"]) }
        #expect(throws: Options.UsageError(message: "import takes one FILE, got 0")) { try ImportCommand.parse(["--into", "x.db"]) }
        #expect(throws: Options.UsageError.self) { try ImportCommand.parse(["a.json", "--into", "people.json"]) }
        #expect(throws: Options.UsageError(message: "--table needs a value")) { try ImportCommand.parse(["a.json", "--into", "x.db", "--table"]) }
    }
}
