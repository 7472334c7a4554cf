import Foundation
import Testing
@testable import RosterApp
import RosterCore
@testable import RosterStore
import TestSupport

@Suite("Command line")
struct OptionsTests {
    @Test("reads modes and the file")
    func parses() throws {
        #expect(try Options.parse([]) == Options())
        #expect(try Options.parse(["people.json"]) == Options(file: "people.json"))
        #expect(try Options.parse(["-"]) == Options(file: "-"))
        #expect(try Options.parse(["--list", "a.json"]) == Options(mode: .list, file: "a.json"))
        #expect(try Options.parse(["a.json", "--list", "--strict"]) == Options(mode: .list, file: "a.json", strict: true))
        #expect(try Options.parse(["--help"]).mode == .help)
        #expect(try Options.parse(["-h", "--list"]).mode == .help)
        #expect(try Options.parse(["--version"]).mode == .version)
        #expect(try Options.parse(["--", "--list"]) == Options(file: "--list"))
    }

    @Test("--filter takes the query language; a bad query is a usage error naming the term, its column and what is wrong")
    func filterQuery() throws {
        #expect(try Options.parse(["--filter", "company:acme age>40 -\"two words\""]).filter == "company:acme age>40 -\"two words\"")
        #expect(throws: Options.UsageError(message: "--filter: 'age>x' (column 11): age is a whole number of years, not 'x'")) {
            try Options.parse(["--filter", "acme  age>x"])
        }
        #expect(throws: Options.UsageError(message: "--filter: 'agee:3' (column 1): unknown field 'agee': did you mean age? (fields: \(QueryParser.fieldList))")) {
            try Options.parse(["--filter=agee:3"])
        }
        // The query's text is made safe for the terminal the message goes to.
        #expect(throws: Options.UsageError(message: "--filter: 'age>␛[2J' (column 5): age is a whole number of years, not '␛[2J'")) {
            try Options.parse(["--filter", "age>\u{1B}[2J"])
        }
    }

    @Test("--export, --filter and --sort, with a value apart or after =")
    func valuedOptions() throws {
        let options = try Options.parse(["--export", "vcard", "--filter=jose", "--sort", "balance:desc", "a.json"])
        #expect(options.mode == .export(.vcard))
        #expect(options.filter == "jose")
        #expect(options.sort == SortOrder(.balance, descending: true))
        #expect(try Options.parse(["--list", "--sort=first"]).sort == SortOrder(.firstName))
        #expect(throws: Options.UsageError.self) { try Options.parse(["--export", "xml"]) }
        #expect(throws: Options.UsageError.self) { try Options.parse(["--sort", "height"]) }
        #expect(throws: Options.UsageError(message: "--filter needs a value")) { try Options.parse(["--filter"]) }
    }

    @Test("--format names how to read the input; nil leaves it to the extension and content")
    func format() throws {
        #expect(try Options.parse(["a.txt"]).format == nil)
        #expect(try Options.parse(["--format", "csv", "a.txt"]).format == .csv)
        #expect(try Options.parse(["--format=NDJSON", "-"]).format == .jsonLines)
        #expect(throws: Options.UsageError(message: "--format takes json, jsonl, csv, vcf or ldif, not 'xml'")) { try Options.parse(["--format", "xml"]) }
    }

    @Test("unknown options and extra files are usage errors")
    func usageErrors() {
        #expect(throws: Options.UsageError(message: "unknown option '--frobnicate'")) { try Options.parse(["--frobnicate"]) }
        #expect(throws: Options.UsageError.self) { try Options.parse(["a.json", "b.json"]) }
    }

    @Test("the usage text names the keys people look for and points to the installed manual")
    func usageKeys() {
        for key in ["Tab", " e ", "Space", " y "] { #expect(Options.usage.contains(key), "\(key)") }
        #expect(Options.usage.contains("man roster"))
        #expect(!Options.usage.contains("README"))
    }

    @Test("--table names the database table to browse; a database is the FILE argument")
    func table() throws {
        let options = try Options.parse(["--table", "staff", "postgres://ann@db/x"])
        #expect(options.table == "staff")
        #expect(options.file == "postgres://ann@db/x")
        #expect(try Options.parse(["--table=my table", "people.db"]).table == "my table")
        #expect(try Options.parse(["people.db"]).table == nil)
        #expect(throws: Options.UsageError(message: "--table needs a value")) { try Options.parse(["--table"]) }
    }

    @Test("the usage text names every option the parser knows")
    func usageMentionsOptions() {
        for option in ["--list", "--format", "--export", "--filter", "--sort", "--table", "--strict", "--no-state", "--mouse", "--no-color", "--help", "--version"] {
            #expect(Options.usage.contains(option))
        }
    }
}

@Suite("Manual")
struct ManualTests {
    static let manual = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("man/roster.1")

    /// Long options in a text: `--list`, `\-\-no\-state` (roff escapes undone).
    static func longOptions(_ text: String) -> Set<String> {
        let plain = text.replacingOccurrences(of: "\\-", with: "-")
        return Set(plain.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
    }

    @Test("roster --help and the manual list the same options")
    func optionsAgree() throws {
        let manual = try String(contentsOf: Self.manual, encoding: .utf8)
        let synopsisAndOptions = manual.components(separatedBy: ".SH KEYS").first ?? manual
        #expect(Self.longOptions(Options.usage) == Self.longOptions(synopsisAndOptions))
        #expect(Self.longOptions(Options.usage).contains("--no-state"))
    }

    static let readme = manual.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    static let formats = manual.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/formats.md")
    static let commandLine = manual.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/command-line.md")

    @Test("the input format's example in the manual and docs/formats.md loads: two people, none skipped")
    func inputFormatExamples() throws {
        let manual = try String(contentsOf: Self.manual, encoding: .utf8)
        let manualExample = try #require(manual.components(separatedBy: ".in +2\n").dropFirst().first?.components(separatedBy: ".in\n").first)
        let formats = try String(contentsOf: Self.formats, encoding: .utf8)
        let formatsExample = try #require(formats.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        #expect(manualExample == formatsExample)
        let directory = try Fixtures.directory(json: formatsExample)
        #expect(directory.store.count == 2)
        #expect(directory.skipped.isEmpty)
        #expect(directory.store[1].firstName == "Norton")
        #expect(directory.store.balanceCents(of: 1) == -119_479)
    }

    @Test("the mail clients' lines in roster query --help are in docs/command-line.md and the manual, whose synopsis names roster query")
    func mailClientLines() throws {
        let lines = QueryCommand.usage.split(separator: "\n").compactMap { line -> String? in
            guard let setting = line.range(of: "set query_command") ?? line.range(of: "address-book-cmd") else { return nil }
            return String(line[setting.lowerBound...])
        }
        #expect(lines.count == 2)
        // The README links to them (its "More"): docs/command-line.md carries them.
        let guide = try String(contentsOf: Self.commandLine, encoding: .utf8)
        let manual = try String(contentsOf: Self.manual, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        for line in lines {
            #expect(guide.contains(line), "docs/command-line.md lacks \(line)")
            #expect(manual.contains(line), "the manual lacks \(line)")
        }
        let synopsis = try #require(manual.components(separatedBy: ".SH DESCRIPTION").first)
        #expect(synopsis.contains(".B roster query\n"))
        #expect(manual.contains(".SH MAIL CLIENTS\n"))
    }

    @Test("user-facing text never says 'seed'")
    func plainWords() throws {
        for text in [try String(contentsOf: Self.manual, encoding: .utf8), try String(contentsOf: Self.readme, encoding: .utf8), Options.usage] {
            #expect(!text.lowercased().contains("seed"))
        }
    }
}
