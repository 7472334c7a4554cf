import Foundation
import RosterCore
import RosterStore
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// `roster query TARGET WORDS…`: addresses for a mail client's completion,
/// as `khard email`, `abook --mutt-query` and aerc's `carddav-query` give
/// them: the people matching WORDS (the query language, as `--filter`),
/// one `email<TAB>name<TAB>company` line each, over any source.
enum QueryCommand {
    /// What comes before the lines: mutt's `query_command` shows a first
    /// line of its own (a count), aerc's `address-book-cmd` wants none.
    enum Format: String, CaseIterable {
        case mutt, aerc
    }

    struct Arguments: Equatable {
        var target = ""
        var words: [String] = []
        var format: Format?
        var table: String?
        /// False with `--no-cache`: a file is read whole, no index kept.
        var usesCache = true

        /// The words as one query (a mail client may pass them as one argument or as many).
        var query: String { words.joined(separator: " ").trimmingCharacters(in: .whitespaces) }
    }

    static let usage = """
    Usage: roster query [--format mutt|aerc] [--table NAME] [--no-cache] TARGET [WORDS…]

    Prints the people of TARGET (a file or database, as for browsing)
    matching WORDS, as / and --filter match them, for a mail client's
    address completion: one line each, email, name and company separated
    by tabs, ordered by last name; no WORDS, everyone (as abook
    --mutt-query and khard email). People without an email are left out,
    and so is an email that is not one plain address (a comma, a space or
    brackets in it). Tabs, line ends and control characters in a value
    become spaces or are dropped: nothing read reaches the terminal or the
    mail client as a command.
    --format mutt  a first line for mutt's query_command (how many match)
    --format aerc  no first line (also without --format)
    --table NAME   the database's table (default people)
    --no-cache     read the file whole; keep no index of it

    A file's names, companies, emails, phones and addresses are kept in
    $XDG_CACHE_HOME/roster/ (default ~/.cache/roster/, private to you) so
    the next query need not read the whole file; the index is made again
    whenever the file changes.

      .muttrc:   set query_command = "roster query --format mutt ~/people.json %s"
      aerc.conf: address-book-cmd = roster query --format aerc ~/people.json "%s"

    Exit status: 0 someone matched; 1 no one did, or TARGET could not be
    read; 2 a mistake on the command line (a bad query).
    """

    static func parse(_ arguments: [String]) throws(Options.UsageError) -> Arguments {
        var parsed = Arguments()
        var words: [String] = []
        var reader = ArgumentWords(arguments)
        var onlyWords = false
        while let argument = reader.next() {
            // A query's own words may start with a dash (-company:acme): after TARGET, only --format and --table are options.
            guard !onlyWords, argument.hasPrefix("--") else {
                words.append(argument)
                continue
            }
            switch ArgumentWords.name(of: argument) {
            case "--": onlyWords = true
            case "--no-cache": parsed.usesCache = false
            case "--table": parsed.table = try reader.value(of: "--table", argument)
            case "--format":
                let text = try reader.value(of: "--format", argument)
                guard let format = Format(rawValue: text.lowercased()) else {
                    throw Options.UsageError(message: "query: --format takes mutt or aerc, not '\(DisplayText.sanitized(text))' "
                                                 + "(the file's own format is read from its extension or content)")
                }
                parsed.format = format
            default: words.append(argument)
            }
        }
        guard let target = words.first else { throw Options.UsageError(message: "query needs a TARGET (a file or database) and the words to look for") }
        parsed.target = target
        parsed.words = Array(words.dropFirst())
        do {
            _ = try QueryParser.parse(parsed.query)
        } catch {
            throw Options.UsageError(message: "query: \(error.describe(in: parsed.query))")
        }
        return parsed
    }

    /// Runs the query; returns the exit status.
    static func run(_ arguments: [String]) async -> ExitStatus {
        if ArgumentWords.answeredHelp(arguments, usage: usage) { return .success }
        let parsed: Arguments
        do {
            parsed = try parse(arguments)
        } catch {
            return fail("roster: \(error.message) (try 'roster query --help')", format: arguments.contains { $0 == "mutt" || $0 == "--format=mutt" } ? .mutt : nil,
                        status: .usage)
        }
        let lines: AddressLines
        switch await addresses(parsed) {
        case .success(let found): lines = found
        case .failure(let failure): return fail("roster: \(failure.message)", format: parsed.format, status: .failure)
        }
        var output: [UInt8] = []
        if parsed.format == .mutt { output = Array((firstLine(count: lines.count, query: parsed.query) + "\n").utf8) }
        output += lines.bytes
        // A reader that stopped early (aerc reads a hundred lines, then stops) is no failure.
        _ = Platform.write(output, to: STDOUT_FILENO)
        return lines.count > 0 ? .success : .failure
    }

    /// The lines for `arguments`: from a database, one statement where it
    /// is; from a file, loaded as browsing loads it and searched as / does.
    private static func addresses(_ arguments: Arguments) async -> Result<AddressLines, Options.UsageError> {
        var lines = AddressLines()
        if let target = RosterCommand.databaseTarget(named: arguments.target) {
            if let malformation = DatabaseSource.malformation(of: target) { return .failure(Options.UsageError(message: malformation)) }
            if SearchQuery(arguments.query).asksOrgChart {
                // Never an empty answer in its place: a database keeps no org chart yet.
                return .failure(Options.UsageError(message: "\(DisplayText.sanitized(target.displayName)) is a database: reports-to:, under: and depth "
                                                    + "are answered for files only, for now"))
            }
            do throws(DatabaseError) {
                let table = arguments.table ?? DatabaseSource.defaultTable
                for person in try SQLPeopleRepository.peopleWithEmail(target, table: table, matching: SearchQuery(arguments.query)) {
                    lines.add(person)
                }
                return .success(lines)
            } catch {
                let failure = DatabaseSource.OpenFailure(target: target.displayName, table: arguments.table ?? DatabaseSource.defaultTable, error: error)
                return .failure(Options.UsageError(message: failure.message))
            }
        }
        guard arguments.target != "-" else { return .failure(Options.UsageError(message: "query reads a file or a database, not standard input")) }
        let query = SearchQuery(arguments.query)
        let index = arguments.usesCache ? QueryIndexFile(folder: OfflineSnapshot.defaultFolder().path, dataPath: arguments.target) : nil
        let repository: any PeopleRepository, everyone: PeopleArrangement
        switch await filePeople(path: arguments.target, query: query, index: index) {
        case .success(let found): (repository, everyone) = found
        case .failure(let failure): return .failure(failure)
        }
        var shown = everyone
        if !arguments.query.isEmpty {
            do {
                shown = try await repository.search(query, in: everyone, within: nil)
            } catch {
                return .failure(Options.UsageError(message: "\(repository.sourceName): the query could not be run: \(DisplayText.sanitized(error.detail ?? error.reason))"))
            }
        }
        _ = await repository.readAll(in: shown) { people in
            for person in people { lines.add(person) }
            return true
        }
        return .success(lines)
    }

    /// mutt's first line: how many addresses, for which words.
    static func firstLine(count: Int, query: String) -> String {
        let words = query.isEmpty ? "" : "'\(AddressLines.clean(query))'"
        return count == 0 ? "roster: no one with an email matches \(words)".trimmingCharacters(in: .whitespaces)
            : "roster: \(NumberText.count(count, "address", "addresses"))" + (words.isEmpty ? "" : " for \(words)")
    }

    /// Says why nothing was printed: on standard error; for mutt as the
    /// first line instead, which it shows as the error (what the command
    /// writes on standard error would land on mutt's screen).
    private static func fail(_ message: String, format: Format?, status: ExitStatus) -> ExitStatus {
        if format == .mutt {
            Platform.writeOutput(AddressLines.clean(SecretRedaction.redact(message)) + "\n")
        } else {
            Platform.writeError(message)
        }
        return status
    }
}

/// The lines `roster query` prints: `email<TAB>name<TAB>company`, one per
/// person with a plain address, each value on one line and without
/// control characters.
struct AddressLines {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func add(_ person: Person) {
        let email = Self.clean(person.email)
        guard Self.isPlainAddress(email) else { return }
        let line = email + "\t" + Self.clean(person.fullName) + "\t" + Self.clean(person.company) + "\n"
        bytes.append(contentsOf: line.utf8)
        count += 1
    }

    /// `text` on one line, without control, bidi or separator characters:
    /// tabs and line ends become spaces (they would split a line or a
    /// field), the rest go, and runs of spaces are one. One pass over the
    /// scalars: a query may print tens of thousands of lines.
    static func clean(_ text: String) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), utf8.first != 0x20, utf8.last != 0x20,
           !zip(utf8, utf8.dropFirst()).contains(where: { $0 == 0x20 && $1 == 0x20 }) {
            return text
        }
        var kept = String.UnicodeScalarView()
        var afterSpace = true  // no space first
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D, 0x20, 0x85, 0x2028, 0x2029:
                if !afterSpace { kept.append(" ") }
                afterSpace = true
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.isBidiControl { continue }
                kept.append(scalar)
                afterSpace = false
            }
        }
        if kept.last == " " { kept.removeLast() }
        return String(kept)
    }

    /// One address a mail client takes as one recipient: one `@` with
    /// something on each side, and no space, comma, bracket or quote that
    /// would make it two, or a name.
    static func isPlainAddress(_ email: String) -> Bool {
        var ats = 0, beforeAt = 0, afterAt = 0
        for byte in email.utf8 {
            switch byte {
            case UInt8(ascii: "@"): ats += 1
            case 0...0x20, UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("),
                 UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "\\"):
                return false
            default: if ats == 0 { beforeAt += 1 } else { afterAt += 1 }
            }
        }
        return ats == 1 && beforeAt > 0 && afterAt > 0 && email.utf8.count <= 320
    }
}
