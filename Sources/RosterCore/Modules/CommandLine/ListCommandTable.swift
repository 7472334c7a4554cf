import Foundation

/// The command line's commands: one table that runs them (`parse`),
/// completes them (`CommandCompletion`) and lists them in `?`.
public enum ListCommandTable {
    public static let commands: [ListCommandSpec] = [
        ListCommandSpec(name: "sort", aliases: [], usage: "FIELD [desc] [flat]",
                        help: "sort by any column (Tab lists them); flat: one list", argument: .sortKey) { _, arguments throws(CommandError) in
            let (order, flat) = try sortOrder(arguments)
            return .sort(order, flat: flat)
        },
        ListCommandSpec(name: "filter", aliases: [], usage: "QUERY",
                        help: "as / does: only who matches (alone: clears it)", argument: .query) { _, arguments throws(CommandError) in
            if let error = SearchQuery(arguments).error { throw CommandError("filter: " + error.describe(in: arguments)) }
            return .filter(arguments.isEmpty ? nil : arguments)
        },
        ListCommandSpec(name: "export", aliases: ["write"], usage: "FILE",
                        help: "write the shown (or marked) to FILE, as e; also :w",
                        argument: .fileName) { _, arguments throws(CommandError) in
            guard !arguments.isEmpty else { throw CommandError("export: name the file (.csv, .json or .vcf)") }
            return .export(arguments)
        },
        plain("columns", help: "choose, order and hide columns, as C does", .columns),
        plain("help", help: "these keys and commands, as ? does", .help),
        plain("quit", help: "quit, as q does (also :q)", .quit),
        ListCommandSpec(name: "N", aliases: [], usage: "", help: "go to person N (:1 the first), as less and vim do",
                        argument: .nothing) { word, arguments throws(CommandError) in
            guard arguments.isEmpty else { throw CommandError("\(word): a row number takes nothing after it") }
            return .goTo(Int(word.prefix(18)) ?? .max)
        },
    ]

    /// A command that takes nothing after its name.
    private static func plain(_ name: String, help: String, _ command: ListCommand) -> ListCommandSpec {
        ListCommandSpec(name: name, aliases: [], usage: "", help: help, argument: .nothing) { _, arguments throws(CommandError) in
            guard arguments.isEmpty else { throw CommandError("\(name) takes nothing after it, not '\(DisplayText.sanitized(arguments))'") }
            return command
        }
    }

    /// The command `line` asks for (a leading `:` or spaces allowed); nil
    /// for an empty line.
    public static func parse(_ line: String) throws(CommandError) -> ListCommand? {
        let (word, arguments) = split(line)
        guard !word.isEmpty else { return nil }
        guard let spec = spec(named: word) else { throw unknown(word) }
        return try spec.make(word, arguments)
    }

    /// The line's first word (its command) and the rest, trimmed.
    static func split(_ line: String) -> (word: String, arguments: String) {
        let text = line.trimmingCharacters(in: .whitespaces).drop { $0 == ":" }
        let word = text.prefix { !$0.isWhitespace }
        return (String(word), text.dropFirst(word.count).trimmingCharacters(in: .whitespaces))
    }

    /// The command `word` names: a number names `:N`; else a name or an
    /// alias, whole or any start of it (the first in the table wins).
    static func spec(named word: String) -> ListCommandSpec? {
        let word = word.lowercased()
        if word.allSatisfy({ $0.isASCII && $0.isNumber }) { return commands.first(where: \.isNumbered) }
        let named = commands.filter { !$0.isNumbered }
        return named.first { ([$0.name] + $0.aliases).contains(word) }
            ?? named.first { ([$0.name] + $0.aliases).contains { $0.hasPrefix(word) } }
    }

    private static func unknown(_ word: String) -> CommandError {
        let names = commands.filter { !$0.isNumbered }.flatMap { [$0.name] + $0.aliases }
        let shown = DisplayText.sanitized(word)
        guard let nearest = EditDistance.nearest(to: word.lowercased(), among: names) else {
            return CommandError("no command '\(shown)': Tab lists the commands")
        }
        return CommandError("no command '\(shown)'; did you mean \(nearest)?")
    }

    /// The words after a sort column, and what each says.
    static let sortWords: [(word: String, descending: Bool?, flat: Bool)] = [
        ("asc", false, false), ("desc", true, false), ("flat", nil, true), ("ascending", false, false), ("descending", true, false),
    ]

    /// `balance desc flat` (or `balance:desc`, as `--sort` takes it) →
    /// balance, descending, as one flat list.
    static func sortOrder(_ arguments: String) throws(CommandError) -> (SortOrder, flat: Bool) {
        let words = arguments.lowercased().split { $0.isWhitespace || $0 == ":" }.map(String.init)
        guard let field = words.first else { throw CommandError("sort: which column? Tab lists them") }
        guard let key = SortOrder.Key.named(field) else {
            let nearest = EditDistance.nearest(to: field, among: SortOrder.Key.allCases.map(\.spelling))
            throw CommandError("sort: no column '\(DisplayText.sanitized(field))'" + (nearest.map { "; did you mean \($0)?" } ?? ": Tab lists them"))
        }
        var (descending, flat) = (false, false)
        for word in words.dropFirst() {
            guard let said = sortWords.first(where: { $0.word == word }) else {
                throw CommandError("sort: asc, desc or flat after the column, not '\(DisplayText.sanitized(word))'")
            }
            descending = said.descending ?? descending
            flat = flat || said.flat
        }
        return (SortOrder(key, descending: descending), flat)
    }
}
